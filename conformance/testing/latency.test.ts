// A staging-like target: the whole documented run passes against the mock with 40 ms added to every round trip
// (a loopback proxy that waits before forwarding), within the default budgets. How long it takes is bench/'s to show.
import { describe, expect, it } from 'vitest';
import { runSuite } from '../run/runner.ts';
import { startBrokenProxy } from './broken-proxy.ts';
import { failureLines, suiteOptions, useTestMock } from './check-file.ts';

const file = useTestMock();

// Retried before counting, as every whole run against the mock: its webhook timing checks judge scaled 10 ms gaps.
describe('a slower target (40 ms per round trip)', { retry: 2 }, () => {
  it('the documented run passes: nothing failed, blocked or timed out, nothing left behind', async () => {
    const proxy = await startBrokenProxy(new URL(file.mock().url).origin, { name: 'latency', area: '', rule: '', latencyMs: 40 });
    try {
      const { report } = await runSuite({
        ...suiteOptions(`${proxy.origin}${new URL(file.mock().url).pathname}`),
        profile: 'documented',
        concurrency: 4,
      });
      expect(failureLines(report)).toEqual([]);
      expect(
        report.results.filter((r) => r.outcome === 'blocked' || r.outcome === 'timed-out').map((r) => `${r.name}: ${r.reason}`),
      ).toEqual([]);
      expect(report.results.filter((r) => r.outcome === 'passed').length).toBeGreaterThan(80);
      expect(report.cleanup.leftovers).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 180_000);
});
