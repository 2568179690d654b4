// --upstream: every API request, once the front's faults let it on, is sent to the real service with the client's own
// headers and key, and its answer returned as it came. The one judge (judge/) reads each exchange; what it
// finds goes to the journal entry, the terminal (one line an exchange) and, with --upstream-errors, to the client as
// a 502 in place of the violating answer. Nothing of the exchange is kept but the journal's entry: no state.
import type { RecordedExchange, TrafficViolation } from '../../judge/traffic.ts';
import type { Judged } from '../../judge/live.ts';
import { adapterOf } from '../platform/adapter.ts';
import type { EngineContext, RouteHandler } from '../platform/deps.ts';
import { HOP_BY_HOP } from '../platform/hop-by-hop.ts';
import { cut, JOURNAL_BODY_BYTES, maskedHeaders, type Exchanged, type Violation } from '../platform/journal-entry.ts';
import { createRedactor, withoutKey } from '../platform/redact.ts';
import { visible } from '../platform/refusal-notices.ts';
import { answerError, readBody } from '../platform/responses.ts';
import { API_BASE } from '../platform/spec.ts';

export interface UpstreamAnswer {
  status: number;
  /** Lower-case names; repeated fields joined with ", ". */
  headers: Record<string, string>;
  /** As the upstream sent it (still compressed, when it was). */
  body: Uint8Array;
  /** The body as the journal and the judge read it. */
  judged(): UpstreamBody;
}

export interface UpstreamBody {
  /** Decoded from its Content-Encoding, when it was (what the journal keeps). */
  text?: string;
  /** Why the judge does not read it (too large, a bomb), when it does not. */
  unjudged?: string;
}

/** Sends one request to the upstream: `target` is the path and query under the upstream's base URL. */
export type Forward = (
  method: string,
  target: string,
  headers: Record<string, string>,
  body: Uint8Array | undefined,
  /** Aborted when the client goes: the upstream request is cancelled. */
  signal?: AbortSignal,
) => Promise<UpstreamAnswer>;

export class UpstreamUnreachable extends Error {}

export interface UpstreamProxy {
  /** The upstream's base URL, as given (the banner, the 502's text). */
  base: string;
  forward: Forward;
  judge(exchange: RecordedExchange): Judged;
  /** --upstream-errors: a response that breaks a rule is answered 502 with the violations instead. */
  errors: boolean;
  /** One line per exchange (the terminal), unless quiet. */
  onExchange?: (line: string) => void;
}

/** Largest request body sent on: a 10 MB upload and its multipart framing. */
const MAX_FORWARDED = 11 * 1024 * 1024;
/** The journal keeps this much of each upstream answer's text (the HAR's bodies; a list of 100 records is ~60 KB). */
const UPSTREAM_BODY_CHARS = 256 * 1024;
/**
 * The journal's `error` of an answer of 400 or more, from what was read already: left to the journal, it would read
 * the whole answer back as text (31 MB an entry) to keep its first 4 KB.
 */
const errorText = (text: string | undefined, body: Uint8Array) =>
  cut(text ?? new TextDecoder().decode(body.subarray(0, JOURNAL_BODY_BYTES)), JOURNAL_BODY_BYTES);
/**
 * Access-control fields are the front's (its CORS policy answers the page), never the upstream's; nor are the mock's
 * own (an upstream's X-Mock-Fault would make the front drop or reset the answer).
 */
const dropped = (name: string) =>
  HOP_BY_HOP.includes(name) || name === 'content-length' || name.startsWith('access-control-') || name.startsWith('x-mock-');
/** Key-shaped strings and key-named JSON fields, whatever the key (the seed's mean nothing to an upstream). */
const redactKeyLike = createRedactor([]);

/** The request's headers, through the adapter when it reads them without building web Headers (node-env.ts). */
function requestHeaders(c: EngineContext): Record<string, string> {
  const fast = adapterOf(c)?.allHeaders?.();
  if (fast) return fast;
  const h: Record<string, string> = {};
  c.req.raw.headers.forEach((v, k) => {
    h[k] = v;
  });
  return h;
}

/** A judge's finding as the journal lists violations (Prism's have location, severity and message only). */
const asJournalViolation = (v: TrafficViolation): Violation => ({
  location: v.where,
  severity: 'Error',
  message: `${v.expected}; got ${v.actual}`,
  rule_id: v.ruleId,
  check: v.check,
  rule: v.rule,
  side: v.side,
});

