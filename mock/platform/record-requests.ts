// What fills the request journal (request-journal.ts): started as a request enters the API, after CORS and before
// every check (pipeline.ts's apiFront), it records one entry once the request is answered. It keeps what the request
// left behind (journal-entry.ts) and does no other work: the entry is shown (the key's label, the body as text,
// redaction) only when read. An error body is the text answerError handed over by name
// (`errorBody`); only an error answered some other way is read back from the response (a clone takes
// @hono/node-server off its fast path: it halved the throughput of refusals; wrapping c.json per request cost as much
// on every route).
import { adapterOf } from './adapter.ts';
import type { EngineContext } from './deps.ts';
import { cut, JOURNAL_BODY_BYTES, type RecordedRequest } from './journal-entry.ts';
import type { KeyCheck } from './keys.ts';
import type { Recorder } from './pipeline.ts';
import { requestHeader } from './request-header.ts';
import { markEntry } from './network-faults.ts';
import type { RequestJournal } from './request-journal.ts';

/** Set by the default mode's front on each API request it forwards: Prism's violations are attached by it. */
export const REQUEST_ID_HEADER = 'x-mock-request-id';

/** The key this request presented when it is none of the seed's (the check found no owner); see JournalEntry.presented. */
const unknownKey = (c: EngineContext, check: KeyCheck | undefined) =>
  check?.ok === false && check.reason === 'unknown' ? requestHeader(c, 'x-api-key') : undefined;

/**
 * The body to keep: its text when the JSON reader decoded it and it is short enough to keep whole (then the bytes die
 * young: a Buffer held for 500 requests cost the collector more than the string does), else the first
 * JOURNAL_BODY_BYTES bytes (copied, so that a large body is not held whole).
 */
const kept = (raw: Uint8Array, text: string | undefined) =>
  text !== undefined && text.length <= JOURNAL_BODY_BYTES
    ? text
    : raw.byteLength > JOURNAL_BODY_BYTES
      ? Uint8Array.prototype.slice.call(raw, 0, JOURNAL_BODY_BYTES)
      : raw;

/** A body declared and never read (the request was answered first, or it was a file upload): its size and type. */
function declaredBody(c: EngineContext, entry: RecordedRequest) {
  const declared = requestHeader(c, 'content-length');
  if (declared === undefined || declared === '0') return;
  entry.unread = true;
  entry.bytes = /^\d+$/.test(declared) ? Number(declared) : null;
  entry.type = requestHeader(c, 'content-type') ?? null;
}

const readBack = (res: Response) =>
  res
    .clone()
    .text()
    .catch(() => '');

/**
 * Records every API request in `journal`, once answered (pipeline.ts's apiFront calls it with the time the request
 * entered the API). `trustRequestId`: behind the default front, whose REQUEST_ID_HEADER it is.
 */
export function recordRequests(journal: RequestJournal, trustRequestId: boolean): Recorder {
  return (c, started, answer) => {
    const fault = c.get('fault');
    // A timeout's hold is acted out by the transport after this answer: the hold until it reports (journal.settle).
    const duration = fault?.heldMs ?? Math.max(0, Date.now() - started); // the wall clock may be set back meanwhile
    const check = c.get('keyCheck');
    const raw = c.get('requestBody');
    const status = answer.status;
    const url = c.req.url;
    const upstream = c.get('upstream');
    const q = url.indexOf('?');
    // Every field set here, in one shape, so that the ring holds objects of one hidden class (record() sets only id).
    // Measured (bench/journal.ts): each read or copy added here shows in the throughput of a refused POST.
    const entry: RecordedRequest = {
      id: 0,
      method: c.req.method,
      path: c.req.path,
      query: q < 0 ? '' : url.slice(q + 1),
      status,
      check,
      body: raw ? kept(raw, c.get('requestText')) : null,
      bytes: raw ? raw.byteLength : null,
      type: raw ? (requestHeader(c, 'content-type') ?? null) : null,
      unread: false,
      error: status < 400 ? undefined : c.get('errorBody'),
      presented: unknownKey(c, check),
      violations: upstream?.violations.length ? upstream.violations : undefined,
      engine_status: upstream && upstream.response.status !== status ? upstream.response.status : undefined,
      frontId: trustRequestId ? requestHeader(c, REQUEST_ID_HEADER) : undefined,
      refusal: c.get('refusal'),
      upstream,
      fault,
      form: c.get('form'),
      // By reference, no copy: the node adapter's raw list; in-process, the web Request's own Headers.
      headers: upstream ? undefined : (adapterOf(c)?.rawHeaders?.() ?? c.req.raw.headers),
      responseHeaders: upstream ? undefined : answer.headers,
      sentHeaders: upstream ? undefined : c.get('sentHeaders'),
    };
    if (!raw && entry.method !== 'GET' && entry.method !== 'HEAD') declaredBody(c, entry);
    if (entry.error !== undefined) entry.error = cut(entry.error);
    else if (status >= 400)
      return readBack(answer).then((text) => {
        entry.error = cut(text);
        journal.record(entry, started, duration);
      });
    journal.record(entry, started, duration);
    // The transport holds a timeout after this answer: it reports the real wait against the entry (journal.settle).
    if (fault?.kind === 'timeout') markEntry(answer, entry.id);
  };
}
