// Per-key fixed-window rate limiting. Every response carries X-RateLimit-*; past the limit (or under the
// `rate-limited` fault) a 429 with the documented message and Retry-After.
export interface RateLimitConfig {
  requests: number;
  seconds: number;
}

/** The documented 429 body (RateLimitError's const in the spec). */
export const RATE_LIMIT_MESSAGE = 'Rate limit exceeded. Please retry after the window resets.';

export interface RateDecision {
  headers: Record<string, string>;
  limited: boolean;
}

export interface RateLimiter {
  hit(identity: string, forceLimited?: boolean): RateDecision;
  reset(): void;
}

/** Buckets for unknown identities are bounded, so a flood of random keys cannot grow memory without end. */
const MAX_BUCKETS = 100_000;

export function createRateLimiter(cfg: RateLimitConfig, now: () => number = Date.now): RateLimiter {
  let buckets = new Map<string, { count: number; resetAt: number; resetHeader: string }>();
  const windowMs = cfg.seconds * 1000;
  const limit = String(cfg.requests);
  return {
    hit(identity, forceLimited = false) {
      const t = now();
      let b = buckets.get(identity);
      if (!b || b.resetAt <= t) {
        if (!b && buckets.size >= MAX_BUCKETS) buckets = new Map();
        const resetAt = t + windowMs;
        b = { count: 0, resetAt, resetHeader: String(Math.ceil(resetAt / 1000)) };
        buckets.set(identity, b);
      }
      const limited = forceLimited || b.count >= cfg.requests;
      if (!limited) b.count++;
      const headers: Record<string, string> = {
        'X-RateLimit-Limit': limit,
        'X-RateLimit-Remaining': String(Math.max(0, cfg.requests - b.count)),
        'X-RateLimit-Reset': b.resetHeader,
      };
      if (limited) headers['Retry-After'] = String(Math.max(1, Math.ceil((b.resetAt - t) / 1000)));
      return { headers, limited };
    },
    reset: () => void (buckets = new Map()),
  };
}

/** Parses `<requests>/<seconds>` (e.g. 100/60); undefined when malformed. */
export function parseRateLimit(text: string): RateLimitConfig | undefined {
  const m = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!m) return undefined;
  const requests = Number(m[1]);
  const seconds = Number(m[2]);
  return requests >= 1 && seconds > 0 && Number.isSafeInteger(requests) ? { requests, seconds } : undefined;
}
