// A conforming target with a small rate limit: checks of several areas run against the mock limited to 40 requests
// per 5 s per key, about 200 requests, so the main key's window is spent several times. The run only gets slower:
// nothing fails or times out, though a 4 s --check-timeout is shorter than one window's pause (the pauses do not
// count against the checks' budgets), and the pauses are reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { runSuite } from '../run/runner.ts';
import { allChecks } from '../checks/index.ts';
import { failureLines, suiteOptions } from './check-file.ts';
import { testMockOptions } from './mock-options.ts';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ ...testMockOptions, rateLimit: { requests: 40, seconds: 5 } });
}, 60_000);
afterAll(async () => {
  await mock?.close();
});

describe('a target with a small rate limit (40 requests per 5 s)', () => {
  it('checks of five areas pass, none timed out, and the run reports its pauses', async () => {
    const { report } = await runSuite({
      ...suiteOptions(mock.url),
      profile: 'documented',
      only: ['xid', 'doc', 'prv', 'pag', 'note'],
      checkTimeoutMs: 4_000,
    });
    expect(failureLines(report)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === 'blocked' || r.outcome === 'timed-out').map((r) => `${r.name}: ${r.reason}`)).toEqual(
      [],
    );
    expect(new Set(report.results.filter((r) => r.outcome === 'passed').map((r) => r.area)).size).toBeGreaterThanOrEqual(5);
    // About 200 requests against 40 a window: the window was spent, waited out and crossed several times.
    expect(report.pacing.pauses).toBeGreaterThanOrEqual(3);
    expect(report.pacing.seconds).toBeGreaterThanOrEqual(10);
    // Checks that wait for nothing documented (budget: the 4 s --check-timeout) outlasted it in pauses, and passed.
    const plain = report.results.filter((r) => allChecks.some((c) => c.name === r.name && !c.waits));
    expect(plain.filter((r) => r.outcome === 'passed' && r.ms > 4_000).length).toBeGreaterThan(0);
    expect(report.cleanup.leftovers).toEqual([]);
  }, 240_000);
});
