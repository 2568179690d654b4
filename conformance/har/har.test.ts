// `conformance --har`: HAR files as the mock, a browser's devtools and `redocly proxy` write them are read alike;
// a file that is not HAR, or a live run's flag beside --har, is exit 2 with the reason; every reporter renders the
// run, the checks that send their own requests listed as not applicable; exit 0 clean, 1 on a violation.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli.ts';
import { HarError, parseHar } from './read.ts';
import { NEEDS_LIVE } from './run.ts';

const dir = mkdtempSync(join(tmpdir(), 'har-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RATE = [
  { name: 'X-RateLimit-Limit', value: '100' },
  { name: 'X-RateLimit-Remaining', value: '99' },
  { name: 'X-RateLimit-Reset', value: '1795713368' },
];
/** A 401 for a request without a key, as a recorder writes it: `over` edits the response. */
const entry = (over: Record<string, unknown> = {}, url = 'https://staging.example.org/ext-api/v1/patients') => ({
  startedDateTime: '2026-11-26T10:00:00.000Z',
  time: 12,
  request: {
    method: 'GET',
    url,
    httpVersion: 'HTTP/2',
    headers: [
      { name: ':authority', value: 'staging.example.org' },
      { name: 'X-API-Key', value: 'k' },
    ],
    queryString: [],
    headersSize: -1,
    bodySize: 0,
  },
  response: {
    status: 401,
    statusText: 'Unauthorized',
    httpVersion: 'HTTP/2',
    headers: [{ name: 'Content-Type', value: 'application/json; charset=utf-8' }, ...RATE],
    content: {
      size: 27,
      mimeType: 'application/json',
      text: Buffer.from('{"error":"Invalid API key"}').toString('base64'),
      encoding: 'base64',
    },
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
    ...over,
  },
  cache: {},
  timings: { send: 0, wait: 12, receive: 0 },
});
const write = (name: string, entries: unknown[]) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }));
  return file;
};
const run = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    (s) => out.push(s),
    (s) => err.push(s),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
};

describe('reading HAR', () => {
  it('reads devtools exports (base64 bodies, HTTP/2 pseudo-headers, unanswered entries) and redocly proxy captures', () => {
    const { exchanges, unanswered } = parseHar(
      JSON.stringify({ log: { entries: [entry(), entry({ status: 0, headers: [], content: {} })] } }),
    );
    expect(unanswered).toBe(1);
    expect(exchanges).toEqual([
      {
        method: 'GET',
        url: 'https://staging.example.org/ext-api/v1/patients',
        requestHeaders: { 'x-api-key': 'k' },
        requestBody: undefined,
        status: 401,
        responseHeaders: {
          'content-type': 'application/json; charset=utf-8',
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': '99',
          'x-ratelimit-reset': '1795713368',
        },
        responseBody: '{"error":"Invalid API key"}',
        responseMimeType: 'application/json',
      },
    ]);
    // An empty header list is "not recorded" unless the recorder measured the headers (headersSize, -1 where it did not).
    const bare = (headersSize: number) =>
      parseHar(JSON.stringify({ log: { entries: [entry({ headers: [], headersSize })] } })).exchanges[0]!.responseHeaders;
    expect([bare(-1), bare(17)]).toEqual([undefined, {}]);
    // redocly proxy: postData as text, plain content text, the upstream's URL.
    const posted = {
      ...entry(),
      request: { ...entry().request, method: 'POST', postData: { mimeType: 'application/json', text: '{"name":"A"}' } },
    };
    expect(parseHar(JSON.stringify({ log: { entries: [posted] } })).exchanges[0]!.requestBody).toBe('{"name":"A"}');
  });

  it('reads a real capture of `redocly proxy` (2.77, in front of an engine-only mock; the key replaced)', async () => {
    const file = new URL('./redocly-proxy.har', import.meta.url).pathname;
    const out = join(dir, 'redocly');
    expect((await run(['--har', file, '--reporter', 'json', '--out', out])).code).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.target).toMatch(/4 exchanges, 0 outside/);
    const failed = report.results.filter((r: any) => r.outcome === 'failed').map((r: any) => `${r.ruleId} ${r.failures[0].operation}`);
    // The app's two bugs in that session: a request without a key, a create with an unknown field.
    expect(failed.sort()).toEqual(['AUTH-003 GET /providers', 'GEN-010 POST /patients']);
    expect(report.results.find((r: any) => r.name === 'rate_limit_headers')).toMatchObject({ outcome: 'passed', assertions: 4 });
  });

  it('says what is wrong with a file that is not HAR', () => {
    expect(() => parseHar('nope', 'x.har')).toThrow(HarError);
    expect(() => parseHar('{"log":{}}', 'x.har')).toThrow(/x.har is not a HAR file: no log.entries array/);
    expect(() => parseHar('{"log":{"entries":[{"request":{}}]}}', 'x.har')).toThrow(/entry 1 has no request/);
  });
});

