// One request of the request journal: as kept, and as GET /__mock/requests shows it. What is kept is what the request
// left behind, held by reference (its path and query, the key check, the body as read or as the JSON reader decoded it,
// the error text answered) with no work done on it; everything shown (the key's label, a body's bytes as text,
// redaction) is derived when read
// (showEntry), off the hot path, which the journal's cost target (bench/journal.ts) needs as bare as it can be.
import type { NetworkFaultEffect, NetworkFaultKind, UploadForm } from './deps.ts';
import type { KeyCheck } from './keys.ts';
import { redactCut, withoutKey, type Redactor } from './redact.ts';

/** How much of a request or error body is kept. */
export const JOURNAL_BODY_BYTES = 4096;

/** Why a request was refused where a browser hides the reason (issue 32): shown in the journal, printed once per subject. */
export interface Refusal {
  /**
   * `cors`: a page's origin may not read API answers (its preflight refused, or an answer without CORS headers);
   * `host`: the Host header names no host the API answers; `front`: refused before the engine (a bad request target or
   * Host header, the control API's boundary, HTTP the parser refused).
   */
  by: 'cors' | 'host' | 'front';
  reason: string;
  /** The flag that would allow it (`--cors-origin http://app.test:5173`); absent when none would. */
  allow?: string;
  /** The origin or host name refused: the terminal prints one line per new one (refusal-notices.ts). Not shown. */
  subject?: string;
}

export interface Violation {
  location: string;
  severity: string;
  message: string;
  /** --upstream: the judge's rule id, check, the rule's sentence, and whose bug it is (the client's request, the server's response). */
  rule_id?: string;
  check?: string;
  rule?: string;
  side?: 'request' | 'response';
}

/** --upstream: what the proxy exchanged with the upstream, as the journal shows it (secret headers already replaced). */
export interface Exchanged {
  /** The key the client presented, to be removed from what is shown (as `presented`). Never shown. */
  key: string | undefined;
  requestHeaders: Record<string, string>;
  response: { status: number; headers: Record<string, string>; body: string; truncated: boolean };
  violations: Violation[];
  /** Why the judge did not judge it (no operation of the contract matches); undefined when judged. */
  notJudged?: string;
}

/**
 * A request as the recorder hands it to the journal (record-requests.ts); `id` is set by the journal. Its times are
 * not in it: the journal keeps them in a Float64Array beside the ring (an epoch time in milliseconds is past the
 * small-integer range, so held in an object it is a heap number of its own: one more object a request for the
 * collector to carry).
 */
export interface RecordedRequest {
  id: number;
  method: string;
  /**
   * The request's path (as routed) and query string without `?` ('' when none). Not the whole URL: held for 500
   * requests, each URL string outlived the young generation and added several MB of garbage to the RSS under load.
   */
  path: string;
  query: string;
  status: number;
  /** What the key check found (label and organization come from its owner); undefined when it never ran. */
  check: KeyCheck | undefined;
  /**
   * The body: its text when the JSON reader decoded it (up to JOURNAL_BODY_BYTES characters), else its first
   * JOURNAL_BODY_BYTES bytes as read, else null; `bytes`: its size as read or as declared.
   */
  body: string | Uint8Array | null;
  bytes: number | null;
  type: string | null;
  /** A body was declared but never read (the request was answered first, or it was a file upload). */
  unread: boolean;
  /** For a 4xx or 5xx: the error body's JSON text as answered. */
  error: string | undefined;
  /**
   * The key this request presented when it is none of the seed's, to be removed from what is shown: the redactor
   * knows the seed's keys (and key-shaped strings) only. Never shown.
   */
  presented: string | undefined;
  /** Default mode: what Prism found wrong with the engine's response. */
  violations: Violation[] | undefined;
  /** With --strict, a violation turns the answer into a 500: then `status` is 500 and this is what the engine said. */
  engine_status: number | undefined;
  /** The front's id of the request (default mode), to attach Prism's violations; not shown. */
  frontId: string | undefined;
  /** Refused by CORS, the Host check or the front (record-refusals.ts), with the reason and the flag that allows it. */
  refusal: Refusal | undefined;
  /** --upstream: the headers sent on and the upstream's answer. */
  upstream: Exchanged | undefined;
  /** What a network fault did to it (`dropped`, `timed out after 1000 ms`, ...); undefined when none did. */
  fault: NetworkFaultEffect | undefined;
  /** A multipart upload's fields and file name and size (never its bytes); undefined for any other body. */
  form: UploadForm | undefined;
  /**
   * The other modes: the request's headers by reference (the transport's raw list, or the web Request's Headers), no
   * copy made; shown with credentials masked (the HAR's request headers).
   */
  headers: readonly string[] | Headers | undefined;
  /**
   * The other modes: the engine's answer's headers by reference, and those it had the node transport set on its own
   * response (the rate-limit headers; the CORS ones before them are not kept); shown merged, credentials masked (the
   * HAR's response headers). Undefined with --upstream (its answer is `upstream.response`).
   */
  responseHeaders: Headers | undefined;
  sentHeaders: Readonly<Record<string, string>> | undefined;
}

