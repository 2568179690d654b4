// The binary: flags, exit codes, the banner, and --state surviving kill -9.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFlags, UsageError } from './cli.ts';
import { makeDocxBomb } from './features/documents/sample-files.ts';

const CLI = new URL('./cli.ts', import.meta.url).pathname;

describe('flags', () => {
  it('parses every flag', () => {
    expect(
      parseFlags([
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--time-scale',
        '0.01',
        '--rate-limit',
        '100/60',
        '--strict',
        '--state',
        's.jsonl',
        '--quiet',
        '--allow-private-webhooks',
      ]),
    ).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      timeScale: 0.01,
      rateLimit: { requests: 100, seconds: 60 },
      strict: true,
      state: 's.jsonl',
      quiet: true,
      allowPrivateWebhooks: true,
      mode: 'default',
    });
    expect(parseFlags(['--cors-origin', 'https://app.example.test:8443', '--cors-origin', '*']).corsOrigins).toEqual([
      'https://app.example.test:8443',
      '*',
    ]);
    expect(parseFlags(['--engine-only']).mode).toBe('engine-only');
    expect(parseFlags(['--static']).mode).toBe('static');
    expect(parseFlags(['--journal-size', '0']).journalSize).toBe(0);
    expect(parseFlags(['--journal-size', '2000']).journalSize).toBe(2000);
    expect(parseFlags(['--latency', '200']).latency).toBe(200);
    expect(parseFlags(['--upstream', 'https://staging.example.org/ext-api/v1/', '--upstream-errors', '--profile', 'all'])).toMatchObject({
      upstream: 'https://staging.example.org/ext-api/v1',
      upstreamErrors: true,
      profile: 'all',
    });
    expect(parseFlags(['--latency', '100-400']).latency).toEqual([100, 400]);
    expect(parseFlags(['--allowed-host', 'App.Example.Test', '--allowed-host', '.dev.test', '--allowed-host', 'all']).allowedHosts).toEqual(
      ['app.example.test', '.dev.test', 'all'],
    );
  });
  it('takes readings: --reading (repeatable), --readings all, --readings random with an integer --seed', () => {
    expect(parseFlags(['--reading', 'newest-first', '--reading', 'extra-fields']).readings).toEqual(['newest-first', 'extra-fields']);
    expect(parseFlags(['--readings', 'all']).readings).toBe('all');
    expect(parseFlags(['--readings', 'random', '--seed', '42'])).toMatchObject({ readings: { random: 42 } });
    expect(parseFlags(['--readings', 'random', '--seed', '42']).seed).toBeUndefined();
    expect(parseFlags(['--seed', 'my-seed.json']).seed).toBe('my-seed.json');
    const refused: Array<[string[], RegExp]> = [
      [['--reading', 'no-such'], /unknown reading no-such; the mock plays: /],
      [['--reading', 'key-prefix-other'], /not observable through the API/],
      [['--reading', 'extraction-fast', '--reading', 'extraction-slow'], /cannot be played together/],
      [['--readings', 'some'], /--readings must be all or random/],
      [['--readings', 'random'], /--readings random needs --seed <n>/],
      [['--readings', 'random', '--seed', 'file.json'], /an integer that makes the draw repeatable; got "file.json"/],
      [['--readings', 'all', '--reading', 'newest-first'], /exclude each other/],
      [['--readings', 'all', '--static'], /do not go with --static or --upstream/],
      [['--reading', 'newest-first', '--upstream', 'https://staging.example.org/ext-api/v1'], /do not go with --static or --upstream/],
    ];
    for (const [argv, message] of refused) expect(() => parseFlags(argv), argv.join(' ')).toThrow(message);
  });

  it('refuses bad flags with a clear message', () => {
    for (const argv of [
      ['--port', 'x'],
      ['--port', '70000'],
      ['--time-scale', '0'],
      ['--time-scale', 'fast'],
      ['--rate-limit', '100'],
      ['--rate-limit', '0/60'],
      ['--static', '--engine-only'],
      ['--bogus'],
      ['stray'],
      ['--cors-origin', 'app.example.test'],
      ['--cors-origin', 'https://x.test/path'],
      ['--journal-size', '-1'],
      ['--journal-size', 'big'],
      ['--journal-size', '100001'],
      ['--journal-size', ''],
      ['--static', '--journal-size', '10'],
      ['--latency', 'slow'],
      ['--latency', '400-100'],
      ['--latency', '120001'],
      ['--latency', '-5'],
      ['--static', '--latency', '200'],
      ['--upstream', 'staging.example.org'],
      ['--upstream', 'ftp://staging.example.org/ext-api/v1'],
      ['--upstream', 'https://user:pw@staging.example.org/ext-api/v1'],
      ['--upstream', 'https://staging.example.org/ext-api/v1', '--engine-only'],
      ['--upstream', 'https://staging.example.org/ext-api/v1', '--state', 'x.jsonl'],
      ['--upstream', 'https://staging.example.org/ext-api/v1', '--profile', 'strictest'],
      ['--upstream-errors'],
      ['--profile', 'all'],
      ['--allowed-host', 'app.test:8080'],
      ['--allowed-host', 'http://app.test'],
      ['--allowed-host', ''],
    ])
      expect(() => parseFlags(argv), argv.join(' ')).toThrow(UsageError);
  });
});

