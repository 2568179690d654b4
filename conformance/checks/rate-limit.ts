// 429: the exact documented message and Retry-After (the message is read from the spec's RateLimitError).
import type { CheckDef } from '../model.ts';
import { body, got } from './util.ts';

export const rateLimitChecks: CheckDef[] = [
  {
    name: 'rate_limited_429',
    area: 'rate-limit',
    rule: 'ERR-008',
    covers: ['RATE-002', 'RATE-003', 'RATE-004'],
    needs: { mock: true },
    exclusive: true,
    async run(ctx) {
      const message = (ctx.contract.resolve('#/components/schemas/RateLimitError') as { properties: { error: { const: string } } }).properties.error.const;
      await ctx.mock!.fault({ kind: 'rate-limited', count: 1 });
      const ex = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main, acceptRateLimited: true });
      ctx.expect(ex.response.status === 429 && body(ex).error === message, { expected: `429 { error: "${message}" }`, actual: got(ex), exchange: ex });
      const ra = ex.response.headers['retry-after'];
      ctx.expect(ra !== undefined && (/^\d+$/.test(ra) || !Number.isNaN(Date.parse(ra))), { expected: 'Retry-After: delta-seconds or an HTTP date', actual: String(ra), exchange: ex });
    },
  },
];