/** An entry as the journal lists it: the request and its times. */
export interface JournalEntry extends RecordedRequest {
  /** Date.now() when the request entered the API, and its duration in whole milliseconds. */
  started: number;
  duration: number;
}

/** An entry as GET /__mock/requests shows it: redacted, bodies as text cut to JOURNAL_BODY_BYTES. */
export interface ShownEntry {
  id: number;
  time: string;
  method: string;
  path: string;
  status: number;
  /** Whole milliseconds (Date.now() when answered less when it arrived). */
  duration_ms: number;
  /** The key's label from the seed (never the key), `no key`, `invalid key`, or `not checked` (refused before the engine). */
  key: string;
  organization_id: string | null;
  violations?: Violation[];
  /** --upstream: why the exchange was not judged (no operation of the contract matches it). */
  not_judged?: string;
  engine_status?: number;
  /**
   * What an armed network fault did to it: its kind, and `effect` as it reads (`dropped`, `timed out after 1000 ms`,
   * `reset mid-answer`, `malformed body`, `delayed 300 ms`). A dropped or timed-out request got no answer: its
   * `status` (502, 504) is what the engine's marked answer stands for.
   */
  fault?: { kind: NetworkFaultKind; effect: string };
  /** Why the mock refused it, or why the browser hid its answer from the page, and the flag that would allow it. */
  refused?: { by: Refusal['by']; reason: string; allow?: string };
  /** The query string without `?`; '' when none. */
  query: string;
  request: {
    content_type: string | null;
    /** Size of the body as sent (Content-Length, or as read); null when unknown. */
    bytes: number | null;
    /** The first JOURNAL_BODY_BYTES as text; null when not kept (see `note`). */
    body: string | null;
    truncated: boolean;
    note?: string;
    /** The headers as sent (--upstream: as sent on), credentials masked. */
    headers?: Record<string, string>;
    /** A multipart upload: its text fields and its file's name and size (the bytes are not kept). */
    form?: UploadForm;
  };
  /** The other modes: the headers the engine answered with, credentials masked; absent when Prism replaced its answer. */
  response_headers?: Record<string, string>;
  /** --upstream: the upstream's answer as the client got it (its body up to UPSTREAM_BODY_CHARS). */
  response?: Exchanged['response'];
  /** The error body as answered (its `details` included), parsed back; its text when it was cut. */
  error?: unknown;
}

/**
 * A text as the journal keeps it: at most `limit` characters, a string of its own when cut. A slice shares its
 * parent's characters in V8, so a kept cut of a long answer would hold the whole answer while the journal counts only
 * the cut (250 answers of 1.9 MB: 475 MB where it counted 64; bench/upstream-hostile.ts). JSON's round trip copies
 * every code unit, lone surrogates too.
 */
export const cut = (text: string, limit = JOURNAL_BODY_BYTES) =>
  text.length > limit ? (JSON.parse(JSON.stringify(text.slice(0, limit))) as string) : text;

const UTF8 = new TextDecoder('utf-8');
const TEXTUAL = /^(application\/([\w.+-]*\+)?json|text\/|application\/x-www-form-urlencoded)/i;

type Clean = (text: string, cut?: boolean) => string;

function requestShown(e: JournalEntry, clean: Clean): ShownEntry['request'] {
  const part = { content_type: e.type, bytes: e.bytes, body: null as string | null, truncated: false };
  if (e.form) return { ...part, note: 'not kept: a file upload', form: formShown(e.form, clean) };
  if (e.unread) {
    const upload = e.type !== null && /^multipart\//i.test(e.type);
    return { ...part, note: upload ? 'not kept: a file upload' : 'not read: the request was answered before its body was read' };
  }
  if (!e.body || e.bytes === 0) return part;
  if (typeof e.body === 'string') return { ...part, body: clean(e.body) }; // kept whole (record-requests.ts)
  if (!TEXTUAL.test(e.type ?? '')) return { ...part, note: 'not kept: not a text body' };
  const truncated = e.bytes !== null && e.bytes > e.body.byteLength;
  return { ...part, body: clean(UTF8.decode(e.body), truncated), truncated };
}

