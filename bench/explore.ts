// Measures --explore: cases and requests per second against the mock and its false failures over several seeds in
// both profiles (target 0), then, for each planted defect of conformance/testing/defects-explore.ts, the time to the
// first failure and whether the right check failed with a re-checked shrunk case.
// Usage: npx tsx bench/explore.ts [--seeds <n>] [--budget <requests>] [--defect-budget <requests>]
import { MockControl } from '../conformance/target/mock-control.ts';
import type { RunReport } from '../conformance/run/model.ts';
import { runSuite } from '../conformance/run/runner.ts';
import type { Profile } from '../spec/runtime/schemas.ts';
import { exploreDefects } from '../conformance/testing/defects-explore.ts';
import { testMockOptions } from '../conformance/testing/mock-options.ts';
import { startSwappableProxy } from '../conformance/testing/single-defect.ts';
import { startMock } from '../mock/server.ts';
import { readFlags } from './flags.ts';

const flags = readFlags('Usage: npx tsx bench/explore.ts [--seeds <n>] [--budget <requests>] [--defect-budget <requests>]', {
  seeds: { fallback: 10, min: 1, max: 1000, whole: true },
  budget: { fallback: 1000, min: 10, max: 1_000_000, whole: true },
  'defect-budget': { fallback: 1000, min: 10, max: 1_000_000, whole: true },
});

// The tests' mock: loopback, time-scale 0.01, Prism --strict, a rate limit that never gets in the way.
const mock = await startMock(testMockOptions);
const proxy = await startSwappableProxy(new URL(mock.url).origin);
const mainKey = (await new MockControl(mock.url, 5_000).keys()).find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;

async function explore(url: string, seed: number, budget: number, profile: Profile): Promise<RunReport> {
  const { report } = await runSuite({
    url,
    mock: true,
    scopedKeys: [],
    profile,
    only: ['explore'],
    concurrency: 4,
    timeoutMs: 10_000,
    readOnly: false,
    explore: { seed, budget },
  });
  return report;
}
const failedOf = (r: RunReport) => r.results.filter((x) => x.outcome === 'failed');

let falseFailures = 0;
let missed = 0;
try {
  console.log(`Against the mock, ${flags.seeds} seeds × 2 profiles, budget ${flags.budget} requests (concurrency 4):`);
  console.log('seed profile      cases requests  seconds  cases/s  req/s  false failures');
  const rates: number[] = [];
  for (let seed = 1; seed <= flags.seeds; seed++)
    for (const profile of ['documented', 'all'] as const) {
      const r = await explore(mock.url, seed, flags.budget, profile);
      const e = r.exploration!;
      const failed = failedOf(r);
      falseFailures += failed.length;
      rates.push(e.cases / e.seconds);
      console.log(
        `${String(seed).padStart(4)} ${profile.padEnd(11)} ${String(e.cases).padStart(6)} ${String(e.requests).padStart(8)} ${e.seconds.toFixed(1).padStart(8)} ${(e.cases / e.seconds).toFixed(0).padStart(8)} ${((e.requests + e.shrinkRequests) / e.seconds).toFixed(0).padStart(6)}  ${failed.length ? failed.map((x) => `${x.name} ${x.explored?.operation}`).join('; ') : 0}`,
      );
    }
  rates.sort((a, b) => a - b);
  console.log(
    `median ${rates[Math.floor(rates.length / 2)]!.toFixed(0)} cases/s; ${falseFailures} false failure(s) in ${flags.seeds * 2} runs (target 0)`,
  );

  console.log(`\nPlanted defects (seed 1, profile all, budget ${flags['defect-budget']}):`);
  console.log('defect                                                first failure  right check  shrunk steps  re-checked  total s');
  for (const d of exploreDefects) {
    proxy.plant(d.breaks(mainKey));
    const t0 = performance.now();
    const r = await explore(`${proxy.origin}${new URL(mock.url).pathname}`, 1, flags['defect-budget'], 'all');
    const total = (performance.now() - t0) / 1000;
    proxy.plant();
    const hit = failedOf(r).find((x) => x.name === d.check && d.operation.test(x.explored?.operation ?? ''));
    const f = hit?.failures[0]?.explored;
    if (!hit) missed++;
    const first = r.exploration!.firstFailureMs;
    console.log(
      `${d.defect.padEnd(53)} ${(first === undefined ? 'none' : `${(first / 1000).toFixed(2)} s`).padStart(13)}  ${(hit ? `${d.check}` : 'MISSED').padEnd(11)}  ${(f ? `${f.generatedSteps} → ${f.steps}` : '').padStart(12)}  ${String(!!f?.rechecked).padStart(10)}  ${total.toFixed(1).padStart(7)}`,
    );
  }
} finally {
  await proxy.close();
  await mock.close();
}
process.exitCode = falseFailures || missed ? 1 : 0;
