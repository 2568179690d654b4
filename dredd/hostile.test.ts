// `npm run dredd` against a hostile server (conformance/testing/hostile-server.ts), which answers the first requests
// from the mock and then misbehaves: every mode ends with a verdict (exit 1) in bounded time, the key is nowhere
// (console, report files, the redirect target), no raw control character reaches the console or a report, and the
// process tree's peak RSS stays under 500 MB. Bounds here are generous; bench/dredd-hostile.ts measures.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrokenProxy, apiPath } from '../conformance/testing/broken-proxy.ts';
import type { HostileMode } from '../conformance/testing/hostile-server.ts';
import { startMock, type RunningMock } from '../mock/server.ts';
import { main } from './cli.ts';
import { keyTraceIn } from '../conformance/testing/key-trace.ts';
import { runDreddAgainst } from './testing/hostile-run.ts';

let mock: RunningMock;
let key: string;

beforeAll(async () => {
  mock = await startMock({ port: 0, host: '127.0.0.1', strict: true, quiet: true, rateLimit: { requests: 100_000, seconds: 60 } });
  key = mock.keys.find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
}, 60_000);

afterAll(async () => {
  await mock?.close();
});

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding raw control characters is the point
const RAW_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** A run that reads its key and shows every request must end like this whatever the server does. */
const MODES: HostileMode[] = ['redirect', 'huge', 'endless', 'silent', 'escapes', 'echo-key'];

describe('npm run dredd against a hostile server', () => {
  for (const mode of MODES)
    it(`${mode}: a verdict in bounded time, the key nowhere, no raw control character, peak RSS under 500 MB`, async () => {
      const r = await runDreddAgainst(mode, { upstream: new URL(mock.url).origin, key, timeoutMs: 1000, deadlineMs: 150_000 });
      const tail = r.output.slice(-2000);
      expect(r.code, tail).toBe(1);
      expect(r.output).toMatch(/^dredd: verdict: failed: .+ \(exit 1\)$/m);
      expect(r.seconds).toBeLessThan(120);
      expect(r.keySeenIn).toEqual([]);
      expect(r.peakMb).toBeLessThan(500);
      expect(RAW_CONTROLS.test(r.output), tail).toBe(false);
      for (const [name, text] of Object.entries(r.files)) expect(RAW_CONTROLS.test(text), name).toBe(false);
      expect(Object.keys(r.files).sort()).toEqual(['dredd.html', 'dredd.md', 'dredd.xml', 'openapi.dredd.json']);
      if (mode === 'redirect') {
        expect(r.seen.targetRequests).toBe(0);
        expect(r.output).toMatch(/Expected status code '\d+', but got '30[27]'/);
      }
      if (mode === 'huge' || mode === 'endless') expect(r.output).toMatch(/is larger than 10 MB: not read further/);
      if (mode === 'silent') expect(r.output).toMatch(/^not sent: \d+ transactions: the server stopped answering \(3 requests in a row/m);
      if (mode === 'escapes') expect(r.files['dredd.md']).toContain('\\u001b]0;pwned-title\\u0007');
      if (mode === 'echo-key') {
        expect(r.seen.echoed).toBeGreaterThan(0);
        expect(r.files['dredd.md']).toContain('x-echo-key: $CLINICAL_RECORDS_KEY');
      }
    }, 160_000);
});

describe('markup from a server in the report files', () => {
  it('a <script>, a code fence and a CDATA end in an answer are shown escaped, never as markup', async () => {
    const hostileBody = 'ok\n```\n<script>alert(1)</script>\n![x](http://127.0.0.1:9/track.png)\n]]><evil/>\x1b[2J\n';
    const proxy = await startBrokenProxy(new URL(mock.url).origin, {
      name: 'markup in answers',
      area: 'providers',
      rule: '',
      response(res, req) {
        if (req.method === 'GET' && apiPath(req) === '/providers') {
          res.status = 500;
          res.headers['content-type'] = 'text/plain';
          res.body = Buffer.from(hostileBody);
        }
      },
    });
    const dir = mkdtempSync(join(tmpdir(), 'dredd-markup-'));
    try {
      let out = '';
      const code = await main(
        ['--url', `${proxy.origin}/ext-api/v1`, '--key', key, '--out', dir, '--reporter', 'cli,xunit,markdown,html', '--timeout', '5000'],
        (s) => void (out += s),
        (s) => void (out += s),
      );
      expect(code, out.slice(-2000)).toBe(1);
      const md = readFileSync(join(dir, 'dredd.md'), 'utf8');
      const xml = readFileSync(join(dir, 'dredd.xml'), 'utf8');
      const html = readFileSync(join(dir, 'dredd.html'), 'utf8');
      expect(md).toContain('&lt;script>alert(1)&lt;/script>');
      expect(md).not.toMatch(/<script|<evil/);
      expect(md).toContain('\\```');
      expect(xml).toContain(']]\\u003e<evil/>');
      expect(xml).not.toContain(']]><evil/>');
      expect(html).not.toMatch(/<script|<evil|<img/);
      for (const text of [out, md, xml, html]) {
        expect(text).toContain('\\u001b[2J');
        expect(RAW_CONTROLS.test(text)).toBe(false);
        expect(keyTraceIn(text, key)).toBe(false);
      }
    } finally {
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
