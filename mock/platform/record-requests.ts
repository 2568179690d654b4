// What fills the request journal (request-journal.ts): started as a request enters the API, after CORS and before
// every check (pipeline.ts's apiFront), it records one entry once the request is answered. On the hot path (a 2xx
// without a body) it costs two clock reads and one object; a body is decoded (its first 4 KB) only when there is
// one, and redacted only when read. An error body is the text answerError handed over by name (`errorBody`); only
// an error answered some other way is read back from the response (a clone takes @hono/node-server off its fast
// path: it halved the throughput of refusals; wrapping c.json per request cost as much on every route).
import type { EngineContext } from './deps.ts';
import type { Recorder } from './pipeline.ts';
import { withoutKey } from './redact.ts';
import { requestHeader } from './request-header.ts';
import { JOURNAL_BODY_BYTES, type JournalEntry, type RequestJournal } from './request-journal.ts';

/** Set by the default mode's front on each API request it forwards: Prism's violations are attached by it. */
export const REQUEST_ID_HEADER = 'x-mock-request-id';

const UTF8 = new TextDecoder('utf-8');
const TEXTUAL = /^(application\/([\w.+-]*\+)?json|text\/|application\/x-www-form-urlencoded)/i;
const NO_BODY: JournalEntry['request'] = Object.freeze({ content_type: null, bytes: null, body: null, truncated: false });

/** The key this request presented, removed from `text` now (the journal's read-time redaction cannot know it). */
const withoutPresented = (c: EngineContext, text: string) => withoutKey(text, requestHeader(c, 'x-api-key'));

// Headers are read through requestHeader: under @hono/node-server, c.req.header() builds a whole web Headers object
// from the socket's raw list on first use, which cost more than the rest of the entry.
function requestPart(c: EngineContext): JournalEntry['request'] {
  const raw = c.get('requestBody');
  if (!raw && (c.req.method === 'GET' || c.req.method === 'HEAD')) return NO_BODY; // no header lookups on the commonest path
  const declared = requestHeader(c, 'content-length');
  if (!raw && (declared === undefined || declared === '0')) return NO_BODY;
  const type = requestHeader(c, 'content-type') ?? null;
  const bytes = raw ? raw.byteLength : /^\d+$/.test(declared!) ? Number(declared) : null;
  if (raw && raw.byteLength === 0) return { content_type: type, bytes: 0, body: null, truncated: false };
  if (raw && TEXTUAL.test(type ?? '')) {
    const head = raw.byteLength > JOURNAL_BODY_BYTES ? raw.subarray(0, JOURNAL_BODY_BYTES) : raw;
    return { content_type: type, bytes, body: withoutPresented(c, UTF8.decode(head)), truncated: head !== raw };
  }
  const note = raw
    ? 'not kept: not a text body'
    : type && /^multipart\//i.test(type)
      ? 'not kept: a file upload'
      : 'not read: the request was answered before its body was read';
  return { content_type: type, bytes, body: null, truncated: false, note };
}

/** The error body's text, cut to JOURNAL_BODY_BYTES. */
const errorPart = (c: EngineContext, text: string) =>
  withoutPresented(c, text.length > JOURNAL_BODY_BYTES ? text.slice(0, JOURNAL_BODY_BYTES) : text);

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
    const duration = performance.now() - started;
    const status = answer.status;
    const url = c.req.url;
    const q = url.indexOf('?');
    const check = c.get('keyCheck');
    const owner = check?.owner;
    // Every field set here, in one shape, so that the ring holds objects of one hidden class (record() sets only id).
    const entry: JournalEntry = {
      id: 0,
      at: Math.round(Date.now() - duration),
      method: c.req.method,
      path: c.req.path,
      query: q < 0 ? '' : withoutPresented(c, url.slice(q + 1)),
      status,
      duration_ms: Math.round(duration * 100) / 100,
      key: owner ? owner.label : check?.ok === false && check.reason === 'unknown' ? 'invalid key' : 'no key',
      organization_id: owner ? owner.organization_id : null,
      request: requestPart(c),
      error: undefined,
      violations: undefined,
      engine_status: undefined,
      frontId: trustRequestId ? requestHeader(c, REQUEST_ID_HEADER) : undefined,
    };
    if (status < 400) return journal.record(entry);
    const answered = c.get('errorBody');
    if (answered !== undefined) {
      entry.error = errorPart(c, answered);
      return journal.record(entry);
    }
    return readBack(answer).then((text) => {
      entry.error = errorPart(c, text);
      journal.record(entry);
    });
  };
}
