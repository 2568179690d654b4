// Fixed-window rate limiting per active key, and per client address for every other request. Every response carries
// X-RateLimit-*; past the limit (or under the `rate-limited` fault) a 429 with the documented message and Retry-After.
export interface RateLimitConfig {
  requests: number;
  seconds: number;
}

/** The documented 429 body (RateLimitError's const in the spec). */
export const RATE_LIMIT_MESSAGE = 'Rate limit exceeded. Please retry after the window resets.';

interface RateDecision {
  headers: Record<string, string>;
  limited: boolean;
}

export interface RateLimiter {
  hit(identity: string, forceLimited?: boolean): RateDecision;
  reset(): void;
}

/** Bound on the bucket table (active keys and client addresses), so a flood of identities cannot grow memory without end. */
const MAX_BUCKETS = 100_000;
/** How many of the least recently used buckets one new identity may look at for an expired one to evict. */
const EVICTION_SCAN = 64;

interface Bucket {
  count: number;
  resetAt: number;
  resetHeader: string;
}

/**
 * Fixed windows, one bucket per identity, kept in least-recently-used order (a hit moves its bucket to the end). When
 * the table is full, a new identity evicts buckets whose window has ended (forgetting those changes no answer),
 * looking at the oldest few only; when none has, it shares one overflow bucket with every other identity that did
 * not fit. A live bucket is never reset, so flooding the table cannot lift anyone's 429.
 */
export function createRateLimiter(cfg: RateLimitConfig, now: () => number = Date.now, maxBuckets = MAX_BUCKETS): RateLimiter {
  let buckets = new Map<string, Bucket>();
  let overflow: Bucket | undefined;
  const windowMs = cfg.seconds * 1000;
  const limit = String(cfg.requests);
  const fresh = (t: number): Bucket => {
    const resetAt = t + windowMs;
    return { count: 0, resetAt, resetHeader: String(Math.ceil(resetAt / 1000)) };
  };
  const evictEnded = (t: number) => {
    let looked = 0;
    for (const [k, b] of buckets) {
      if (++looked > EVICTION_SCAN) break;
      if (b.resetAt <= t) buckets.delete(k);
    }
  };
  const bucketOf = (identity: string, t: number): Bucket => {
    const b = buckets.get(identity);
    if (b) {
      buckets.delete(identity);
      buckets.set(identity, b);
      return b;
    }
    if (buckets.size >= maxBuckets) evictEnded(t);
    if (buckets.size >= maxBuckets) return (overflow ??= fresh(t));
    const created = fresh(t);
    buckets.set(identity, created);
    return created;
  };
  return {
    hit(identity, forceLimited = false) {
      const t = now();
      const b = bucketOf(identity, t);
      if (b.resetAt <= t) Object.assign(b, fresh(t));
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
    reset: () => {
      buckets = new Map();
      overflow = undefined;
    },
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
