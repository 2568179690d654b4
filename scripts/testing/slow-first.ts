// The order vitest starts test files in: the slowest first, so the workers finish together instead of one running
// a long file alone at the end. Vitest's own order sorts by the durations of the last run on this machine, and on a
// fresh clone (CI), which has none, by file size, which put the slowest file (isolation.test.ts, 75 lines) near the
// end. SLOWEST lists the files that took longest in a whole `vitest run` (slowest first, as measured on 2026-11-29
// with three workers); the rest keep vitest's order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOWEST = [
  'conformance/testing/isolation.test.ts',
  'scripts/pack.test.ts',
  'conformance/testing/readings.test.ts',
  'conformance/report/coverage-honesty.test.ts',
  'conformance/testing/slow-extraction.test.ts',
  'dredd/hostile.test.ts',
  'conformance/checks/async-operations.test.ts',
  'conformance/testing/hostile.test.ts',
  'dredd/dredd.test.ts',
  'conformance/testing/latency.test.ts',
  'conformance/testing/pacing.test.ts',
  'conformance/checks/evt/received.test.ts',
  'conformance/cli.test.ts',
  'conformance/explore/explore.test.ts',
  'conformance/checks/webhook-delivery.test.ts',
  'conformance/run/deadline.test.ts',
  'diff/cli.test.ts',
  'diff/fixtures.test.ts',
  'conformance/checks/rule-variants.test.ts',
  'mock/upstream/differential.test.ts',
  'conformance/testing/allowed-variants.test.ts',
  'conformance/testing/robustness.test.ts',
];

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i < 0 ? SLOWEST.length : i;
    };
    // Array.prototype.sort is stable: files of equal rank keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
