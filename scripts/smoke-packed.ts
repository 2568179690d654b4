// A smoke run of the three packed packages on the Node running it (CI: the machine's Node 20, while the whole suite
// runs on Node 24): `npm run pack`, the tarballs installed into a temporary project, each command's --help, then one
// real call of each: the installed mock started on a free port, the light client listing its providers, and the
// installed suite's providers checks against it. Exit 0 when every step did what it should; 1 with the step otherwise.
//   npx tsx scripts/smoke-packed.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { install, packAll, project, sh, shAnyway } from './testing/packed.ts';

const node = process.execPath;
const step = (s: string) => process.stdout.write(`smoke (node ${process.versions.node}): ${s}\n`);

/** The light client, as a consumer writes it: the providers of the mock, with the mock's `*` key. */
const CLIENT_CALL = `
import { createClinicalRecordsClient } from 'clinical-records-api/client';
const [api, control] = process.argv.slice(2);
const keys = await (await fetch(control + '/keys')).json();
const key = (keys.data ?? keys).find((k) => k.scopes?.includes('*') && k.state === 'active');
const client = createClinicalRecordsClient({ baseUrl: api, apiKey: key.key });
const { data, response } = await client.GET('/providers');
console.log(JSON.stringify({ status: response.status, providers: data?.data?.length ?? 0 }));
`;

/** Starts the installed mock on a free port; its API and control URLs from the banner (30 s at most). */
async function startMock(app: string) {
  const proc = spawn(node, [join(app, 'node_modules/clinical-records-mock/dist/mock/cli.js'), '--port', '0', '--time-scale', '0.01'], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const api = out.match(/API\s+(http:\/\/127\.0\.0\.1:\d+\S*)/)?.[1];
    const control = out.match(/control\s+(http:\/\/127\.0\.0\.1:\d+\S*)/)?.[1];
    if (api && control) return { proc, api, control };
    if (proc.exitCode !== null) break;
  }
  proc.kill('SIGKILL');
  throw new Error(`the installed mock did not start within 30 s:\n${out}`);
}

async function smoke(work: string): Promise<void> {
  step('npm run pack');
  const tarballs = await packAll(join(work, 'tarballs'));
  if (Object.keys(tarballs).length !== 3) throw new Error(`npm run pack wrote ${Object.keys(tarballs).join(', ') || 'nothing'}`);
  const app = project(join(work, 'app'));
  step('npm install the three tarballs');
  await install(app, Object.values(tarballs));
  for (const name of ['clinical-records-mock', 'clinical-records-conformance']) {
    const { stdout } = await sh(join(app, 'node_modules/.bin', name), ['--help'], app, 60_000);
    if (!stdout.startsWith(`Usage: ${name}`)) throw new Error(`${name} --help printed:\n${stdout}`);
    step(`${name} --help: usage printed`);
  }
  const mock = await startMock(app);
  try {
    const health = (await fetch(`${mock.control}/health`, { signal: AbortSignal.timeout(10_000) })).status;
    if (health !== 200) throw new Error(`the installed mock's health answered ${health}`);
    step(`clinical-records-mock: started, health ${health}`);
    writeFileSync(join(app, 'client-call.mjs'), CLIENT_CALL);
    const called = JSON.parse((await sh(node, ['client-call.mjs', mock.api, mock.control], app, 30_000)).stdout.trim()) as {
      status: number;
      providers: number;
    };
    if (called.status !== 200 || called.providers < 1) throw new Error(`the client's GET /providers: ${JSON.stringify(called)}`);
    step(`clinical-records-api client: GET /providers ${called.status}, ${called.providers} providers`);
    const cli = join(app, 'node_modules/clinical-records-conformance/dist/conformance/cli.js');
    const run = await shAnyway(node, [cli, '--url', mock.api, '--mock', '--only', 'PRV', '--out', join(work, 'report')], app, 120_000);
    const summary =
      run.stdout
        .split('\n')
        .filter((l) => /passed/.test(l))
        .pop() ?? `${run.stdout}${run.stderr}`;
    if (run.code !== 0) throw new Error(`clinical-records-conformance --only PRV exited ${run.code}: ${summary}`);
    step(`clinical-records-conformance --only PRV: exit 0 (${summary.trim()})`);
  } finally {
    mock.proc.kill('SIGKILL');
  }
}

const work = mkdtempSync(join(tmpdir(), 'crc-smoke-'));
smoke(work).then(
  () => {
    rmSync(work, { recursive: true, force: true });
    step('passed');
  },
  (err: Error) => {
    rmSync(work, { recursive: true, force: true });
    process.stderr.write(`smoke (node ${process.versions.node}): FAILED: ${err.message}\n`);
    process.exitCode = 1;
  },
);
