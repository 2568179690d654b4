// One HTTP client for every check: bounded concurrency and time, and every exchange handed to the response
// checks (status, content type, schema, rate-limit headers, no 5xx) whatever the check that caused it. Whatever the
// target does, a request ends: redirects are answers, never followed (they would carry the key elsewhere), each
// request has a timeout covering its body, a body is read up to MAX_ANSWER_BYTES, and a key the target echoes back
// is replaced by its variable on arrival, before any check can cut it into an unrecognisable prefix.
import { setTimeout as sleep } from 'node:timers/promises';
import { AnswerTooLarge, KeptText, readBounded } from './answer-bounds.ts';
import type { Contract } from '../../spec/runtime/contract.ts';
import type { Exchange, ReceivedResponse, SentRequest } from '../../judge/define.ts';
import { parseJson } from './json-text.ts';
import { Redactor } from '../report/redact.ts';
import { stopReason } from '../run/run-deadline.ts';

/** An API key and the shell variable its curl lines use instead of its value. */
export interface KeyRef {
  role: string;
  value: string;
  envVar: string;
}

export interface RequestSpec {
  method: string;
  /** Path relative to the base URL, e.g. /patients/123. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** `undefined` sends no X-API-Key. */
  key?: KeyRef;
  /** A literal key value that is not a secret (an invalid key). */
  rawKey?: string;
  headers?: Record<string, string>;
  json?: unknown;
  /** A raw body sent as is (malformed JSON). */
  bodyText?: string;
  form?: { fields: Record<string, string>; file?: { name: string; type: string; bytes: Uint8Array } };
  /** The check wants the 429 itself: never pause and resend on it. */
  acceptRateLimited?: boolean;
}

export class TransportError extends Error {
  constructor(
    message: string,
    /** The request that got no answer, when it was sent (its curl line still reproduces it). */
    readonly request?: SentRequest,
  ) {
    super(message);
  }
}

/** An answer whose body went past MAX_ANSWER_BYTES: it came (status, media type), but was not read. */
export class OversizedAnswer extends TransportError {
  constructor(
    message: string,
    readonly status: number,
    readonly mediaType: string,
  ) {
    super(message);
  }
}

/** A write the run was told never to send (--read-only): refused here, before anything leaves the process. */
export class ReadOnlyRefused extends Error {}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The most one request waits, in all, for the target's rate-limit windows to reopen (5 minutes): past it the request
 * is given up (RateLimitExhausted) rather than handing its check a 429 of a spent window as the answer.
 */
const RATE_LIMIT_PATIENCE_MS = 300_000;

/** Answer text the exchange log keeps in all (32 MB of characters). */
const EXCHANGE_LOG_CHARS = 32 * 1024 * 1024;

/** A request the target's rate limit kept waiting longer than RATE_LIMIT_PATIENCE_MS (or asked to). */
export class RateLimitExhausted extends Error {}

/**
 * Requests in a row that got no answer within --timeout, after which the target is taken to have stopped answering:
 * nothing more is sent (TargetSilent), so a silent server ends the run in seconds, not a timeout per planned request.
 */
const SILENT_IN_A_ROW = 5;

/** A request not sent because the target stopped answering (SILENT_IN_A_ROW requests in a row without an answer). */
export class TargetSilent extends Error {}

/**
 * Seconds to wait before resending after `res`, or undefined when it is not a spent rate-limit window (an injected
 * 429 leaves X-RateLimit-Remaining above 0, and a check that asked for a 429 must see it). Retry-After (seconds or an
 * HTTP date) says how long; without it X-RateLimit-Reset (epoch seconds, or seconds), else 1 s doubling per attempt.
 */
