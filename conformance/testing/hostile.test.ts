// The suite's CLI, as its own process, against a loopback server written to misbehave (testing/hostile-server.ts):
// whatever it answers, the run ends with a verdict (exit 1, or 2 for a target that is not the API, with a hint),
// writes its reports when checks ran, runs its cleanup, shows the key nowhere (console, report files, the redirect
// target) and stays under 500 MB of peak RSS, within a bounded time. The bounds are generous: bench/hostile.ts
// prints the measured values. Also the receiver: a 600 MB POST gets 413 and the run ends normally.
import { describe, expect, it } from 'vitest';
import { parseCli } from '../run/args.ts';
import { MockControl } from '../target/mock-control.ts';
import { useTestMock } from './check-file.ts';
import { hostileKey, runCli, runHostile, runReceiverFlood, type CliRun, type HostileCase } from './hostile-run.ts';

const PEAK_RSS_MB = 500;
const REPORTS = ['junit.xml', 'report.json', 'report.html'];
const { mock } = useTestMock();

/** The mock's keys, its full-access one first (what $CLINICAL_RECORDS_KEY carries into a --mock run). */
async function mockKeys(): Promise<string[]> {
  const listed = await new MockControl(mock().url, 5000).keys();
  const star = (k: (typeof listed)[number]) => k.state === 'active' && k.scopes.includes('*');
  return [...listed.filter(star), ...listed.filter((k) => !star(k))].map((k) => k.key);
}

/** A verdict, not a crash: the exit code, no signal, no stack trace, within the peak-RSS bound. */
function endedWith(run: CliRun, exit: number): void {
  expect({ exit: run.exit, signal: run.signal, stderr: run.stderr }).toMatchObject({ exit, signal: null });
  expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  expect(run.peakRssMb).toBeGreaterThan(0);
  expect(run.peakRssMb).toBeLessThan(PEAK_RSS_MB);
}

/** A run whose checks ran: every report written, the summary and the cleanup line printed. */
function reported(run: CliRun): void {
  expect([...run.files.keys()]).toEqual(expect.arrayContaining(REPORTS));
  expect(run.stdout).toMatch(/\d+ passed, \d+ failed/);
  expect(run.stdout).toMatch(/cleanup: /);
}

