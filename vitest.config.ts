import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './scripts/testing/slow-first.ts';

export default defineConfig({
  test: {
    include: ['{spec,client,judge,mock,conformance,dredd,scripts,generated,bench,diff}/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Server tests bind their own free loopback ports; two workers suit a 2-core machine.
    maxWorkers: 2,
    // Tests in describe.concurrent blocks (whole or partial suite runs, each on a mock no other run uses meanwhile:
    // isolation.test.ts, coverage-honesty.test.ts, conformance.test.ts) run this many at once: a run spends about half
    // its time waiting on the mock's scaled timers, which two runs at a time left the worker idle through (isolation's
    // 35 variants in the same load: 448 s two at a time, 390 s four).
    maxConcurrency: 4,
    // The slowest files first (scripts/testing/slow-first.ts).
    sequence: { sequencer: SlowestFirst },
  },
});