export function rateLimitWait(res: ReceivedResponse, attempt = 0): number | undefined {
  if (res.status !== 429 || res.headers['x-ratelimit-remaining'] !== '0') return undefined;
  const now = Date.now() / 1000;
  const ra = (res.headers['retry-after'] ?? '').trim();
  const reset = (res.headers['x-ratelimit-reset'] ?? '').trim();
  let s: number;
  if (/^\d+$/.test(ra)) s = Number(ra);
  else if (ra && Number.isFinite(Date.parse(ra))) s = Math.ceil(Date.parse(ra) / 1000 - now);
  else if (/^\d+$/.test(reset)) s = Number(reset) > 1e9 ? Math.ceil(Number(reset) - now) : Number(reset);
  else s = Math.min(2 ** attempt, 30);
  return Math.max(1, s);
}

type Listener = (ex: Exchange) => void;

/** A counting semaphore: at most `n` requests in flight across all checks. */
class Gate {
  private active = 0;
  private readonly queue: Array<() => void> = [];
  constructor(private readonly n: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.n) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}

/** Time the run spent waiting for rate-limit windows, as merged spans: waits that overlap count once. */
class PauseLog {
  /** [start, end] in performance.now() time, sorted and disjoint; a pause is logged when it begins, with its end. */
  private readonly spans: Array<[number, number]> = [];
  totalMs = 0;

  add(from: number, to: number): void {
    const last = this.spans.at(-1);
    if (last && from <= last[1]) {
      this.totalMs += Math.max(0, to - last[1]);
      last[1] = Math.max(last[1], to);
    } else {
      this.spans.push([from, to]);
      this.totalMs += to - from;
    }
  }

  /** Paused time from `t` on, a pause under way counted to its end. */
  since(t: number): number {
    let ms = 0;
    for (let i = this.spans.length - 1; i >= 0 && this.spans[i]![1] > t; i--) ms += this.spans[i]![1] - Math.max(this.spans[i]![0], t);
    return ms;
  }
}

export class Http {
  private seq = 0;
  private readonly gate: Gate;
  private readonly listeners: Listener[] = [];
  /** The run's exchanges; past EXCHANGE_LOG_CHARS of answer text in all, later ones are logged without their body. */
  readonly exchanges: Exchange[] = [];
  private logged = 0;
  /** What the run keeps of the target's text for its report (failures' evidence): bounded per string and in total. */
  readonly kept = new KeptText();
  /** Every key of the run (and any this client sent), replaced by its variable wherever an answer carries it. */
  private readonly secrets = new Redactor();
  /**
   * Pauses for the target's own rate limit (a staging key shared by a long run), reported to the user: `pauses` counts
   * the spent windows met (429s waited out), `seconds` the wall-clock time with some request waiting (concurrent waits
   * overlap, so they are not summed).
   */
  readonly pacing = { pauses: 0, seconds: 0 };
  private readonly paused = new PauseLog();
  /** Per key (its value; '' without one): until when its window is known to be spent, in performance.now() time. */
  private readonly spent = new Map<string, number>();
  private readonly timeoutMs: number;
  private readonly patienceMs: number;
  private readonly signal?: AbortSignal;
  /** --max-time: a rate-limit wait that would end past `at` (performance.now() time) is not begun; the run stops. */
  private readonly deadline?: { at: number; expire(cause: string): void };
  /** Requests in a row without an answer; once SILENT_IN_A_ROW, `silence` says so and nothing more is sent. */
  private unanswered = 0;
  silence?: string;
  /** --read-only: no POST, PATCH, PUT or DELETE leaves this client, whatever a check asks for. */
  readonly readOnly: boolean;

  constructor(
    readonly baseUrl: string,
    private readonly contract: Contract,
    opts: {
      concurrency: number;
      timeoutMs: number;
      signal?: AbortSignal;
      readOnly?: boolean;
      rateLimitPatienceMs?: number;
      deadline?: { at: number; expire(cause: string): void };
    },
  ) {
    this.signal = opts.signal;
    this.deadline = opts.deadline;
    this.readOnly = !!opts.readOnly;
    this.gate = new Gate(Math.max(1, opts.concurrency));
    this.timeoutMs = opts.timeoutMs;
    this.patienceMs = opts.rateLimitPatienceMs ?? RATE_LIMIT_PATIENCE_MS;
  }