const formShown = (f: UploadForm, clean: (text: string) => string): UploadForm => ({
  fields: Object.fromEntries(Object.entries(f.fields).map(([k, v]) => [clean(k), clean(v)])),
  ...(f.file ? { file: { filename: clean(f.file.filename), bytes: f.file.bytes } } : {}),
});

function keyLabel(check: KeyCheck | undefined, refusal: Refusal | undefined, upstream: Exchanged | undefined): string {
  if (upstream) return upstream.key ? 'passed to the upstream' : 'no key';
  if (check?.owner) return check.owner.label;
  if (refusal && refusal.by !== 'cors' && !check) return 'not checked';
  return check?.ok === false && check.reason === 'unknown' ? 'invalid key' : 'no key';
}

const cleanHeaders = (h: Record<string, string>, clean: (text: string) => string) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, clean(v)]));

/** Credentials a request carries: shown as present, never with their value. */
const SECRET_HEADERS = ['x-api-key', 'authorization', 'cookie', 'proxy-authorization'];
const SHOWN_SECRET = '[redacted]';

/** Headers as shown: names in lower case, repeated fields joined with ", ", credentials masked, the mock's own (x-mock-*) left out. */
export function maskedHeaders(h: readonly string[] | Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, value: string) => {
    const k = name.toLowerCase();
    if (k.startsWith('x-mock-') && k !== 'x-mock-fault-scope') return;
    const v = SECRET_HEADERS.includes(k) ? SHOWN_SECRET : value;
    out[k] = k in out && v !== SHOWN_SECRET ? `${out[k]}, ${v}` : v;
  };
  if (Array.isArray(h)) for (let i = 0; i + 1 < h.length; i += 2) add(h[i]!, h[i + 1]!);
  else if (h instanceof Headers)
    h.forEach((v, k) => {
      add(k, v);
    });
  else for (const k in h) add(k, (h as Record<string, string>)[k]!);
  return out;
}

export function showEntry(e: JournalEntry, redact: Redactor): ShownEntry {
  // A text cut short is redacted as if before the cut (redactCut): what a cut leaves of a key reads as no key.
  const clean: Clean = (text, wasCut = false) => {
    const known = withoutKey(withoutKey(text, e.presented), e.upstream?.key);
    return wasCut ? redactCut(known, redact) : redact(known);
  };
  // Field by field, in the order GET /__mock/requests has always listed them; optional ones only when set.
  const shown: ShownEntry = {
    id: e.id,
    time: new Date(e.started).toISOString(),
    method: e.method,
    path: e.path,
    status: e.status,
    duration_ms: e.duration,
    key: keyLabel(e.check, e.refusal, e.upstream),
    organization_id: e.check?.owner?.organization_id ?? null,
  } as ShownEntry;
  if (e.violations !== undefined) shown.violations = e.violations;
  if (e.upstream?.notJudged !== undefined) shown.not_judged = clean(e.upstream.notJudged);
  if (e.engine_status !== undefined) shown.engine_status = e.engine_status;
  if (e.fault !== undefined) shown.fault = { kind: e.fault.kind, effect: e.fault.text };
  if (e.refusal) {
    const { by, reason, allow } = e.refusal;
    shown.refused = { by, reason: clean(reason), ...(allow !== undefined ? { allow: clean(allow) } : {}) };
  }
  shown.query = e.query && clean(e.query);
  shown.request = requestShown(e, clean);
  if (e.headers) shown.request.headers = cleanHeaders(maskedHeaders(e.headers), clean);
  if (e.responseHeaders && e.engine_status === undefined)
    shown.response_headers = cleanHeaders({ ...maskedHeaders(e.responseHeaders), ...maskedHeaders(e.sentHeaders ?? {}) }, clean);
  if (e.upstream) {
    const { requestHeaders, response } = e.upstream;
    shown.request.headers = cleanHeaders(requestHeaders, clean);
    shown.response = { ...response, headers: cleanHeaders(response.headers, clean), body: clean(response.body, response.truncated) };
  }
  if (e.error !== undefined) {
    const text = clean(cut(e.error), e.error.length >= JOURNAL_BODY_BYTES);
    try {
      shown.error = JSON.parse(text);
    } catch {
      shown.error = text;
    }
  }
  return shown;
}
