// `npm run dredd` end to end: against the mock (default mode, --strict) every transaction passes with --mock (the key
// read from the mock, as the suite reads it) and every skip without it has its reason; a fault armed by hand stays
// armed; a broken variant (POST /patients answering 200) fails; bad flags and an unreachable target exit 2; the key
// appears in no output and no report file. Plus the two Dredd limits it handles.
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/server.ts';
import { apiPath, serveOnLoopback, startBrokenProxy } from '../conformance/testing/broken-proxy.ts';
import { loadBundle } from '../spec/runtime/bundle.ts';
import type { JsonObject } from '../spec/runtime/json-pointer.ts';
import { parseDreddArgs, UsageError } from './args.ts';
import { prepareForDredd } from './bundle.ts';
import { main } from './cli.ts';
import { acceptCharset, type Transaction } from './hooks.ts';

let mock: RunningMock;
let key: string;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMock({ port: 0, host: '127.0.0.1', strict: true, quiet: true, rateLimit: { requests: 100_000, seconds: 60 } });
  key = mock.keys.find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
}, 60_000);

afterAll(async () => {
  await mock?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A run of the CLI's main; `env` stands for the environment ($CLINICAL_RECORDS_KEY unset unless given). */
async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'dredd-test-'));
  dirs.push(dir);
  let out = '';
  let err = '';
  const code = await main(
    [...args, '--out', dir],
    (s) => void (out += s),
    (s) => void (err += s),
    env,
  );
  return { code, out, err, dir };
}

const summaryOf = (out: string) =>
  /dredd: (\d+) transactions in [\d.]+ s: (\d+) passed, (\d+) failed, (\d+) errors, (\d+) skipped/.exec(out);
const reasonLines = (out: string) => out.split('\n').filter((l) => /^ {2}- .+ > \d{3} > .+: .{10,}/.test(l));

/** Every run-created resource carries the run's prefix; none may be left once the run is over. */
async function leftovers(): Promise<string[]> {
  const found: string[] = [];
  for (const path of ['/patients', '/appointments'])
    for (let page = 1, total = 1; page <= total; page++) {
      const r = (await (await fetch(`${mock.url}${path}?limit=100&page=${page}`, { headers: { 'X-API-Key': key } })).json()) as {
        data: Array<{ id: string; external_id?: string | null }>;
        meta: { total_pages: number };
      };
      total = r.meta.total_pages;
      found.push(...r.data.filter((x) => x.external_id?.startsWith('drd-')).map((x) => `${path}/${x.id}`));
    }
  return found;
}

describe('npm run dredd against the mock', () => {
  it('--mock without --key: every transaction passes, none is skipped without its reason, nothing is left behind, the key is never shown', async () => {
    const r = await run(['--url', mock.url, '--mock', '--reporter', 'cli,xunit,html,markdown'], {});
    const s = summaryOf(r.out);
    expect(r.err, r.out.slice(-3000)).toBe('');
    expect(r.code, r.out.slice(-3000)).toBe(0);
    expect(Number(s![1])).toBeGreaterThan(100);
    expect(s![2]).toBe(s![1]);
    expect(reasonLines(r.out)).toHaveLength(Number(s![5]));
    expect(r.out).toMatch(/cleanup: \d+ resources this run created removed\n/);
    expect(await leftovers()).toEqual([]);
    expect((await (await fetch(`${mock.controlUrl}/faults`)).json()).data).toEqual([]);
    for (const file of ['dredd.xml', 'dredd.html', 'dredd.md', 'openapi.dredd.json'])
      expect(readFileSync(join(r.dir, file), 'utf8')).not.toContain(key);
    expect(r.out + r.err).not.toContain(key);
    expect(r.out).toMatch(/^dredd: verdict: passed \(exit 0\)$/m);
  }, 90_000);

  it('--mock leaves a fault armed by hand: it is still armed after the run, and the run shows what it did', async () => {
    const control = `${mock.controlUrl}/faults`;
    // Until cleared: every GET /providers of the run meets it, and it must still be there afterwards.
    const fault = { kind: 'http', method: 'GET', path: '/providers', status: 500, count: null };
    expect(
      (await fetch(control, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(fault) })).status,
    ).toBeLessThan(300);
    try {
      const r = await run(['--url', mock.url, '--mock']);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/fail: GET \(200\) \/providers /);
      const armed = (await (await fetch(control)).json()).data as Array<Record<string, unknown>>;
      expect(armed).toEqual([expect.objectContaining(fault)]);
      expect(await leftovers()).toEqual([]);
    } finally {
      await fetch(control, { method: 'DELETE' });
    }
  }, 90_000);

  it('without --mock: what needs the control API is skipped, each with its reason, and the rest passes', async () => {
    const r = await run(['--url', mock.url, '--key', key]);
    const s = summaryOf(r.out);
    expect(r.code, r.out.slice(-3000)).toBe(0);
    expect(Number(s![5])).toBeGreaterThan(0);
    const reasons = reasonLines(r.out);
    expect(reasons).toHaveLength(Number(s![5]));
    expect(reasons.some((l) => / > 429 > .*runs with --mock/.test(l))).toBe(true);
    expect(reasons.some((l) => / > 409 > .*session that is not ready/.test(l))).toBe(true);
    expect(r.out + r.err).not.toContain(key);
  }, 90_000);

  it('fails (exit 1) against a variant whose POST /patients answers 200, and shows the request with the key replaced', async () => {
    const proxy = await startBrokenProxy(new URL(mock.url).origin, {
      name: 'create answers 200',
      area: 'patients',
      rule: 'PAT-001',
      response(res, req) {
        if (req.method === 'POST' && apiPath(req) === '/patients' && res.status === 201) res.status = 200;
      },
    });
    try {
      const r = await run(['--url', `${proxy.origin}/ext-api/v1`, '--key', key, '--mock']);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/fail: POST \(201\) \/patients duration/);
      expect(r.out).toContain("Expected status code '201', but got '200'");
      expect(r.out).toContain('X-API-Key: $CLINICAL_RECORDS_KEY');
      expect(r.out + r.err).not.toContain(key);
    } finally {
      await proxy.close();
    }
  }, 90_000);
});

