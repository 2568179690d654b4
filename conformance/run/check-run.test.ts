// One check's outcome whatever happens in it: an exception is its failure, a setup step that cannot go on blocks it,
// a hang or a long wait is cut at its budget and reported timed out with what it waited for; time the run waits for
// the target's rate-limit windows is not counted against it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../spec/runtime/contract.ts';
import { Http } from '../target/http.ts';
import { runCheck, type SharedContext } from './check-run.ts';
import type { CheckContext, CheckDef } from './model.ts';

let server: Server;
let http: Http;

beforeAll(async () => {
  // /hang never answers; /spent?id=<x> answers a 429 of a spent window (Retry-After: 1) the first time for each id,
  // /always-spent every time; anything else answers 200 {}.
  const seen = new Set<string>();
  server = createServer((req, res) => {
    if (req.url?.includes('/hang')) return;
    if (req.url?.includes('/always-spent') || (req.url?.includes('/spent') && !seen.has(req.url))) {
      seen.add(req.url);
      return res
        .writeHead(429, { 'Content-Type': 'application/json', 'X-RateLimit-Remaining': '0', 'Retry-After': '1' })
        .end('{"error":"Rate limit exceeded. Please retry after the window resets."}');
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  http = new Http(`http://127.0.0.1:${(server.address() as AddressInfo).port}/ext-api/v1`, new Contract(), {
    concurrency: 4,
    timeoutMs: 10_000,
  });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const base = { area: 'GEN', ruleId: 'GEN-003', rule: 'r', provenance: 'documented' as const };
const run = (name: string, fn: (ctx: CheckContext) => Promise<void>, budgetMs = 5_000, client = http) =>
  runCheck(
    { name, area: 'GEN', rule: 'GEN-003', run: fn } as CheckDef,
    { ...base, name },
    { shared: { http: client } as unknown as SharedContext, budgetMs },
  );

/**
 * The budget of a check whose one request meets a spent window: shorter than the 1 s pause, so only a budget the pause
 * extends lets it pass, and long enough for its two loopback exchanges on a loaded machine (300 ms was once missed).
 */
const PACED_BUDGET_MS = 700;

describe('runCheck', () => {
  it('an exception inside a check is its failure, with what was thrown', async () => {
    const r = await run('throws', async (ctx) => {
      const ex = await ctx.send({ method: 'GET', path: '/patients' });
      (ex.response.json as { data: { id: string } }).data.id.replace('a', 'b');
    });
    expect(r.outcome).toBe('failed');
    expect(r.failures[0]).toMatchObject({ ruleId: 'GEN-003', message: 'the check could not complete' });
    expect(r.failures[0]!.actual).toMatch(/^TypeError: /);
  });

  it('a hang is cut at the budget: timed out, naming the request it waited for', async () => {
    const t0 = performance.now();
    const r = await run('hangs', async (ctx) => void (await ctx.send({ method: 'GET', path: '/hang' })), 300);
    expect(performance.now() - t0).toBeLessThan(3_000);
    expect(r.outcome).toBe('timed-out');
    expect(r.reason).toMatch(/no result within 0\.3 s \(--check-timeout\): still waiting for the answer to GET \/hang/);
  });

  it('a wait past the budget is cut too, naming the wait and the request before it', async () => {
    const r = await run(
      'sleeps',
      async (ctx) => {
        await ctx.send({ method: 'GET', path: '/providers' });
        await ctx.sleep(60_000);
      },
      300,
    );
    expect(r.outcome).toBe('timed-out');
    expect(r.reason).toMatch(/a wait of 60000 ms after GET \/providers \(answered 200\)/);
  });

  it('a setup step that cannot go on blocks the check, naming the rule that judges it', async () => {
    const r = await run('blocked', async (ctx) => ctx.block('a patient to work on', 'PAT-021'));
    expect(r).toMatchObject({
      outcome: 'blocked',
      reason: 'waited for a patient to work on',
      blockedBy: { ruleId: 'PAT-021', waitedFor: 'a patient to work on' },
    });
  });

  it('failures recorded before a block keep the check failed', async () => {
    const r = await run('fails-then-blocks', async (ctx) => {
      ctx.expect(false, { expected: 'x', actual: 'y' });
      ctx.block('z', 'PAT-021');
    });
    expect(r.outcome).toBe('failed');
  });

  it('a request waiting for a spent rate-limit window longer than the budget does not time the check out', async () => {
    const r = await run(
      'paced',
      async (ctx) => {
        const ex = await ctx.send({ method: 'GET', path: '/spent', query: { id: 'paced' } });
        ctx.expect(ex.response.status === 200, { expected: '200', actual: String(ex.response.status), exchange: ex });
      },
      PACED_BUDGET_MS,
    );
    expect(r).toMatchObject({ outcome: 'passed', failures: [], assertions: 1 });
    expect(r.ms).toBeGreaterThanOrEqual(900);
  });

  it('a pause of the run outside the check (a shared fixture it awaits) extends its budget too', async () => {
    const r = await run(
      'awaits-a-paced-fixture',
      async (ctx) => {
        const ex = await ctx.http.send('fixtures', { method: 'GET', path: '/spent', query: { id: 'fixture' } });
        ctx.expect(ex.response.status === 200, { expected: '200', actual: String(ex.response.status) });
      },
      PACED_BUDGET_MS,
    );
    expect(r.outcome).toBe('passed');
  });

  it('a check still running past its budget and the pauses is cut, saying how long the run paused', async () => {
    const r = await run(
      'paced-then-hangs',
      async (ctx) => {
        await ctx.send({ method: 'GET', path: '/spent', query: { id: 'then-hang' } });
        await ctx.send({ method: 'GET', path: '/hang' });
      },
      300,
    );
    expect(r.outcome).toBe('timed-out');
    expect(r.reason).toMatch(
      /no result within 0\.3 s \(--check-timeout\), plus 1 s paused for the target's rate limit: still waiting for the answer to GET \/hang/,
    );
  });

  it('a window that stays spent past the patience bound times the check out; the 429 is never its evidence', async () => {
    const impatient = new Http(http.baseUrl, new Contract(), { concurrency: 1, timeoutMs: 5_000, rateLimitPatienceMs: 1_500 });
    const r = await run(
      'never-reopens',
      async (ctx) => {
        const ex = await ctx.send({ method: 'GET', path: '/always-spent' });
        ctx.expect(false, { expected: 'not reached', actual: String(ex.response.status), exchange: ex });
      },
      5_000,
      impatient,
    );
    expect(r.outcome).toBe('timed-out');
    expect(r.reason).toMatch(/^held up by the target's rate limit: GET \/always-spent: .*waits at most 1\.5 s in all/);
    expect(r.failures).toEqual([]);
  });
});
