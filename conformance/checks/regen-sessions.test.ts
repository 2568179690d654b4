// The regeneration checks against a deployment (no --mock): the sessions the user names with --regenerable-session
// and --not-ready-session unlock them, and the suite regenerates nothing else. The mock stands in for the deployment
// (its control API only tells the test which sessions to name); single-defect proxies in front of it must each fail
// on their own rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMock } from '../../mock/server.ts';
import { MockControl } from '../target/mock-control.ts';
import { runSuite, type RunOptions } from '../run/runner.ts';
import { answer, apiPath, is, startBrokenProxy, type ProxyRequest } from '../testing/broken-proxy.ts';
import { failureLines, startTestMock, suiteOptions, type Breaks } from '../testing/check-file.ts';
import type { CheckContext } from '../run/model.ts';
import { notLanded, regenerationWaitMs, settle } from './support/regeneration.ts';

const REGENERATE = /^\/sessions\/([^/]+)\/notes\/regenerate$/;
/** The checks a named session unlocks; the first two need --profile all (REGEN-020 is an assumed rule). */
const UNLOCKED = [
  'regenerate_idempotency_key',
  'idempotency_key_still_deduplicated',
  'regenerate_invalid_400',
  'regenerate_400_body_shape',
  'regenerate_accepted',
  'regeneration_under_a_minute',
  'regenerate_session_not_ready',
];

let mock: RunningMock;
let key = '';
let regenerable = '';
let notReady = '';

beforeAll(async () => {
  mock = await startTestMock();
  const control = new MockControl(mock.url, 5_000);
  const main = (await control.keys()).find((k) => k.state === 'active' && k.scopes.includes('*'))!;
  const sessions = (await control.sessions()).filter((s) => s.organization_id === main.organization_id);
  key = main.key;
  regenerable = sessions.find((s) => s.ready)!.id;
  notReady = sessions.find((s) => !s.ready)!.id;
}, 60_000);
afterAll(async () => {
  await mock?.close();
});

/** A run as a staging user would start it: no --mock, the main key, the two sessions named. */
const deployment = (url: string, only: string[], extra: Partial<RunOptions> = {}): RunOptions => ({
  ...suiteOptions(url),
  mock: false,
  key,
  regenerableSession: regenerable,
  notReadySession: notReady,
  only,
  ...extra,
});

const urlVia = (origin: string) => `${origin}${new URL(mock.url).pathname}`;

/** Runs `check` through a proxy that applies `breaks`: it must fail, every failure citing `rule`. */
async function expectFails(check: string, rule: string, breaks: Breaks): Promise<void> {
  const proxy = await startBrokenProxy(new URL(mock.url).origin, { name: check, area: 'regen', rule, ...breaks });
  try {
    const { report } = await runSuite(deployment(urlVia(proxy.origin), [check]));
    const result = report.results.find((r) => r.name === check)!;
    expect(result.outcome, JSON.stringify(result)).toBe('failed');
    expect(result.failures.map((f) => f.ruleId)).toEqual(result.failures.map(() => rule));
  } finally {
    await proxy.close();
  }
}