  /** The run's keys: an answer that echoes one, even before this client sent it, carries its variable instead. */
  knowKeys(keys: KeyRef[]): void {
    for (const k of keys) this.secrets.add(k.value, `$${k.envVar}`);
  }

  onExchange(l: Listener): void {
    this.listeners.push(l);
  }

  url(path: string, query?: RequestSpec['query']): string {
    const u = new URL(this.baseUrl.replace(/\/$/, '') + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  /**
   * Time the run spent waiting for rate-limit windows from `t` (performance.now()) on, a wait under way counted to
   * its end: a check's budget is extended by it, as its requests (and the shared fixtures it awaits) stood still.
   */
  pausedSince(t: number): number {
    return this.paused.since(t);
  }

  /**
   * Sends one request. A 429 of a spent window is recorded like any exchange (the response checks judge it), waited
   * out (Retry-After) and the request resent, as often as the target asks, up to RATE_LIMIT_PATIENCE_MS of waiting in
   * all; the check only ever gets the answer that followed. While a key's window is known to be spent, its next
   * requests wait for it instead of knocking. A request that wants the 429 (acceptRateLimited) is sent as is.
   * `signal` (the check's budget) aborts the request and any wait.
   */
  async send(check: string, spec: RequestSpec, signal?: AbortSignal): Promise<Exchange> {
    const what = `${spec.method.toUpperCase()} ${spec.path}`;
    if (this.readOnly && !READ_METHODS.has(spec.method.toUpperCase()))
      throw new ReadOnlyRefused(`--read-only: ${what} was not sent (no writes at all)`);
    if (spec.acceptRateLimited) return this.sendOnce(check, spec, signal);
    const window = spec.key?.value ?? spec.rawKey ?? '';
    let waited = 0;
    const wait = async (ms: number, why: string) => {
      if (this.deadline && performance.now() + ms > this.deadline.at) {
        this.deadline.expire(`the target's rate limit ${why}`);
        throw new RateLimitExhausted(`${what}: the target's rate limit ${why}, which ends past --max-time: not waited`);
      }
      if (waited + ms > this.patienceMs)
        throw new RateLimitExhausted(
          `${what}: the target's rate limit ${why} after ${Math.round(waited / 1000)} s of waiting; a request waits at most ${this.patienceMs / 1000} s in all`,
        );
      await this.pause(ms, what, signal);
      waited += ms;
    };
    for (let attempt = 0; ; attempt++) {
      const held = (this.spent.get(window) ?? 0) - performance.now();
      if (held > 0) await wait(held, `kept the window spent for ${Math.ceil(held / 1000)} s more`);
      const ex = await this.sendOnce(check, spec, signal);
      const s = rateLimitWait(ex.response, attempt);
      if (s === undefined) return ex;
      this.pacing.pauses++;
      this.spent.set(window, Math.max(this.spent.get(window) ?? 0, performance.now() + s * 1000));
      await wait(s * 1000, `asked for ${s} s more (Retry-After)`);
    }
  }

  /** Waits `ms` for a rate-limit window, logged in the run's pauses; an abort (budget, Ctrl-C) ends the request. */
  private async pause(ms: number, what: string, signal?: AbortSignal): Promise<void> {
    const now = performance.now();
    this.paused.add(now, now + ms);
    this.pacing.seconds = this.paused.totalMs / 1000;
    try {
      await sleep(ms, undefined, { signal: anySignal(this.signal, signal) });
    } catch {
      const why = this.signal?.aborted ? (stopReason(this.signal) ?? 'the run was interrupted') : 'the check ran out of time';
      throw new TransportError(`${what}: abandoned while waiting for the target's rate-limit window (${why})`);
    }
  }

  /** Logs an exchange; past EXCHANGE_LOG_CHARS in all, without its body (the check that sent it has it in full). */
  private log(ex: Exchange): void {
    this.logged += ex.response.text.length;
    this.exchanges.push(this.logged <= EXCHANGE_LOG_CHARS ? ex : { ...ex, response: { ...ex.response, text: '', json: undefined } });
  }

  private async sendOnce(check: string, spec: RequestSpec, signal?: AbortSignal): Promise<Exchange> {
    const url = this.url(spec.path, spec.query);
    const headers: Record<string, string> = { Accept: '*/*', ...(spec.headers ?? {}) };
    if (spec.key) {
      headers['X-API-Key'] = spec.key.value;
      this.secrets.add(spec.key.value, `$${spec.key.envVar}`);
    } else if (spec.rawKey !== undefined) headers['X-API-Key'] = spec.rawKey;
    let body: BodyInit | undefined;
    let bodyText: string | undefined;
    if (spec.form) {
      const fd = new FormData();
      for (const [k, v] of Object.entries(spec.form.fields)) fd.append(k, v);
      if (spec.form.file)
        fd.append('file', new Blob([spec.form.file.bytes as Uint8Array<ArrayBuffer>], { type: spec.form.file.type }), spec.form.file.name);
      body = fd;
    } else if (spec.bodyText !== undefined || spec.json !== undefined) {
      bodyText = spec.bodyText ?? JSON.stringify(spec.json);
      headers['Content-Type'] ??= 'application/json';
      body = bodyText;
    }
    const request: SentRequest = {
      method: spec.method.toUpperCase(),
      url,
      path: spec.path,
      headers,
      keyVar: spec.key?.envVar,
      keyRole: spec.key?.role ?? (spec.rawKey !== undefined ? 'invalid' : 'none'),
      bodyText,
      form: spec.form && {
        fields: spec.form.fields,
        file: spec.form.file && { name: spec.form.file.name, type: spec.form.file.type },
      },
    };
    const started = performance.now();
    const response = await this.gate.run(async () => {
      if (this.silence) throw new TargetSilent(`not sent: ${this.silence}`);
      if (signal?.aborted) throw new TransportError(`${request.method} ${url}: not sent, the check ran out of time`);
      let res: Response | undefined;
      let text: string;
      const timeout = AbortSignal.timeout(this.timeoutMs);
      try {
        // The timeout covers the body too: a server that answers its head and then trickles is cut off as well.
        res = await fetch(url, { method: request.method, headers, body, redirect: 'manual', signal: anySignal(timeout, signal) });
        text = this.secrets.redact(await readBounded(res));
      } catch (err) {
        if (err instanceof AnswerTooLarge && res)
          throw new OversizedAnswer(`${request.method} ${url}: answered ${res.status}, but its ${err.message}`, res.status, mediaOf(res));
        const e = err as Error & { cause?: { code?: string; message?: string } };
        if (timeout.aborted && ++this.unanswered >= SILENT_IN_A_ROW)
          this.silence ??= `the target stopped answering (${this.unanswered} requests in a row without an answer within ${this.timeoutMs} ms)`;
        const why = timeout.aborted
          ? `no answer within ${this.timeoutMs} ms`
          : signal?.aborted
            ? 'abandoned: the check ran out of time'
            : (e.cause?.code ?? e.cause?.message ?? e.message);
        throw new TransportError(`${request.method} ${url}: ${why}`, request);
      }
      this.unanswered = 0;
      const hdrs: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        hdrs[k] = this.secrets.redact(v);
      });
      const mediaType = mediaOf(res);
      let json: unknown;
      if ((mediaType === 'application/json' || mediaType.endsWith('+json')) && text) {
        try {
          json = parseJson(text);
        } catch {
          json = undefined;
        }
      }
      return { status: res.status, headers: hdrs, text, json, mediaType } satisfies ReceivedResponse;
    });
    const ex: Exchange = {
      seq: ++this.seq,
      check,
      operation: this.contract.match(request.method, spec.path),
      request,
      response,
      ms: performance.now() - started,
    };
    this.log(ex);
    // A listener (response checks, cleanup) never breaks the check that sent the request.
    for (const l of this.listeners)
      try {
        l(ex);
      } catch {
        /* reported by the listener's own bookkeeping, if at all */
      }
    return ex;
  }
}

/** The media type of an answer, lower case, without parameters. */
const mediaOf = (res: Response) => (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => !!s);
  return present.length > 1 ? AbortSignal.any(present) : present[0];
}
