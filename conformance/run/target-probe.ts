// Is the target the API at all? The run's first requests, before any check: a transport failure is an unreachable
// target, a redirect or a base URL that answers no API path as the API (every answer a 404, or none of them JSON: a
// web site, a sign-in page, the host without /ext-api/v1) is bad usage; each ends the run with exit 2 and a hint,
// instead of a hundred failures that read like contract breaches. The first request carries no key, so a redirecting
// or wrong target never receives it.
import { OversizedAnswer, TransportError, type Http, type KeyRef } from '../target/http.ts';

export class UnreachableTarget extends Error {}
/** The main key was refused (401/403) on the first request that carried it: nothing else could be checked. */
export class KeyRefused extends Error {}
/** The base URL does not answer as the API (exit 2 with a hint). */
class NotTheApi extends Error {}

/** What the API prefix is, for the hint. */
const PREFIX = '/ext-api/v1';

interface Answer {
  path: string;
  keyed: boolean;
  status: number;
  mediaType: string;
  location?: string;
}

/** A header of the target's, as the hint shows it: control characters (C0, DEL, C1) spelled out, cut short. */
const shownHeader = (s: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  s.slice(0, 200).replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

async function ask(http: Http, url: string, path: string, key?: KeyRef): Promise<Answer> {
  try {
    const ex = await http.send('reachability', { method: 'GET', path, key, query: { limit: 1 } });
    const { status, mediaType, headers } = ex.response;
    return { path, keyed: !!key, status, mediaType, location: headers.location };
  } catch (err) {
    // A body past the bound still came with a status and a media type: the target answered.
    if (err instanceof OversizedAnswer) return { path, keyed: !!key, status: err.status, mediaType: err.mediaType };
    if (err instanceof TransportError) throw new UnreachableTarget(`cannot reach ${url}: ${err.message}`);
    throw err;
  }
}

const isJson = (m: string) => m === 'application/json' || m.endsWith('+json');
/** An answer only the API gives: JSON, and not a 404 (which any server gives for a path it does not have). */
const asTheApi = (a: Answer) => a.status !== 404 && isJson(a.mediaType);
const shown = (a: Answer) =>
  `GET ${a.path}${a.keyed ? '' : ' without a key'}: ${a.status} ${shownHeader(a.mediaType) || '(no Content-Type)'}`;

function redirected(url: string, a: Answer): NotTheApi | undefined {
  if (a.status < 300 || a.status >= 400) return undefined;
  const to = a.location ? ` to ${shownHeader(a.location)}` : '';
  return new NotTheApi(
    `${url}: GET ${a.path} answered ${a.status} (a redirect${to}). The suite never follows a redirect, which would carry ` +
      `the key to another address: give --url the address the API answers at itself, including ${PREFIX}.`,
  );
}

/** The run's first request, without a key: throws when the target cannot be reached or redirects. */
export async function reachTarget(http: Http, url: string): Promise<Answer> {
  const a = await ask(http, url, '/providers');
  const r = redirected(url, a);
  if (r) throw r;
  return a;
}

/**
 * The first requests with the main key: a 401 or 403 means nothing else can be checked (KeyRefused); a redirect, or
 * no answer from the API (with or without the key) on /providers and /patients, means the URL is not the API's.
 */
export async function probeTarget(http: Http, key: KeyRef, url: string, unkeyed: Answer): Promise<void> {
  const seen = [unkeyed];
  for (const path of ['/providers', '/patients']) {
    const a = await ask(http, url, path, key);
    const r = redirected(url, a);
    if (r) throw r;
    if (path === '/providers' && (a.status === 401 || a.status === 403))
      throw new KeyRefused(`the main key (--key) was refused: GET /providers answered ${a.status}`);
    seen.push(a);
    if (seen.some(asTheApi)) return;
  }
  const host = new URL(url);
  const hint = host.pathname.replace(/\/$/, '').endsWith(PREFIX)
    ? `Is it the API's address? The base URL ends with ${PREFIX}, e.g. https://staging.example.org${PREFIX}.`
    : `The base URL must include the API's prefix ${PREFIX}: try --url ${host.origin}${PREFIX}`;
  throw new NotTheApi(`${url} answers no API path as the API (${seen.map(shown).join('; ')}): every answer a 404 or not JSON. ${hint}`);
}
