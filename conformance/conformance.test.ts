// The suite against the mock through Prism in --strict mode (every check passes), then against deliberately
// broken variants behind a loopback proxy (each must fail on its rule id), and the CLI's usage and exit codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/server.ts';
import { runSuite, type RunOptions } from './runner.ts';
import { MockControl } from './mock-control.ts';
import { startBrokenProxy, variants, type VariantKeys } from './testing/broken-proxy.ts';
import { main } from './cli.ts';
import type { RunReport } from './model.ts';

let mock: RunningMock;
let keys: VariantKeys;

const base = (url: string): RunOptions => ({
  url,
  mock: true,
  scopedKeys: [],
  profile: 'documented',
  only: [],
  concurrency: 6,
  timeoutMs: 10_000,
  readOnly: false,
});

const failedRules = (r: RunReport) => [...new Set(r.results.filter((x) => x.outcome === 'failed').map((x) => x.ruleId))];
const failures = (r: RunReport) =>
  r.results.filter((x) => x.outcome === 'failed').flatMap((x) => x.failures.slice(0, 2).map((f) => `${x.name} [${x.ruleId}] ${f.message}: expected ${f.expected}, got ${f.actual.slice(0, 200)}`));

beforeAll(async () => {
  mock = await startMock({ port: 0, host: '127.0.0.1', timeScale: 0.01, strict: true, allowPrivateWebhooks: true, quiet: true, rateLimit: { requests: 1_000_000, seconds: 60 } });
  const list = await new MockControl(mock.url, 5_000).keys();
  const star = list.find((k) => k.state === 'active' && k.scopes.includes('*'))!;
  const org = star.organization_id;
  keys = {
    main: star.key,
    scoped: list.filter((k) => k.organization_id === org && k.state === 'active' && !k.scopes.includes('*')).map((k) => k.key),
    otherOrg: list.find((k) => k.organization_id !== org && k.state === 'active')!.key,
    expired: list.find((k) => k.organization_id === org && k.state === 'expired')!.key,
  };
}, 60_000);

afterAll(async () => {
  await mock?.close();
});

describe('against the mock (Prism --strict)', () => {
  it('passes every executed check, documented profile, and leaves nothing behind', async () => {
    const { report } = await runSuite(base(mock.url));
    expect(failures(report)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === 'passed').length).toBeGreaterThan(30);
    expect(report.cleanup.leftovers).toEqual([]);
    expect(report.cleanup.removed).toBe(report.cleanup.created);
    // Keys never appear in a report.
    const text = JSON.stringify(report);
    for (const k of [keys.main, keys.otherOrg, keys.expired, ...keys.scoped]) expect(text).not.toContain(k);
  }, 60_000);

  it('passes with --profile all', async () => {
    const { report } = await runSuite({ ...base(mock.url), profile: 'all' });
    expect(failures(report)).toEqual([]);
  }, 60_000);

  it('--read-only sends no writes', async () => {
    const { report } = await runSuite({ ...base(mock.url), readOnly: true, mock: false, key: keys.main });
    expect(failures(report)).toEqual([]);
    expect(report.cleanup.created).toBe(0);
    expect(report.results.find((r) => r.name === 'patient_lifecycle')?.reason).toMatch(/read-only/);
  }, 60_000);
});

describe('against broken variants (each fails on its rule)', () => {
  const names = variants({ main: '', scoped: [], otherOrg: '', expired: '' });
  for (const probe of names)
    it(`${probe.name} → ${probe.rule} (--only ${probe.area})`, async () => {
      const variant = variants(keys).find((v) => v.name === probe.name)!;
      const proxy = await startBrokenProxy(new URL(mock.url).origin, variant);
      try {
        const { report } = await runSuite({ ...base(`${proxy.origin}${new URL(mock.url).pathname}`), only: [variant.area] });
        expect(failedRules(report)).toContain(variant.rule);
        expect(report.cleanup.leftovers).toEqual([]);
      } finally {
        await proxy.close();
      }
    }, 60_000);
});

describe('cli', () => {
  const capture = () => {
    const lines: string[] = [];
    return { lines, write: (s: string) => lines.push(s) };
  };

  it('--help exits 0 and names every flag', async () => {
    const o = capture();
    expect(await main(['--help'], o.write, o.write)).toBe(0);
    for (const f of ['--url', '--key', '--scoped-key', '--other-org-key', '--expired-key', '--revoked-key', '--mock', '--webhook-receiver', '--webhook-port', '--profile', '--only', '--reporter', '--out', '--concurrency', '--timeout', '--read-only'])
      expect(o.lines.join('\n')).toContain(f);
  });

  it.each([
    [['--url', 'http://127.0.0.1:1/ext-api/v1'], /--key/],
    [['--url', 'not a url', '--key', 'k'], /--url/],
    [['--url', 'http://127.0.0.1:1', '--key', 'k', '--profile', 'some'], /--profile/],
    [['--url', 'http://127.0.0.1:1', '--key', 'k', '--reporter', 'xml'], /--reporter/],
    [['--url', 'http://127.0.0.1:1', '--key', 'k', '--scoped-key', 'nokey'], /--scoped-key/],
    [['--url', 'http://127.0.0.1:1', '--key', 'k', '--concurrency', '0'], /--concurrency/],
    [['--url', 'http://127.0.0.1:1', '--key', 'k', '--only', 'nonsense'], /--only/],
    [['--url', 'http://127.0.0.1:1', '--key', 'k', '--webhook-port', '9000'], /--webhook-receiver/],
    [['--bogus'], /bogus/],
  ])('bad usage %j exits 2 with a clear message', async (argv, message) => {
    const o = capture();
    expect(await main(argv, o.write, o.write)).toBe(2);
    expect(o.lines.join('\n')).toMatch(message);
    expect(o.lines.join('\n')).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('an unreachable target exits 2', async () => {
    const o = capture();
    expect(await main(['--url', 'http://127.0.0.1:1/ext-api/v1', '--key', 'k', '--timeout', '2000'], o.write, o.write)).toBe(2);
    expect(o.lines.join('\n')).toMatch(/cannot reach/);
  });

  it('exits 1 on a failure, prints a redacted curl, writes junit, json and html', async () => {
    const variant = variants(keys).find((v) => v.rule === 'GEN-010')!;
    const proxy = await startBrokenProxy(new URL(mock.url).origin, variant);
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const dir = mkdtempSync(`${(await import('node:os')).tmpdir()}/crc-`);
    try {
      const o = capture();
      const code = await main(['--url', `${proxy.origin}/ext-api/v1`, '--key', keys.main, '--only', 'validation', '--reporter', 'console,junit,json,html', '--out', dir], o.write, o.write);
      const out = o.lines.join('\n');
      expect(code).toBe(1);
      expect(out).toContain('GEN-010');
      expect(out).toContain('$CLINICAL_RECORDS_KEY');
      expect(out).not.toContain(keys.main);
      expect(readFileSync(`${dir}/junit.xml`, 'utf8')).toMatch(/<failure message="GEN-010/);
      expect(JSON.parse(readFileSync(`${dir}/report.json`, 'utf8')).results.length).toBeGreaterThan(0);
      const html = readFileSync(`${dir}/report.html`, 'utf8');
      expect(html).toContain('GEN-010');
      expect(html).not.toMatch(/<script|<link|src="http/);
      for (const f of ['junit.xml', 'report.json', 'report.html']) expect(readFileSync(`${dir}/${f}`, 'utf8')).not.toContain(keys.main);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