describe('conformance --har', () => {
  it('exit 2 for a missing or malformed file and for a live flag beside --har', async () => {
    expect(await run(['--har', join(dir, 'absent.har')])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/cannot read .*absent\.har: ENOENT/),
    });
    writeFileSync(join(dir, 'bad.har'), '{');
    expect((await run(['--har', join(dir, 'bad.har')])).err).toMatch(/bad\.har is not JSON/);
    expect(await run(['--har', join(dir, 'x.har'), '--url', 'http://127.0.0.1:1/ext-api/v1'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--har judges a recorded file: --url is for a live run/),
    });
  });

  it('renders a clean file in every reporter (exit 0) and a violation (exit 1); live checks are not applicable', async () => {
    const clean = write('clean.har', [entry(), entry({}, 'https://example.org/app.js')]);
    const out = join(dir, 'clean');
    const ok = await run(['--har', clean, '--reporter', 'console,junit,json,html', '--out', out]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain(`recorded traffic ${clean}`);
    expect(ok.out).not.toMatch(/cleanup/i); // nothing was sent: no "0/0 removed"
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.target).toMatch(/2 exchanges, 1 outside the contract's operations, 0 unanswered/);
    const byName = new Map(report.results.map((r: any) => [r.name, r]));
    expect(byName.get('error_body_shape')).toMatchObject({ outcome: 'passed', assertions: 1 });
    expect(byName.get('list_meta_defaults')).toMatchObject({ outcome: 'skipped', reason: NEEDS_LIVE });
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain(NEEDS_LIVE);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('error_body_shape');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).not.toContain('Cleanup:');
    expect(report.recorded).toBe(true);

    const noRate = entry({ headers: [{ name: 'Content-Type', value: 'application/json' }] });
    const broken = await run(['--har', write('broken.har', [entry(), noRate]), '--reporter', 'json', '--out', join(dir, 'broken')]);
    expect(broken.code).toBe(1);
    const failed = JSON.parse(readFileSync(join(dir, 'broken', 'report.json'), 'utf8')).results.filter((r: any) => r.outcome === 'failed');
    expect(failed.map((r: any) => [r.name, r.ruleId, r.failures[0].message])).toEqual([
      ['rate_limit_headers', 'RATE-001', 'GET /patients (entry 2) at response.headers'],
    ]);
  });

  it('redacts every key the file holds (headers in any case, key fields of bodies, base64) in every report', async () => {
    const key = 'sk_live_Q29uZm9ybWFuY2UtSEFSLWtleQ';
    const basic = Buffer.from(`ada:${key}`).toString('base64');
    const echoed = JSON.stringify({ error: `Invalid API key ${key} (${Buffer.from(key).toString('base64')}) ${basic}` });
    const leaky = entry({ status: 418, content: { size: echoed.length, mimeType: 'application/json', text: echoed } });
    leaky.request.headers = [
      { name: 'x-Api-KEY', value: key },
      { name: 'AUTHORIZATION', value: `Basic ${basic}` },
    ];
    const bodyKey = 'tok_0123456789abcdef';
    const posted = {
      ...entry({ status: 500, content: { size: 40, mimeType: 'application/json', text: `{"error":"bad ${bodyKey}"}` } }),
    };
    posted.request = {
      ...posted.request,
      method: 'POST',
      postData: { mimeType: 'application/json', text: `{"api_key":"${bodyKey}"}` },
    } as never;
    const out = join(dir, 'leaky');
    const r = await run([
      '--har',
      write('leaky.har', [leaky, posted]),
      '--profile',
      'all',
      '--reporter',
      'console,junit,json,html',
      '--out',
      out,
    ]);
    expect(r.code).toBe(1);
    const shown = [r.out, r.err, ...['junit.xml', 'report.json', 'report.html'].map((f) => readFileSync(join(out, f), 'utf8'))];
    expect(shown.join('\n')).toContain('[key from the HAR]');
    for (const text of shown)
      for (const secret of [key, Buffer.from(key).toString('base64'), basic, bodyKey]) expect(text).not.toContain(secret);
  });
});