describe('Ctrl-C', () => {
  it('sends no further transaction, removes what the run created, and exits 130', async () => {
    const { spawn } = await import('node:child_process');
    const dir = mkdtempSync(join(tmpdir(), 'dredd-test-'));
    dirs.push(dir);
    // Its own process group, as a terminal's: Ctrl-C reaches the CLI and the Dredd process it started.
    const child = spawn(process.execPath, ['--import', 'tsx', 'dredd/cli.ts', '--url', mock.url, '--mock', '--out', dir], {
      cwd: new URL('..', import.meta.url).pathname,
      env: { ...process.env, CLINICAL_RECORDS_KEY: key },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      for (const end = Date.now() + 60_000; !/pass: POST \(201\) \/patients /.test(out); await new Promise((r) => setTimeout(r, 50)))
        if (Date.now() > end || child.exitCode !== null) throw new Error(`no create seen: ${out.slice(-2000)}`);
      process.kill(-child.pid!, 'SIGINT');
      const code = await Promise.race([closed, new Promise((r) => setTimeout(() => r('timeout'), 60_000))]);
      expect(code, out.slice(-2000)).toBe(130);
      expect(out).toMatch(/interrupted: \d+ transactions not sent/);
      expect(out).toMatch(/cleanup: [1-9]\d* resources this run created removed\n/);
      expect(await leftovers()).toEqual([]);
      expect(out).not.toContain(key);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
  }, 120_000);
});

describe('flags and target', () => {
  it('exits 2 on bad flags, with the reason', async () => {
    for (const args of [
      [],
      ['--url', 'not a url', '--key', 'k'],
      ['--url', mock.url],
      ['--url', mock.url, '--key', 'k', '--reporter', 'apiary'],
      ['--url', mock.url, '--key', 'k', '--bogus'],
      ['--url', mock.url, '--key', 'k', '--timeout', '0'],
      ['--url', mock.url, '--key', 'k', '--timeout', '2s'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(/^dredd: .+\nRun with --help/);
    }
  });

  it('takes the key from $CLINICAL_RECORDS_KEY when --key is absent', () => {
    expect(parseDreddArgs(['--url', mock.url], { CLINICAL_RECORDS_KEY: 'from-env' }).key).toBe('from-env');
    expect(parseDreddArgs(['--url', mock.url, '--key', 'flag'], { CLINICAL_RECORDS_KEY: 'from-env' }).key).toBe('flag');
    expect(() => parseDreddArgs(['--url', mock.url], {})).toThrow(UsageError);
  });

  it('exits 2 when the target is unreachable, or is not the mock under --mock', async () => {
    const closed = await serveOnLoopback(createServer());
    await closed.close();
    const r = await run(['--url', `${closed.origin}/ext-api/v1`, '--key', 'secret-key-1']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unreachable/);
    const notMock = await serveOnLoopback(createServer((_q, s) => s.writeHead(404).end()));
    try {
      const m = await run(['--url', `${notMock.origin}/ext-api/v1`, '--key', 'secret-key-1', '--mock']);
      expect(m.code).toBe(2);
      expect(m.err).toMatch(/not this kit's mock/);
      expect(r.err + m.err).not.toContain('secret-key-1');
    } finally {
      await notMock.close();
    }
  });
});

describe("Dredd's limits", () => {
  it('empties the example keys of a free-form map (details) in the copy only, and drops a text example Dredd would compare byte for byte', () => {
    const bundle = loadBundle();
    const { doc } = prepareForDredd(bundle);
    const example = (d: JsonObject) => (d.components as any).responses.ValidationFailed.content['application/json'].example;
    expect(Object.keys(example(bundle).details).length).toBeGreaterThan(0);
    expect(example(doc)).toEqual({ error: example(bundle).error, details: {} });
    const csv = (d: JsonObject) => (d.paths as any)['/notes/export'].get.responses['200'].content['text/csv'];
    expect(csv(bundle).example).toBeTypeOf('string');
    expect(csv(doc).example).toBeUndefined();
    // Other examples are left as they are.
    const regenerate = (d: JsonObject) => (d.paths as any)['/sessions/{sessionId}/notes/regenerate'].post.responses;
    expect(regenerate(doc)['409']).toEqual(regenerate(bundle)['409']);
  });

  it('accepts a charset parameter on the declared media type, and nothing else', () => {
    const t = (real: string): Transaction => ({
      name: 'x',
      origin: { resourceName: '/x' },
      request: { method: 'GET', uri: '/x', headers: {}, body: '' },
      expected: { statusCode: '200', headers: { 'Content-Type': 'application/json' } },
      real: { statusCode: 200, headers: { 'content-type': real } },
      fullPath: '/x',
    });
    for (const [real, accepted] of [
      ['application/json; charset=utf-8', true],
      ['APPLICATION/JSON;charset=UTF-8', true],
      ['text/html; charset=utf-8', false],
      ['application/json; version=2', false],
      ['application/json; charset=utf-8; version=2', false],
    ] as const) {
      const tx = t(real);
      acceptCharset(tx);
      expect(tx.expected.headers!['Content-Type'] === real, real).toBe(accepted);
    }
  });
});
