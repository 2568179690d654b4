// The package as another repository gets it: `npm pack` (which runs `prepare`, the build), attw on the tarball,
// then an install into a temp project whose consumer imports every entry point, type-checks (misuse included, as a
// ts-expect-error directive) and runs against a loopback server, an in-process mock (createMock) and MSW's
// setupServer with its handlers; the client then bundles for the browser with esbuild. The install prefers the npm cache but may ask the registry:
// `npm ci` caches tarballs, not the package documents an install by name needs, so --offline fails on a fresh machine.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'crc-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sh = (cmd: string, args: string[], cwd: string, timeout = 90_000) =>
  exec(cmd, args, { cwd, timeout, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } });

const CONSUMER = `
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClinicalRecordsClient, ExternalIdConflictError, UploadRejectedError, type PatientListItem } from 'clinical-records-api/client';
import { createMock } from 'clinical-records-api/mock';
import { clinicalRecordsHandlers } from 'clinical-records-api/msw';
import { setupServer } from 'msw/node';
import { parseWebhook, webhookDedupeKey } from 'clinical-records-api/webhooks';
import type { paths, Patient, WebhookEvent } from 'clinical-records-api/types';
import spec from 'clinical-records-api/spec' with { type: 'json' };

const ID = '7281928374650192837';
const server = createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('X-RateLimit-Remaining', '41');
  if (req.headers['x-api-key'] !== 'k') return res.writeHead(401).end(JSON.stringify({ error: 'no key' }));
  if (url.pathname.endsWith('/patients')) {
    const page = Number(url.searchParams.get('page'));
    return res.end(JSON.stringify({ data: [{ id: ID + page, name: 'P', created_at: '2026-01-01T00:00:00Z', provider_id: 'p' }], meta: { page, limit: 1, total_pages: 2 } }));
  }
  res.end(JSON.stringify({ data: { id: url.pathname.split('/').pop(), name: 'P', created_at: '2026-01-01T00:00:00Z', provider_id: 'p', consent: true } }));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const client = createClinicalRecordsClient({ baseUrl: \`http://127.0.0.1:\${(server.address() as AddressInfo).port}/ext-api/v1\`, apiKey: 'k' });
try {
  const { data } = await client.GET('/patients/{patientId}', { params: { path: { patientId: ID } } });
  const patient: Patient | undefined = data?.data;
  const ids: string[] = [];
  for await (const p of client.paginate('/patients')) ids.push((p satisfies PatientListItem).id);
  const rejected = await client.uploadDocument(ID, { file: new Uint8Array([1, 2, 3]), filename: 'x.pdf' }).catch((e) => e instanceof UploadRejectedError);
  const event: WebhookEvent = parseWebhook({
    body: 'event=DOCUMENT_STATUS_CHANGED&document_id=2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f&patient_id=' + ID + '&external_id=&status=completed&error=&document_url=https%3A%2F%2Fh%2Fext-api%2Fv1%2Fpatients%2F' + ID + '%2Fdocuments&timestamp=2026-11-02T16%3A05%3A12.345Z',
    contentType: 'application/x-www-form-urlencoded',
  });
  const ops: keyof paths = '/patients';
  server.close();

  const mock = await createMock();
  const apiKey = mock.keys.find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
  const inProcess = createClinicalRecordsClient({ baseUrl: mock.baseUrl, apiKey, fetch: mock.fetch });
  const created = await inProcess.create('/patients', { first_name: 'Pack', last_name: 'Consumer', external_id: 'pack-1' });
  const conflict = await inProcess.create('/patients', { first_name: 'Pack', last_name: 'Again', external_id: 'pack-1' })
    .catch((e: unknown) => e instanceof ExternalIdConflictError && e.existing.id === created.data.id);
  const msw = setupServer(...clinicalRecordsHandlers(mock));
  msw.listen({ onUnhandledRequest: 'error' });
  const viaMsw = await fetch(\`\${mock.baseUrl}/patients/\${created.data.id}\`, { headers: { 'x-api-key': apiKey } });
  const keyless = await fetch(\`\${mock.baseUrl}/patients\`);
  const health = await fetch(\`\${mock.controlUrl}/health\`);
  const mswResult = { status: viaMsw.status, name: ((await viaMsw.json()) as { data: Patient }).data.name, keyless: keyless.status, health: health.status };
  msw.close();
  await mock.close();
  console.log(JSON.stringify({ id: patient?.id, ids, remaining: client.rateLimit?.remaining, rejected, key: webhookDedupeKey(event), version: spec.info.version, ops, conflict, msw: mswResult }));
} finally {
  server.close();
}
`;

