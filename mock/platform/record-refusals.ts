// Requests the front refused before the engine saw them (mock/front/gate.ts: a bad target or Host, a Host the API does
// not answer, the control API's boundary; mock/front/client-error.ts: HTTP the parser refused), as request journal
// entries: a browser hides these answers from the page, so the journal and the dashboard are where they show.
import type { RecordedRequest, Refusal } from './journal-entry.ts';
import { cut } from './journal-entry.ts';

export interface FrontRefusal {
  method: string;
  /** The request target as sent (path and query), or '' when the parser could not read it. */
  target: string;
  status: number;
  /** The JSON text answered. */
  error: string;
  refusal: Refusal;
  /** The request's headers as far as they were read (node's lower-case names). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v);

/** The journal entry of a refused request (its id set when recorded): its body never read, the key never checked. */
export function refusedEntry(r: FrontRefusal): RecordedRequest {
  const q = r.target.indexOf('?');
  const declared = one(r.headers['content-length']);
  const unread = declared !== undefined && declared !== '0';
  return {
    id: 0,
    method: r.method,
    path: q < 0 ? r.target : r.target.slice(0, q),
    query: q < 0 ? '' : r.target.slice(q + 1),
    status: r.status,
    check: undefined,
    body: null,
    bytes: unread && /^\d+$/.test(declared) ? Number(declared) : null,
    type: unread ? (one(r.headers['content-type']) ?? null) : null,
    unread,
    error: cut(r.error),
    presented: one(r.headers['x-api-key']),
    violations: undefined,
    engine_status: undefined,
    frontId: undefined,
    refusal: r.refusal,
    upstream: undefined,
    fault: undefined,
    form: undefined,
    // Refused before the engine: what the front read of them is not the whole request, not shown as its headers.
    headers: undefined,
    responseHeaders: undefined,
    sentHeaders: undefined,
  };
}
