// A one-shot fault armed on the mock before a --mock run is not taken unseen by the run's first requests (the probe):
// the run arms it again, says so, and a check meets it (here: fails on it, as the user who armed it meant).
import { describe, expect, it } from 'vitest';
import { MockControl } from '../target/mock-control.ts';
import { runSuite } from './runner.ts';
import { useTestMock } from '../testing/check-file.ts';

const { mock } = useTestMock();

describe("the probe and the user's faults", { timeout: 60_000 }, () => {
  it('a fault the probe took is armed again and named; a check then meets it', async () => {
    const control = new MockControl(mock().url, 5000);
    await control.fault({ kind: 'http', method: 'GET', path: '/providers', status: 500, count: 1 });
    const { report } = await runSuite({
      url: mock().url,
      mock: true,
      scopedKeys: [],
      profile: 'documented',
      only: ['providers_list_parameters'],
      concurrency: 1,
      timeoutMs: 10_000,
      readOnly: false,
    });
    expect(report.probeFaults).toBe(
      "the suite's first requests (its probe of the target) took faults armed before the run: http GET /providers → 500 ×1; armed again, so the checks meet them",
    );
    const failed = report.results.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => r.failures.map((f) => f.actual).join(' '))).toEqual([expect.stringMatching(/^500\b/)]);
    const left = await control.call<{ data: unknown[] }>('GET', '/faults');
    expect(left.body.data).toEqual([]);
  });
});
