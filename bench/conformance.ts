// Measures a full documented conformance run against the mock at --time-scale 0.01 (target: at most 30 s on
// the 2-core machine). Starts the mock in its default mode (Prism --strict in front of the engine), runs, prints.
import { startMock } from '../mock/server.ts';
import { runSuite } from '../conformance/runner.ts';

const mock = await startMock({ port: 0, host: '127.0.0.1', timeScale: 0.01, strict: true, allowPrivateWebhooks: true, quiet: true });
try {
  const t0 = performance.now();
  const { report } = await runSuite({
    url: mock.url,
    mock: true,
    scopedKeys: [],
    profile: 'documented',
    only: [],
    concurrency: 4,
    timeoutMs: 10_000,
    readOnly: false,
  });
  const seconds = (performance.now() - t0) / 1000;
  const n = (o: string) => report.results.filter((r) => r.outcome === o).length;
  console.log(
    `full documented run against the mock (time-scale 0.01, Prism --strict): ${seconds.toFixed(1)} s — ${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped (target ≤ 30 s); ${report.coveredBySchemas.length} more rules checked through the schema checks, ${report.notChecked.length} not checked; paused ${report.pacing.pauses}× (${report.pacing.seconds.toFixed(1)} s) for rate limits at the mock's default limit`,
  );
  process.exitCode = seconds <= 30 && !n('failed') ? 0 : 1;
} finally {
  await mock.close();
}