function run(args: string[]): ChildProcess & { output: () => string } {
  let out = '';
  // node itself, with tsx as a loader: the tsx binary would run the mock in a grandchild that kill -9 does not reach.
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return Object.assign(child, { output: () => out });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function waitFor(child: ReturnType<typeof run>, re: RegExp, ms = 20_000): Promise<RegExpMatchArray> {
  const until = Date.now() + ms;
  for (;;) {
    const m = child.output().match(re);
    if (m) return m;
    if (Date.now() > until || child.exitCode !== null) throw new Error(`no ${re} in: ${child.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('binary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-state-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('plays --readings all: the banner and GET /__mock/readings name them', async () => {
    const c = run(['--engine-only', '--port', '0', '--readings', 'all']);
    children.push(c);
    const control = (await waitFor(c, /control\s+(http:\/\/\S+)/))[1]!;
    await waitFor(c, /readings\s+\S+/);
    expect(c.output()).toMatch(/readings\s+patient-nameless-accepted, .*newest-first/);
    const listed = (await (await fetch(`${control}/readings`)).json()) as {
      data: Array<{ id: string; active: boolean; plays: string; words: string[] }>;
    };
    expect(listed.data.find((r) => r.id === 'newest-first')).toMatchObject({ active: true, plays: 'engine' });
    expect(listed.data.find((r) => r.id === 'extraction-slow')?.active).toBe(false);
    expect(listed.data.find((r) => r.id === 'key-prefix-other')).toMatchObject({ active: false, plays: 'outside' });
    expect(listed.data.every((r) => r.words.length > 0)).toBe(true);
    c.kill('SIGKILL');
    await exitCode(c);
  });

  it('exits 2 on a bad flag, with the message', async () => {
    const c = run(['--rate-limit', 'lots']);
    children.push(c);
    expect(await exitCode(c)).toBe(2);
    expect(c.output()).toContain('--rate-limit must be');
  });

  it('prints the banner; --state keeps an acknowledged write through kill -9', async () => {
    const state = join(dir, 'state.jsonl');
    const first = run(['--engine-only', '--port', '0', '--state', state]);
    children.push(first);
    const url = (await waitFor(first, /API\s+(http:\/\/\S+)/))[1]!;
    const key = (await waitFor(first, /(crk_all_\w+)/))[1]!;
    expect(first.output()).toMatch(/control\s+http:\/\/127\.0\.0\.1:\d+\/__mock/);
    const dashboard = first.output().match(/dashboard\s+(http:\/\/127\.0\.0\.1:\d+\/__mock\/)\s/)![1]!;
    expect(first.output()).toMatch(/API docs\s+http:\/\/127\.0\.0\.1:\d+\/__mock\/docs/);
    expect((await fetch(dashboard)).headers.get('content-type')).toContain('text/html');
    expect(first.output()).toContain('engine-only');
    expect(first.output()).toMatch(/browsers\s+pages of localhost, 127\.0\.0\.1 and \[::1\] may read the API/);
    const created = await fetch(`${url}/patients`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Durable', external_id: 'durable-1' }),
    });
    expect(created.status).toBe(201);
    first.kill('SIGKILL');
    await exitCode(first);

    const third = run(['--engine-only', '--port', '0', '--state', state]);
    children.push(third);
    const url3 = (await waitFor(third, /API\s+(http:\/\/\S+)/))[1]!;
    const found = await fetch(`${url3}/patients?external_id=durable-1`, { headers: { 'x-api-key': key } });
    expect(found.status).toBe(200);
    expect((await found.json()).data[0].name).toBe('Durable');
    third.kill('SIGKILL');
    await exitCode(third);
  });

  it('exits 1 on a state file damaged in the middle, naming the line and the ways out', async () => {
    const state = join(dir, 'damaged.jsonl');
    const row = JSON.stringify({ c: 'patients', o: 'put', g: 'org-1', r: { id: '1', name: 'A' } });
    writeFileSync(state, `${row}\n{"c":"pat\n${row}\n`);
    const c = run(['--engine-only', '--port', '0', '--state', state]);
    children.push(c);
    expect(await exitCode(c)).toBe(1);
    expect(c.output()).toContain(`State file ${state} is damaged at line 2 (byte offset ${row.length + 1})`);
    expect(c.output()).toContain(`keep only what precedes line 2:  head -c ${row.length + 1} '${state}'`);
  });

  it('a DOCX bomb ends failed saying why while /__mock/health keeps answering, and the process stays up', async () => {
    const c = run(['--engine-only', '--port', '0', '--time-scale', '0.01']);
    children.push(c);
    const url = (await waitFor(c, /API\s+(http:\/\/\S+)/))[1]!;
    const control = (await waitFor(c, /control\s+(http:\/\/\S+)/))[1]!;
    const headers = { 'x-api-key': (await waitFor(c, /(crk_all_\w+)/))[1]! };
    const patient = (await (await fetch(`${url}/patients`, { headers })).json()).data[0].id;
    const form = new FormData();
    form.append('file', new Blob([makeDocxBomb(200) as Uint8Array<ArrayBuffer>]), 'bomb.docx');
    const up = await fetch(`${url}/patients/${patient}/documents`, {
      method: 'POST',
      headers,
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
    expect(up.status).toBe(201);
    const id = (await up.json()).data.id;
    let doc: { status: string; extraction_error: string | null } | undefined;
    for (const end = Date.now() + 20_000; Date.now() < end; ) {
      // A generous liveness bound, not a speed target: before the fix this hung, then the process died.
      expect((await fetch(`${control}/health`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
      const docs = (await (await fetch(`${url}/patients/${patient}/documents`, { headers })).json()).data as Array<{
        id: string;
        status: string;
        extraction_error: string | null;
      }>;
      doc = docs.find((d) => d.id === id);
      if (doc?.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(doc).toMatchObject({
      status: 'failed',
      extraction_error: "Text extraction refused: the document's XML inflates past 8 MiB (stopped in word/document.xml)",
    });
    expect(c.exitCode).toBe(null);
    c.kill('SIGKILL');
    await exitCode(c);
  });
});
