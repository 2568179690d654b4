import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { SlowestFirst } from './scripts/testing/slow-first.ts';

const ALL = ['{spec,client,judge,mock,conformance,dredd,scripts,generated,bench,diff}/**/*.test.ts'];

// The files that get a process of their own: they change what the whole process shares (global fetch behind MSW,
// spies on globals, process.env, SIGINT handlers, V8 flags) or measure it (RSS, heap). Every other file runs in a
// process that earlier files of its worker used too (isolate: false): importing the kit again for each of some 180
// files was a quarter of the run's CPU. scripts/own-process.test.ts fails on a test file that does such a thing and is
// not listed here.
export const OWN_PROCESS = [
  'conformance/cli.test.ts',
  'conformance/report/replay-line.test.ts',
  'conformance/testing/hostile.test.ts',
  'diff/cli.test.ts',
  'dredd/hostile.test.ts',
  'mock/features/documents/extract-text.test.ts',
  'mock/features/documents/off-thread.test.ts',
  'mock/features/documents/stored-file.test.ts',
  'mock/features/patients/feature.test.ts',
  'mock/in-process/*.test.ts',
  'mock/memory-flags.test.ts',
  'mock/msw.test.ts',
  'mock/upstream/hostile.test.ts',
  'scripts/pack.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Server tests bind their own free loopback ports. One worker more than cores: about a third of a run is files
    // waiting on the mock's scaled timers, npm or a slow fake service, which an extra worker fills (on 2 cores:
    // 620 s with two workers, 530 s with three; the CPU was 66% busy with two).
    maxWorkers: availableParallelism() + 1,
    // Tests in describe.concurrent blocks (whole or partial suite runs, each on a mock no other run uses meanwhile:
    // isolation.test.ts, coverage-honesty.test.ts, conformance.test.ts) run this many at once: a run spends about half
    // its time waiting on the mock's scaled timers, which two runs at a time left the worker idle through (isolation's
    // 35 variants in the same load: 448 s two at a time, 390 s four).
    maxConcurrency: 4,
    // The slowest files first (scripts/testing/slow-first.ts).
    sequence: { sequencer: SlowestFirst },
    projects: [
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS } },
      {
        extends: true,
        test: { name: 'shared-process', include: ALL, exclude: [...configDefaults.exclude, ...OWN_PROCESS], isolate: false },
      },
    ],
  },
});
