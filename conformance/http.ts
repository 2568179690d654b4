// One HTTP client for every check: bounded concurrency and time, and every exchange handed to the response
// checks (status, content type, schema, rate-limit headers, no 5xx) whatever the check that caused it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Contract, Operation } from './contract.ts';
import { parseJson } from './json-text.ts';

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

export interface SentRequest {
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  keyVar?: string;
  keyRole?: string;
  bodyText?: string;
  form?: { fields: Record<string, string>; file?: { name: string; type: string } };
}

export interface ReceivedResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  json?: unknown;
  mediaType: string;
}

export interface Exchange {
  seq: number;
  check: string;
  operation?: Operation;
  request: SentRequest;
  response: ReceivedResponse;
  ms: number;
}

export class TransportError extends Error {}

/** A write the run was told never to send (--read-only): refused here, before anything leaves the process. */
export class ReadOnlyRefused extends Error {}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A 429 is waited out and resent only when the window is genuinely spent and reopens soon enough. */
const MAX_RATE_LIMIT_WAIT_S = 65;

/**
 * Seconds to wait before resending after `res`, or undefined when it is not a spent rate-limit window (an
 * injected 429 leaves X-RateLimit-Remaining above 0, and a check that asked for a 429 must see it).
 */
export function rateLimitWait(res: ReceivedResponse): number | undefined {
  if (res.status !== 429 || res.headers['x-ratelimit-remaining'] !== '0') return undefined;
  const ra = res.headers['retry-after'] ?? '';
  const s = /^\d+$/.test(ra) ? Number(ra) : Math.ceil((Date.parse(ra) - Date.now()) / 1000);
  return Number.isFinite(s) && s <= MAX_RATE_LIMIT_WAIT_S ? Math.max(1, s) : undefined;
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

export class Http {
  private seq = 0;
  private readonly gate: Gate;
  private readonly listeners: Listener[] = [];
  readonly exchanges: Exchange[] = [];
  /**
   * Pauses for the target's own rate limit (a staging key shared by a long run), reported to the user: `seconds` is
   * wall-clock time with some request waiting (concurrent waits overlap, so they are not summed).
   */
  readonly pacing = { pauses: 0, seconds: 0 };
  private pausedUntil = 0;

  constructor(
    readonly baseUrl: string,
    private readonly contract: Contract,
    opts: { concurrency: number; timeoutMs: number; signal?: AbortSignal; readOnly?: boolean },
  ) {
    this.signal = opts.signal;
    this.readOnly = !!opts.readOnly;
    this.gate = new Gate(Math.max(1, opts.concurrency));
    this.timeoutMs = opts.timeoutMs;
  }
  private readonly timeoutMs: number;
  private readonly signal?: AbortSignal;
  /** --read-only: no POST, PATCH, PUT or DELETE leaves this client, whatever a check asks for. */
  readonly readOnly: boolean;

  onExchange(l: Listener): void {
    this.listeners.push(l);
  }

  url(path: string, query?: RequestSpec['query']): string {
    const u = new URL(this.baseUrl.replace(/\/$/, '') + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  /**
   * Sends one request. A 429 of a spent window is recorded like any exchange, waited out (Retry-After, bounded)
   * and the request resent once, so a long run against a rate-limited target does not fail checks spuriously.
   * `signal` (the check's budget) aborts the request and any wait.
   */
  async send(check: string, spec: RequestSpec, signal?: AbortSignal): Promise<Exchange> {
    if (this.readOnly && !READ_METHODS.has(spec.method.toUpperCase()))
      throw new ReadOnlyRefused(`--read-only: ${spec.method.toUpperCase()} ${spec.path} was not sent (no writes at all)`);
    const ex = await this.sendOnce(check, spec, signal);
    const wait = spec.acceptRateLimited ? undefined : rateLimitWait(ex.response);
    if (wait === undefined || this.signal?.aborted) return ex;
    this.pacing.pauses++;
    const now = Date.now();
    const until = now + wait * 1000;
    this.pacing.seconds += Math.max(0, until - Math.max(now, this.pausedUntil)) / 1000;
    this.pausedUntil = Math.max(this.pausedUntil, until);
    await sleep(wait * 1000, undefined, { signal: anySignal(this.signal, signal) }).catch(() => undefined);
    return this.signal?.aborted || signal?.aborted ? ex : this.sendOnce(check, spec, signal);
  }

  private async sendOnce(check: string, spec: RequestSpec, signal?: AbortSignal): Promise<Exchange> {
    const url = this.url(spec.path, spec.query);
    const headers: Record<string, string> = { Accept: '*/*', ...(spec.headers ?? {}) };
    if (spec.key) headers['X-API-Key'] = spec.key.value;
    else if (spec.rawKey !== undefined) headers['X-API-Key'] = spec.rawKey;
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
      if (signal?.aborted) throw new TransportError(`${request.method} ${url}: not sent, the check ran out of time`);
      let res: Response;
      let text: string;
      const timeout = AbortSignal.timeout(this.timeoutMs);
      try {
        res = await fetch(url, { method: request.method, headers, body, redirect: 'manual', signal: anySignal(timeout, signal) });
        text = await res.text();
      } catch (err) {
        const e = err as Error & { cause?: { code?: string; message?: string } };
        const why = timeout.aborted
          ? `no answer within ${this.timeoutMs} ms`
          : signal?.aborted
            ? 'abandoned: the check ran out of time'
            : (e.cause?.code ?? e.cause?.message ?? e.message);
        throw new TransportError(`${request.method} ${url}: ${why}`);
      }
      const hdrs: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        hdrs[k] = v;
      });
      const mediaType = (hdrs['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
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
    this.exchanges.push(ex);
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

function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => !!s);
  return present.length > 1 ? AbortSignal.any(present) : present[0];
}
