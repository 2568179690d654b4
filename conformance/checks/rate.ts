// RATE: rate limiting. 429 with Retry-After and counting per key; the headers every answer carries are judged by
// judge/checks/rate.ts.
import type { CheckContext, CheckDef } from '../run/model.ts';
import { check } from './support/define.ts';

export async function rate_limit_counted_per_key(ctx: CheckContext): Promise<void> {
  const other = (await ctx.mock!.keys()).find(
    (k) => k.state === 'active' && k.key !== ctx.keys.main.value && (!ctx.keys.mainOrg || k.organization_id === ctx.keys.mainOrg),
  );
  if (!other) return ctx.skip("the mock lists no other active key of the main key's organization");
  const second = { role: 'second', value: other.key, envVar: 'CLINICAL_RECORDS_SECOND_KEY' };
  const hit = async (key: typeof second) => {
    const ex = await ctx.send({ method: 'GET', path: '/providers', key, query: { limit: 1 } });
    const h = ex.response.headers;
    return { ex, limit: Number(h['x-ratelimit-limit']), remaining: Number(h['x-ratelimit-remaining']), reset: h['x-ratelimit-reset'] };
  };
  // Whatever the values are (the contract fixes none), each key's requests count against that key alone.
  const measure = async () => {
    const b1 = await hit(second);
    const a = [await hit(ctx.keys.main), await hit(ctx.keys.main), await hit(ctx.keys.main)];
    const b2 = await hit(second);
    return { b1, a, b2 };
  };
  const sameWindow = (...rs: Array<{ reset?: string }>) => rs.every((r) => r.reset !== undefined && r.reset === rs[0]!.reset);
  let m = await measure();
  if (!sameWindow(m.b1, m.b2) || !sameWindow(...m.a)) m = await measure();
  const { b1, a, b2 } = m;
  for (const r of [b1, ...a, b2])
    ctx.expect(Number.isInteger(r.limit) && r.limit > 0 && Number.isInteger(r.remaining) && r.remaining >= 0 && r.remaining <= r.limit, {
      expected: 'X-RateLimit-Limit a positive integer and X-RateLimit-Remaining between 0 and it',
      says: 'kit: X-RateLimit-Limit and X-RateLimit-Remaining are counts, non-negative integers (their form is not shown)',
      actual: `limit ${String(r.ex.response.headers['x-ratelimit-limit'])}, remaining ${String(r.ex.response.headers['x-ratelimit-remaining'])}`,
      exchange: r.ex,
    });
  if (!sameWindow(m.b1, m.b2) || !sameWindow(...m.a))
    return ctx.skip('a rate-limit window reset during each of two measurements: the counts cannot be compared');
  ctx.expect(a[1]!.remaining === a[0]!.remaining - 1 && a[2]!.remaining === a[1]!.remaining - 1, {
    expected: "the main key's X-RateLimit-Remaining down by one per request",
    says: 'kit: the limit is counted per key, one per request (the values and window are not shown)',
    actual: a.map((r) => r.remaining).join(' → '),
    exchange: a[2]!.ex,
  });
  ctx.expect(b2.remaining === b1.remaining - 1, {
    expected: "another key's X-RateLimit-Remaining down by its own one request only, not by the main key's three",
    says: 'kit: the limit is counted per key, one per request (the values and window are not shown)',
    actual: `${b1.remaining} → ${b2.remaining}`,
    exchange: b2.ex,
  });
}

export const checks: CheckDef[] = [
  check(rate_limit_counted_per_key, { rule: 'RATE-007', provenance: 'assumed', needs: { mock: true }, exclusive: true }),
];