/** The terminal's line for one exchange. */
function exchangeLine(method: string, path: string, status: number, violations: TrafficViolation[], notJudged?: string): string {
  const head = `${method} ${path} -> ${status}`;
  // Never a ✓ for what nothing judged: a path the contract does not have is the app's call or the document's gap.
  if (notJudged && !violations.length) return `[upstream] · ${head}  not judged: ${notJudged}`;
  if (!violations.length) return `[upstream] ✓ ${head}`;
  // A request the contract forbids is the app's bug; an answer outside it, the service's.
  const each = violations.map(
    (v) => `${v.side === 'request' ? 'app' : 'service'} ${v.ruleId} ${v.check} at ${v.where}: ${v.actual.slice(0, 160)}`,
  );
  return `[upstream] ✗ ${head}  ${violations.length} violation(s): ${each.join(' | ')}`;
}

/** The terminal's line for one exchange, control and bidi characters escaped (it quotes the path and the answer). */
const shownLine = (...args: Parameters<typeof exchangeLine>) => visible(exchangeLine(...args));

export function forwardRoute(proxy: UpstreamProxy): RouteHandler {
  return async (c) => {
    const raw = await readBody(c, MAX_FORWARDED);
    if (raw instanceof Response) return raw;
    const body = raw.byteLength ? raw : undefined;
    const requestText = body && new TextDecoder().decode(body);
    if (requestText !== undefined) c.set('requestText', requestText);
    const headers = requestHeaders(c);
    const url = new URL(c.req.url);
    const target = `${url.pathname.slice(API_BASE.length)}${url.search}`;
    let answer: UpstreamAnswer;
    try {
      answer = await proxy.forward(c.req.method, target, headers, body, adapterOf(c)?.clientGone?.() ?? c.req.raw.signal);
    } catch (e) {
      if (!(e instanceof UpstreamUnreachable)) throw e;
      return answerError(c, { error: `The upstream ${proxy.base} did not answer: ${e.message}` }, 502);
    }
    const read = answer.judged();
    const text = read.text;
    const { violations: judged, notJudged: why } = proxy.judge({
      method: c.req.method,
      url: `${url.pathname}${url.search}`,
      requestHeaders: headers,
      requestBody: requestText,
      requestBytes: body?.byteLength,
      status: answer.status,
      responseHeaders: answer.headers,
      responseBody: read.unjudged === undefined ? text : undefined,
    });
    // A body the judge did not read is said so: judged on its status and headers only.
    const notJudged = read.unjudged !== undefined ? [why, `body not judged: ${read.unjudged}`].filter(Boolean).join('; ') : why;
    // A finding quotes what was sent or answered: the client's key, or anything shaped like one, never leaves in it
    // (the terminal, the 502, the journal).
    const key = headers['x-api-key'];
    const hide = (t: string) => redactKeyLike(withoutKey(t, key));
    const violations = judged.length ? judged.map((v) => ({ ...v, expected: hide(v.expected), actual: hide(v.actual) })) : judged;
    const shownHeaders = maskedHeaders(headers);
    const exchanged: Exchanged = {
      key,
      requestHeaders: shownHeaders,
      response: {
        status: answer.status,
        headers: answer.headers,
        body: text === undefined ? '' : cut(text, UPSTREAM_BODY_CHARS),
        truncated: text === undefined || text.length > UPSTREAM_BODY_CHARS,
      },
      violations: violations.map(asJournalViolation),
      notJudged,
    };
    c.set('upstream', exchanged);
    proxy.onExchange?.(shownLine(c.req.method, c.req.path, answer.status, violations, notJudged));
    const broken = violations.filter((v) => v.side === 'response');
    if (proxy.errors && broken.length)
      return answerError(
        c,
        {
          error: `The upstream answered ${answer.status} outside the contract (--upstream-errors)`,
          violations: broken.map(asJournalViolation),
        },
        502,
      );
    // A plain record, not web Headers: @hono/node-server writes it as is (Headers it converts first, per request).
    const out: Record<string, string> = {};
    for (const k in answer.headers) if (!dropped(k)) out[k] = answer.headers[k]!;
    const empty = answer.body.byteLength === 0 || c.req.method === 'HEAD' || answer.status === 204 || answer.status === 304;
    if (answer.status >= 400) c.set('errorBody', empty ? '' : errorText(text, answer.body));
    return new Response(empty ? null : (answer.body as Uint8Array<ArrayBuffer>), { status: answer.status, headers: out });
  };
}
