import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{spec,client,mock,conformance,dredd,scripts,generated,bench}/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Server tests bind their own free loopback ports; two workers suit a 2-core machine.
    maxWorkers: 2,
    // Tests in describe.concurrent blocks (conformance/isolation.test.ts: whole suite runs, each against its own mock)
    // run this many at once.
    maxConcurrency: 2,
  },
});