describe('regeneration on a deployment, with the sessions the user names', { retry: 2 }, () => {
  it('the named sessions unlock the checks, which pass, and no other session is ever regenerated', async () => {
    const regenerated = new Set<string>();
    const proxy = await startBrokenProxy(new URL(mock.url).origin, undefined, (req: ProxyRequest) => {
      const m = REGENERATE.exec(apiPath(req));
      if (req.method === 'POST' && m) regenerated.add(m[1]!);
    });
    try {
      const { report } = await runSuite(deployment(urlVia(proxy.origin), UNLOCKED, { profile: 'all' }));
      expect(failureLines(report)).toEqual([]);
      for (const name of UNLOCKED) expect(report.results.find((r) => r.name === name)?.outcome, name).toBe('passed');
      expect([...regenerated].sort()).toEqual([regenerable, notReady].sort());
      expect(report.cleanup.leftovers).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('without the flags the checks are skipped, each naming the flag that unlocks it, and nothing is regenerated', async () => {
    let regenerations = 0;
    const proxy = await startBrokenProxy(new URL(mock.url).origin, undefined, (req) => {
      if (req.method === 'POST' && REGENERATE.test(apiPath(req))) regenerations++;
    });
    const { report } = await runSuite(
      deployment(urlVia(proxy.origin), UNLOCKED, { profile: 'all', regenerableSession: undefined, notReadySession: undefined }),
    ).finally(() => proxy.close());
    expect(regenerations).toBe(0);
    for (const name of UNLOCKED) {
      const r = report.results.find((x) => x.name === name)!;
      expect(r.outcome, name).toBe('skipped');
      expect(r.reason, name).toMatch(name === 'regenerate_session_not_ready' ? /--not-ready-session <id>/ : /--regenerable-session <id>/);
    }
    const reasons = new Map(report.notChecked.map((n) => [n.ruleId, n.reason]));
    expect(reasons.get('REGEN-003')).toMatch(/regenerate_idempotency_key skipped: needs --regenerable-session <id>/);
    expect(reasons.get('REGEN-012')).toMatch(/regenerate_session_not_ready skipped: needs --not-ready-session <id>/);
  }, 30_000);

  it('a server that ignores Idempotency-Key on regenerate fails REGEN-003', async () => {
    await expectFails('regenerate_idempotency_key', 'REGEN-003', {
      request: (req) => void (is(req, 'POST', REGENERATE) && delete req.headers['idempotency-key']),
    });
  }, 30_000);

  it('a server that answers 400 instead of 409 for a session not ready fails REGEN-012', async () => {
    await expectFails('regenerate_session_not_ready', 'REGEN-012', {
      response: (res, req) => is(req, 'POST', REGENERATE) && res.status === 409 && answer(res, 400, { error: 'Invalid request' }),
    });
  }, 30_000);

  it('a server that accepts an invalid regenerate body on the named session fails REGEN-009', async () => {
    await expectFails('regenerate_invalid_400', 'REGEN-009', {
      response(res, req) {
        const m = REGENERATE.exec(apiPath(req));
        if (req.method === 'POST' && m && res.status === 400)
          answer(res, 202, { data: { session_id: m[1], status: 'queued' }, message: 'Note regeneration queued.' });
      },
    });
  }, 30_000);
});

describe('a regeneration no check watched', () => {
  /** Just what notLanded and settle read: the user's session, the run's shared memo, the mock's second, the clock. */
  const fakeCtx = (slept: number[]) => {
    const memo = new Map<string, Promise<unknown>>();
    return {
      keys: { sessions: { regenerable: 'named' } },
      mock: { secondMs: 10 },
      fixtures: { shared: (name: string, fn: () => Promise<unknown>) => memo.get(name) ?? memo.set(name, fn()).get(name) },
      sleep: async (ms: number) => void slept.push(ms),
    } as unknown as CheckContext;
  };

  it("is given its documented time to land before a watching check starts on the user's session, and only there", async () => {
    const slept: number[] = [];
    const ctx = fakeCtx(slept);
    await settle(ctx, 'named');
    expect(slept).toEqual([]);
    await notLanded(ctx, 'named');
    await notLanded(ctx, 'the mock data');
    await settle(ctx, 'the mock data');
    expect(slept).toEqual([]);
    await settle(ctx, 'named');
    // The mock's minute (10 ms a second) and the unscaled margin, less the moment that passed.
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThan(regenerationWaitMs(ctx) - 1000);
    expect(slept[0]).toBeLessThanOrEqual(regenerationWaitMs(ctx));
    expect(regenerationWaitMs(ctx)).toBe(3 * 60_000 * 0.01 + 10_000);
  });
});
