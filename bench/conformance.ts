// Measures a full documented conformance run against the mock at --time-scale 0.01 (target: at most 30 s on the
// 2-core machine), the same run with 40 ms added to every round trip (a staging-like target; it must pass), and a
// run against Prism's static mock (`npm run mock -- --static`: it fails, and must finish quickly without a crash).
import { startMock, type MockMode } from '../mock/server.ts';
import { runSuite } from '../conformance/run/runner.ts';
import { startBrokenProxy } from '../conformance/testing/broken-proxy.ts';
import type { RunReport } from '../conformance/run/model.ts';
import { testMockOptions } from '../conformance/testing/mock-options.ts';

/** The tests' mock, but with its default rate limit: the run is measured as a user's against `npm run mock` would be. */
const { rateLimit: _testsLimit, ...mockOptions } = testMockOptions;

const n = (r: RunReport, o: string) => r.results.filter((x) => x.outcome === o).length;
const line = (r: RunReport) =>
  `${n(r, 'passed')} passed, ${n(r, 'failed')} failed, ${n(r, 'blocked')} blocked, ${n(r, 'timed-out')} timed out, ${n(r, 'skipped')} skipped`;

async function measure(label: string, mode: MockMode, latencyMs: number, key?: string): Promise<{ seconds: number; report: RunReport }> {
  const mock = await startMock({ ...mockOptions, mode });
  const proxy = latencyMs
    ? await startBrokenProxy(new URL(mock.url).origin, { name: 'latency', area: '', rule: '', latencyMs })
    : undefined;
  try {
    const url = proxy ? `${proxy.origin}${new URL(mock.url).pathname}` : mock.url;
    const t0 = performance.now();
    const { report } = await runSuite({
      url,
      mock: mode !== 'static',
      key,
      scopedKeys: [],
      profile: 'documented',
      only: [],
      concurrency: 4,
      timeoutMs: 10_000,
      readOnly: false,
    });
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `${label}: ${seconds.toFixed(1)} s — ${line(report)}; cleanup ${report.cleanup.removed}/${report.cleanup.created}, ${report.cleanup.leftovers.length} distinct leftovers; paused ${report.pacing.pauses}× (${report.pacing.seconds.toFixed(1)} s) for rate limits`,
    );
    return { seconds, report };
  } finally {
    await proxy?.close();
    await mock.close();
  }
}

const plain = await measure('full documented run against the mock (time-scale 0.01, Prism --strict; target ≤ 30 s)', 'default', 0);
const slow = await measure('the same with 40 ms added to every round trip (must pass; target ≤ 60 s)', 'default', 40);
const stat = await measure("against Prism's static mock (--static; fails, must finish ≤ 60 s)", 'static', 0, 'crk_static_any_key');
process.exitCode =
  plain.seconds <= 30 && !n(plain.report, 'failed') && slow.seconds <= 60 && !n(slow.report, 'failed') && stat.seconds <= 60 ? 0 : 1;
