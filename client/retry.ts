// Optional retry of 429 and 503, as a fetch wrapper so it covers every call of the client, raw or helper.
// Bounded twice: by attempts and by total time. Retry-After wins over the backoff; a wait that would overrun a bound
// is not started, and the last response is returned as it is (the caller sees the 429/503).
import { retryAfterMs } from './rate-limit.ts';

export interface RetryOptions {
  /** Total attempts, first included (default 3). */
  attempts?: number;
  /** Time budget from the first attempt; no retry starts after it (default 60 000 ms). */
  maxElapsedMs?: number;
  /** Backoff when the response has no Retry-After: base * 2^(attempt-1) (default 500 ms). */
  baseDelayMs?: number;
  /** Longest single wait; a longer Retry-After ends the retries (default 30 000 ms). */
  maxDelayMs?: number;
}

/** 429 (rate limited, with Retry-After) and 503 (could not be queued): the two statuses the issue asks to retry. */
const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);

export type FetchLike = (request: Request) => Promise<Response>;

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}

export function normalizeRetry(retry: boolean | RetryOptions | undefined): Required<RetryOptions> | undefined {
  if (!retry) return undefined;
  const o = retry === true ? {} : retry;
  const r = {
    attempts: o.attempts ?? 3,
    maxElapsedMs: o.maxElapsedMs ?? 60_000,
    baseDelayMs: o.baseDelayMs ?? 500,
    maxDelayMs: o.maxDelayMs ?? 30_000,
  };
  for (const [k, v] of Object.entries(r))
    if (!Number.isFinite(v) || v < 0 || (k === 'attempts' && (!Number.isInteger(v) || v < 1)))
      throw new TypeError(`retry.${k} must be ${k === 'attempts' ? 'an integer >= 1' : 'a number >= 0'}, got ${v}`);
  return r;
}

export function withRetry(fetchFn: FetchLike, options: Required<RetryOptions>): FetchLike {
  return async (request) => {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      // Each attempt sends a clone: a body stream can be read only once.
      const response = await fetchFn(attempt < options.attempts ? request.clone() : request);
      if (!RETRY_STATUSES.has(response.status) || attempt >= options.attempts) return response;
      const told = retryAfterMs(response);
      // Never retry sooner than Retry-After says: a longer wait than allowed ends the retries instead.
      if (told !== undefined && told > options.maxDelayMs) return response;
      const wait = told ?? Math.min(options.baseDelayMs * 2 ** (attempt - 1), options.maxDelayMs);
      if (Date.now() - started + wait > options.maxElapsedMs) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}
