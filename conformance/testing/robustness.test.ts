// Never a crash: whatever the target answers (HTML, an empty body, a 5xx, a reset socket, a hang), the run goes on,
// every problem is a check's failure (or timeout) with its evidence, the summary and the reports are written, exit 1.
// Exit 2 stays for what stops a run from starting: here, the main key refused on the first probe.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { main } from '../cli.ts';
import { answer, apiPath, is, startBrokenProxy, type Variant } from './broken-proxy.ts';
import { useTestMock } from './check-file.ts';
import type { RunReport } from '../run/model.ts';

const file = useTestMock();

/** Everything but the first probe of the run (GET /providers?limit=1), so the run starts and meets the defect. */
const past = (req: { url: string }) => !/\/providers\?limit=1$/.test(req.url);

const cases: Array<[string, Omit<Variant, 'name' | 'area' | 'rule'>]> = [
  [
    'HTML for every answer',
    {
      response: (res, req) =>
        past(req) &&
        void Object.assign(res, {
          status: 200,
          headers: { 'content-type': 'text/html' },
          body: Buffer.from('<html><body>Maintenance</body></html>'),
        }),
    },
  ],
  [
    'an empty 200 for every answer',
    { response: (res, req) => past(req) && void Object.assign(res, { status: 200, headers: {}, body: Buffer.alloc(0) }) },
  ],
  ['wrong types everywhere', { response: (res, req) => past(req) && answer(res, 200, { data: 'not an object', meta: [] }) }],
  ['a 503 for every write', { response: (res, req) => req.method !== 'GET' && answer(res, 503, { error: 'down' }) }],
  ['a reset socket on POST /patients', { drop: (req) => (is(req, 'POST', /^\/patients$/) ? 'reset' : undefined) }],
  ['a hang on GET /patients/{id}', { drop: (req) => (is(req, 'GET', /^\/patients\/\d+$/) ? 'hang' : undefined) }],
];

describe('never a crash', () => {
  for (const [label, breaks] of cases)
    it(`${label}: the run finishes, prints its summary, writes its reports, exits 1`, async () => {
      const proxy = await startBrokenProxy(new URL(file.mock().url).origin, { name: label, area: '', rule: '', ...breaks });
      const dir = mkdtempSync(`${tmpdir()}/crc-robust-`);
      const lines: string[] = [];
      const t0 = performance.now();
      try {
        const code = await main(
          [
            '--url',
            `${proxy.origin}/ext-api/v1`,
            '--mock',
            '--only',
            'pat,gen,xid',
            '--timeout',
            '1500',
            '--check-timeout',
            '4',
            '--reporter',
            'console,junit,json,html',
            '--out',
            dir,
          ],
          (s) => lines.push(s),
          (s) => lines.push(s),
        );
        const out = lines.join('\n');
        expect(code, out.slice(-2000)).toBe(1);
        expect(out).toMatch(/\d+ passed, \d+ failed, \d+ skipped/);
        expect(out).toMatch(/cleanup: \d+\/\d+ created resources removed/);
        const report = JSON.parse(readFileSync(`${dir}/report.json`, 'utf8')) as RunReport;
        for (const r of report.results.filter((x) => x.outcome === 'failed'))
          for (const f of r.failures)
            expect(
              typeof f.expected === 'string' && typeof f.actual === 'string' && f.actual.length > 0,
              `${r.name}: ${JSON.stringify(f)}`,
            ).toBe(true);
        expect(readFileSync(`${dir}/junit.xml`, 'utf8')).toMatch(/<testcase /);
        expect(readFileSync(`${dir}/report.html`, 'utf8')).toMatch(/Failed rules/);
        expect(performance.now() - t0).toBeLessThan(60_000);
        if (label.startsWith('a hang'))
          expect(
            report.results.some((r) => r.outcome === 'timed-out' || r.failures.some((f) => /no answer within 1500 ms/.test(f.actual))),
          ).toBe(true);
      } finally {
        await proxy.close();
      }
    }, 90_000);

  it('the main key refused on the first probe exits 2 with the reason', async () => {
    const proxy = await startBrokenProxy(new URL(file.mock().url).origin, {
      name: 'refuse',
      area: '',
      rule: '',
      response: (res, req) => apiPath(req) === '/providers' && answer(res, 401, { error: 'Unauthorized' }),
    });
    const lines: string[] = [];
    try {
      const code = await main(
        ['--url', `${proxy.origin}/ext-api/v1`, '--mock'],
        (s) => lines.push(s),
        (s) => lines.push(s),
      );
      expect(code).toBe(2);
      expect(lines.join('\n')).toMatch(/the main key \(--key\) was refused: GET \/providers answered 401/);
    } finally {
      await proxy.close();
    }
  }, 30_000);
});
