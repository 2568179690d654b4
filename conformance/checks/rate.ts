// RATE: rate limiting. Headers on every response, 429 with Retry-After, counting per key.
import type { JsonObject } from '../../spec/runtime/json-pointer.ts';
import type { CheckContext, CheckDef } from '../model.ts';
import { documented } from './support/responses.ts';
import { check, type InspectedExchange, type InspectEnv, type Finding, type ResponseCheckDef, responseCheck } from './support/define.ts';

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

export function rate_limit_headers(ex: InspectedExchange, { contract, schemas }: InspectEnv): Finding | undefined {
  const r = documented(ex.operation, ex.response.status);
  const headers = (r?.node.headers ?? {}) as JsonObject;
  const problems: string[] = [];
  for (const [name, h] of Object.entries(headers)) {
    const ref = (h as JsonObject).$ref;
    const header = contract.deref(h) as JsonObject;
    if (!header?.required) continue;
    const value = ex.response.headers[name.toLowerCase()];
    if (value === undefined) {
      problems.push(`${name} missing`);
      continue;
    }
    const pointer = `${typeof ref === 'string' ? ref : `${r!.pointer}/headers/${name}`}/schema`;
    const coerced = /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    const errors = schemas.validate(pointer, coerced);
    if (errors.length) problems.push(`${name}: ${JSON.stringify(value)} ${errors.join('; ')}`);
  }
  if (!problems.length) return;
  return {
    expected: `headers ${Object.keys(headers).join(', ')} present and well-formed`,
    actual: problems.join('; '),
    where: 'response.headers',
  };
}

export const checks: CheckDef[] = [
  check(rate_limit_counted_per_key, { rule: 'RATE-007', provenance: 'assumed', needs: { mock: true }, exclusive: true }),
];

export const responseChecks: ResponseCheckDef[] = [
  responseCheck(rate_limit_headers, { rule: 'RATE-001', covers: ['LIM-008'], reads: ['response.headers'] }),
];