describe('the suite against a hostile server', { timeout: 240_000 }, () => {
  const key = hostileKey();

  it.each([
    [
      'redirect',
      /GET \/providers answered 307 \(a redirect to http:\/\/127\.0\.0\.1:\d+\/ext-api\/v1\/providers\?limit=1\)\. The suite never follows a redirect/,
    ],
    ['not-found', /answers no API path as the API \(GET \/providers without a key: 404 text\/html; .*\/ext-api\/v1/],
    ['html', /answers no API path as the API \(GET \/providers without a key: 200 text\/html.*\/ext-api\/v1/],
  ] as const)('%s: exit 2 within 10 s with a hint naming /ext-api/v1, the key sent nowhere', async (mode, hint) => {
    const run = await runHostile({ label: mode, mode }, [key]);
    endedWith(run, 2);
    expect(run.stderr).toMatch(hint);
    expect(run.seconds).toBeLessThan(10);
    expect(run.keySeen).toEqual([]);
    expect(run.seen).toMatchObject({ targetRequests: 0, keys: [] });
  });

  it('silent: exit 2 once the first request times out (--timeout), nothing else sent', async () => {
    const run = await runHostile({ label: 'silent', mode: 'silent', args: ['--timeout', '2000'] }, [key]);
    endedWith(run, 2);
    expect(run.stderr).toMatch(/cannot reach .*: GET .*\/providers\?limit=1: no answer within 2000 ms/);
    expect(run.seconds).toBeLessThan(30);
    expect(run.seen.requests).toBe(1);
    expect(run.keySeen).toEqual([]);
  });

  it.each(['huge', 'endless', 'escapes', 'echo-key'] as const)('%s: exit 1 with every report, the key nowhere', async (mode) => {
    const run = await runHostile({ label: mode, mode }, [key]);
    endedWith(run, 1);
    reported(run);
    expect(run.seconds).toBeLessThan(120);
    expect(run.keySeen).toEqual([]);
    if (mode === 'huge' || mode === 'endless') expect(run.files.get('report.json')).toContain('over the 10 MB bound');
    if (mode === 'echo-key') expect(run.seen.echoed).toBeGreaterThan(10);
  });

  it.each(['redirect', 'huge'] as const)(
    '%s after the first requests (--mock, the mock answering those): exit 1, no key followed',
    async (mode) => {
      const keys = await mockKeys();
      const c: HostileCase = { label: mode, mode, args: ['--mock'], upstream: new URL(mock().url).origin, spareApi: 2 };
      const run = await runHostile(c, keys);
      endedWith(run, 1);
      reported(run);
      expect(run.keySeen).toEqual([]);
      expect(run.seen).toMatchObject({ targetRequests: 0, keys: [] });
      expect(run.seen.requests).toBeGreaterThan(50);
    },
  );

  it('silent after the first requests: every request ends at its timeout, the run at its verdict (exit 1)', async () => {
    const keys = await mockKeys();
    // More requests in flight than the default 4: still far fewer than the checks, so every slot is held by a silent
    // request and the rest queue behind them, as at the default, in half the time.
    const args = ['--mock', '--timeout', '2000', '--check-timeout', '5', '--concurrency', '16'];
    const run = await runHostile({ label: 'silent', mode: 'silent', args, upstream: new URL(mock().url).origin, spareApi: 2 }, keys);
    endedWith(run, 1);
    reported(run);
    expect(run.files.get('report.json')).toContain('no answer within 2000 ms');
    expect(run.seconds).toBeLessThan(150);
    expect(run.keySeen).toEqual([]);
  });

  it('the mock without /ext-api/v1: exit 2 within 10 s, the hint gives the URL to try', async () => {
    const origin = new URL(mock().url).origin;
    const run = await runCli(['--url', origin, '--mock'], (await mockKeys())[0]!);
    endedWith(run, 2);
    expect(run.stderr).toContain(`The base URL must include the API's prefix /ext-api/v1: try --url ${origin}/ext-api/v1`);
    expect(run.seconds).toBeLessThan(10);
  });
});

describe("the suite's webhook receiver", { timeout: 240_000 }, () => {
  it('answers a 600 MB POST 413 without holding it; the run goes on and ends with its verdict and reports', async () => {
    const run = await runReceiverFlood(mock().url, (await mockKeys())[0]!);
    expect(run.post).toMatchObject({ status: 413 });
    expect(run.post.sent).toBeLessThan(64 * 1024 * 1024);
    expect(run.exit === 0 || run.exit === 1).toBe(true);
    endedWith(run, run.exit!);
    reported(run);
  });

  it('listens on loopback unless --webhook-host says otherwise (an IP address, with --webhook-receiver)', () => {
    const base = [
      '--url',
      'http://127.0.0.1:1/ext-api/v1',
      '--key',
      'k',
      '--webhook-receiver',
      'https://t.example/h',
      '--webhook-port',
      '8080',
    ];
    expect(parseCli(base).webhookReceiver).toEqual({ publicUrl: 'https://t.example/h', port: 8080, host: undefined });
    expect(parseCli([...base, '--webhook-host', '0.0.0.0']).webhookReceiver?.host).toBe('0.0.0.0');
    expect(() => parseCli([...base, '--webhook-host', 'everywhere'])).toThrow('--webhook-host must be an IP address');
    expect(() => parseCli(['--url', 'http://127.0.0.1:1/ext-api/v1', '--key', 'k', '--webhook-host', '0.0.0.0'])).toThrow(
      '--webhook-host goes with --webhook-receiver',
    );
  });
});