const MISUSE = `
import { createClinicalRecordsClient } from 'clinical-records-api/client';
const client = createClinicalRecordsClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' });
export async function misuse() {
  // @ts-expect-error wrong path
  await client.GET('/patient/{id}');
  // @ts-expect-error numeric patient id
  await client.GET('/patients/{patientId}', { params: { path: { patientId: 1 } } });
  // @ts-expect-error wrong body field
  await client.PATCH('/patients/{patientId}', { params: { path: { patientId: '1' } }, body: { nickname: 'x' } });
  // @ts-expect-error missing required field
  await client.POST('/appointments', { body: { patient_id: '1', start_at: '2026-01-01T00:00:00Z' } });
}
`;

it('packs, passes attw, installs and serves a consumer of every entry point', async () => {
  const started = Date.now();
  await sh('npm', ['pack', '--pack-destination', work], ROOT, 120_000);
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  const packed = Date.now();

  const attw = await sh(join(ROOT, 'node_modules/.bin/attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii'], work).catch(
    (e: { stdout: string }) => ({ stdout: e.stdout, failed: true }),
  );
  expect('failed' in attw ? attw.stdout : '').toBe('');

  const app = join(work, 'consumer');
  await sh('mkdir', ['-p', app], work);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        outDir: 'out',
        lib: ['ES2023', 'DOM'],
        types: ['node'],
        skipLibCheck: false,
      },
      include: ['*.ts'],
    }),
  );
  writeFileSync(join(app, 'consumer.ts'), CONSUMER);
  writeFileSync(join(app, 'misuse.ts'), MISUSE);
  await sh(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, '@types/node@20.19.43', 'typescript@5.9.3', 'msw@2.15.0'],
    app,
    120_000,
  );
  const installed = Date.now();

  const tsc = await sh(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', app], app).catch((e: { stdout: string }) => ({
    stdout: e.stdout,
    failed: true,
  }));
  expect('failed' in tsc ? tsc.stdout : '').toBe('');
  const { stdout } = await sh(process.execPath, [join(app, 'out/consumer.js')], app, 30_000);
  expect(JSON.parse(stdout)).toEqual({
    id: '7281928374650192837',
    ids: ['72819283746501928371', '72819283746501928372'],
    remaining: 41,
    rejected: true,
    key: 'DOCUMENT_STATUS_CHANGED:2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f:2026-11-02T16:05:12.345Z',
    version: '1.0.0',
    ops: '/patients',
    conflict: true,
    msw: { status: 200, name: 'Pack Consumer', keyless: 401, health: 200 },
  });

  // A frontend app's bundler: the client and the mock resolve to their browser entries (no node: module, no shim).
  writeFileSync(
    join(app, 'page.js'),
    "import { createClinicalRecordsClient } from 'clinical-records-api/client';\nimport { createMock } from 'clinical-records-api/mock';\nwindow.api = [createClinicalRecordsClient, createMock];\n",
  );
  const bundled = await sh(
    join(ROOT, 'node_modules/.bin/esbuild'),
    ['page.js', '--bundle', '--platform=browser', '--format=esm', '--metafile=meta.json', '--outfile=out/page.js'],
    app,
  );
  expect(bundled.stderr).not.toMatch(/error/i);
  const inputs = Object.keys((JSON.parse(readFileSync(join(app, 'meta.json'), 'utf8')) as { inputs: object }).inputs);
  expect(inputs.filter((f) => f.startsWith('node:'))).toEqual([]);
  expect(inputs).toContain('node_modules/clinical-records-api/dist/client/index.js');
  expect(inputs).toContain('node_modules/clinical-records-api/dist/mock/in-process/browser.js');
  expect(inputs).toContain('node_modules/clinical-records-api/dist/spec/runtime/bundle-source.browser.js');
  console.log(`pack ${packed - started} ms, install ${installed - packed} ms, check+run ${Date.now() - installed} ms`);
}, 240_000);
