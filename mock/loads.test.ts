// A mode loads only what it uses (issue 42, item 9): the command, engine-only, answers API requests without loading
// the upload reader (busboy), the extraction worker and its document readers (mammoth, unpdf), the XML parser, the
// webhook address checks (ipaddr.js), the dashboard page, Prism or the judge; each is loaded when first used. Read
// from the modules the process loaded (testing/record-loads.ts), not from the source.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makePdf } from './features/documents/sample-files.ts';

const CLI = new URL('./cli.ts', import.meta.url).pathname;
const RECORDER = new URL('./testing/record-loads.ts', import.meta.url).pathname;

/** What engine-only must not load for API requests, by a part of the module's URL. */
const UNUSED = {
  busboy: '/node_modules/busboy/',
  mammoth: '/node_modules/mammoth/',
  unpdf: '/node_modules/unpdf/',
  'fast-xml-parser': '/node_modules/fast-xml-parser/',
  'ipaddr.js': '/node_modules/ipaddr.js/',
  Prism: '/node_modules/@stoplight/',
  'the judge': '/judge/',
  'the conformance suite': '/conformance/',
  'the upload reader': '/mock/features/documents/upload.ts',
  'the extraction worker': '/mock/features/documents/off-thread.ts',
  'the dashboard page': '/mock/features/control/dashboard/page.ts',
};

describe('engine-only loads what it uses', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-loads-'));
  const file = join(dir, 'loaded.txt');
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  const loaded = () => readFileSync(file, 'utf8').split('\n');
  const has = (part: string) => loaded().some((url) => url.includes(part));

  it('answers the API without the modules of uploads, XML, webhooks, the dashboard, Prism or the judge; loads each on first use', async () => {
    let out = '';
    child = spawn(process.execPath, ['--import', 'tsx', '--import', RECORDER, CLI, '--engine-only', '--port', '0'], {
      env: { ...process.env, LOADED_MODULES_FILE: file },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const until = Date.now() + 60_000;
    while (!/try: curl -H 'X-API-Key: (\S+)' (\S+)\/patients/.test(out)) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`no banner in: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const [, key, api] = /try: curl -H 'X-API-Key: (\S+)' (\S+)\/patients/.exec(out)!;
    const control = api!.replace(/\/ext-api\/v1$/, '/__mock');
    const headers = { 'x-api-key': key! };
    const patients = (await (await fetch(`${api}/patients`, { headers })).json()) as { data: Array<{ id: string }> };
    expect((await fetch(`${api}/providers`, { headers })).status).toBe(200);
    expect(has('/node_modules/hono/')).toBe(true); // the recorder sees packages
    expect(Object.entries(UNUSED).filter(([, part]) => has(part))).toEqual([]);

    expect((await fetch(`${control}/`)).status).toBe(200);
    expect(has(UNUSED['the dashboard page'])).toBe(true);
    const form = new FormData();
    form.append('file', new Blob([makePdf(['Referral letter']) as Uint8Array<ArrayBuffer>]), 'referral.pdf');
    const upload = await fetch(`${api}/patients/${patients.data[0]!.id}/documents`, { method: 'POST', headers, body: form });
    expect(upload.status).toBe(201);
    expect([has(UNUSED.busboy), has(UNUSED['the upload reader'])]).toEqual([true, true]);
  }, 120_000);
});
