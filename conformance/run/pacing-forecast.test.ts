// The forecast said before a run: from the probe's X-RateLimit-* headers and the run's plan, whether the key's window
// will make the run wait, about how long, and the flag that avoids it.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../judge/define.ts';
import { pacingForecast } from './pacing-forecast.ts';

/** A probe's answer stating the key's limit, its window reset `resetIn` seconds from now (epoch, as the mock sends). */
const probe = (limit: number, remaining: number, resetIn: number) =>
  [
    {
      response: {
        status: 200,
        headers: {
          'x-ratelimit-limit': String(limit),
          'x-ratelimit-remaining': String(remaining),
          'x-ratelimit-reset': String(Math.round(Date.now() / 1000 + resetIn)),
        },
      },
    },
  ] as unknown as Exchange[];

const whole = { profile: 'documented' as const, checks: 164, allChecks: 164 };

describe('pacingForecast', () => {
  it("--explore against the mock's default 1200 a minute: says it will wait minutes, and how to avoid it", () => {
    expect(pacingForecast(probe(1200, 1199, 60), { ...whole, exploreBudget: 3000, mock: true })).toBe(
      'rate limit: the target allows 1200 requests per 60 s for this key (X-RateLimit-*) and this run sends about 3650 (650 for the checks, 3000 exploring), so it will wait about 3 min for the window to reopen; to avoid it, start the mock with a higher limit (npm run mock -- --rate-limit 10000/60), or send fewer (--explore-budget 549)',
    );
  });

  it('a documented run within the window: nothing to say', () => {
    expect(pacingForecast(probe(1200, 1199, 60), { ...whole, mock: true })).toBeUndefined();
  });

  it('a deployment with a small limit: names the wait and a key with a higher limit', () => {
    const text = pacingForecast(probe(100, 99, 10), { ...whole, profile: 'all', mock: false });
    expect(text).toMatch(
      /allows 100 requests per 10 s .* about 1000 \(1000 for the checks\), so it will wait about 2 min .* use a key with a higher limit, or run fewer checks \(--only\)$/,
    );
  });

  it('no limit stated: nothing to say', () => {
    expect(pacingForecast([], { ...whole, exploreBudget: 3000, mock: false })).toBeUndefined();
  });
});
