// The in-process mock's webhook sender: a fetch (the global one, looked up at each send so a fetch patched later, as
// MSW's setupServer does, is used; or the createMock({ webhookFetch }) one). Redirects are not followed, as with the
// node sender; the body is not read. A fetch cannot pin the address the destination check approved: it resolves the
// name again. Content-Length is the fetch's own to set (a page may not set it).
import type { Sender } from './deliver.ts';

export type FetchFn = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export function fetchSender(fetchFn?: FetchFn): Sender {
  return async (url, _addresses, headers, body, signal) => {
    const sent = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-length'));
    const res = await (fetchFn ?? globalThis.fetch)(url.href, { method: 'POST', headers: sent, body, signal, redirect: 'manual' });
    await res.body?.cancel().catch(() => undefined);
    // A redirect is a failure (never followed): a browser's manual redirect is an opaque 0; report it as 3xx.
    return res.type === 'opaqueredirect' ? 302 : res.status;
  };
}
