// The options of the tests' mock (and of the benches that measure against the same one): loopback, time-scale 0.01,
// Prism --strict, no rate limit in the way. Its own module, free of vitest, so a bench can import it. Test-only.
export const testMockOptions = {
  port: 0,
  host: '127.0.0.1',
  timeScale: 0.01,
  strict: true,
  allowPrivateWebhooks: true,
  quiet: true,
  rateLimit: { requests: 1_000_000, seconds: 60 },
};
