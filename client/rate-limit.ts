// Rate-limit headers of a response. Header names are typed against the spec's `components.headers`.
import type { components } from '../generated/types.ts';

export interface RateLimit {
  /** X-RateLimit-Limit: requests allowed in the window. */
  limit?: number;
  /** X-RateLimit-Remaining: requests left in the window. */
  remaining?: number;
  /** X-RateLimit-Reset: when the window resets (Unix epoch seconds). */
  reset?: number;
  /** Retry-After in milliseconds (429), from seconds or an HTTP date. */
  retryAfterMs?: number;
}

type SpecHeader = keyof components['headers'];
const HEADERS = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset',
} as const satisfies Record<string, SpecHeader>;
const RETRY_AFTER = 'Retry-After' satisfies SpecHeader;

function integer(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/** Retry-After as a delay in ms: delta-seconds or an HTTP date (RFC 9110); undefined when absent or unreadable. */
export function retryAfterMs(response: Response, now = Date.now()): number | undefined {
  const raw = response.headers.get(RETRY_AFTER);
  if (raw === null) return undefined;
  const seconds = integer(raw);
  if (seconds !== undefined) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function rateLimitOf(response: Response): RateLimit {
  const out: RateLimit = {};
  for (const [key, header] of Object.entries(HEADERS) as Array<[keyof typeof HEADERS, string]>) {
    const n = integer(response.headers.get(header));
    if (n !== undefined) out[key] = n;
  }
  const wait = retryAfterMs(response);
  if (wait !== undefined) out.retryAfterMs = wait;
  return out;
}
