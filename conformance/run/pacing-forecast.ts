// Before the checks begin: will the target's rate limit pace this run? The probe's answers carry the key's limit
// (X-RateLimit-Limit, -Remaining, -Reset); the run's requests are estimated from its plan; when they exceed what the
// window allows, the run says so up front, with about how long it will wait and the flag that avoids it, instead of
// a QA engineer finding an --explore of 3000 requests taking minutes against the mock's default 1200 per minute.
import type { Exchange } from '../../judge/define.ts';
import type { Profile } from '../../spec/runtime/schemas.ts';

/**
 * Requests a whole run's rule checks send with the main key (measured against the mock: about 650 in the documented
 * profile, 1000 with --profile all); a selection of checks sends its share.
 */
const RUN_REQUESTS: Record<Profile, number> = { documented: 650, all: 1000 };

interface Plan {
  profile: Profile;
  /** Rule checks selected, of all of them. */
  checks: number;
  allChecks: number;
  exploreBudget?: number;
  mock: boolean;
}

/** The key's limit as the last answer that states it gives it: requests per window, left now, seconds to the reset. */
function limitOf(exchanges: Exchange[]): { limit: number; remaining: number; resetIn: number } | undefined {
  const h = [...exchanges].reverse().find((ex) => /^\d+$/.test(ex.response.headers['x-ratelimit-limit'] ?? ''))?.response.headers;
  if (!h) return undefined;
  const reset = Number(h['x-ratelimit-reset'] ?? Number.NaN);
  const now = Date.now() / 1000;
  // X-RateLimit-Reset: epoch seconds (the mock's), or seconds from now.
  const resetIn = Number.isFinite(reset) ? (reset > 1e9 ? reset - now : reset) : Number.NaN;
  return { limit: Number(h['x-ratelimit-limit']), remaining: Number(h['x-ratelimit-remaining'] ?? h['x-ratelimit-limit']), resetIn };
}

const minutes = (s: number) => (s < 90 ? `${Math.round(s)} s` : `${Math.round(s / 60)} min`);

/** The sentence to print before the run, or undefined when its requests fit the key's window (or no limit is stated). */
export function pacingForecast(probe: Exchange[], plan: Plan): string | undefined {
  const lim = limitOf(probe);
  if (!lim || !(lim.limit > 0) || !(lim.resetIn > 0)) return undefined;
  const checks = Math.round((RUN_REQUESTS[plan.profile] * plan.checks) / Math.max(1, plan.allChecks));
  const explore = plan.exploreBudget ?? 0;
  const total = checks + explore;
  if (total <= lim.remaining) return undefined;
  // The window's length is at least the time to its reset seen now (exactly that on a window just begun).
  const window = Math.max(1, Math.round(lim.resetIn));
  const windows = Math.ceil((total - lim.remaining) / lim.limit);
  const wait = lim.resetIn + (windows - 1) * window;
  const parts = [checks ? `${checks} for the checks` : '', explore ? `${explore} exploring` : ''].filter(Boolean).join(', ');
  const avoid = plan.mock
    ? `start the mock with a higher limit (npm run mock -- --rate-limit ${Math.max(10_000, total * 2)}/60)`
    : 'use a key with a higher limit';
  const smaller = explore
    ? `, or send fewer (--explore-budget ${Math.max(100, lim.remaining - checks)})`
    : ', or run fewer checks (--only)';
  return `rate limit: the target allows ${lim.limit} requests per ${window} s for this key (X-RateLimit-*) and this run sends about ${total} (${parts}), so it will wait about ${minutes(wait)} for the window to reopen; to avoid it, ${avoid}${smaller}`;
}
