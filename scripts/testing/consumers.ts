// What a consumer of the packages writes, for the pack tests: every documented import, used as the docs show, printing
// what it got as JSON; misuse the types must refuse; and the CommonJS routes docs/client.md documents.

/** A loopback server answering as the service would, for the client to call. */
const SERVER = `
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
`;

/** The bundled spec, as each module setting can import it (node16 has no import attributes: docs/client.md). */
export const SPEC_IMPORT = {
  attributes: "import spec from 'clinical-records-api/spec' with { type: 'json' };",
  require:
    "import { createRequire } from 'node:module';\nconst spec = createRequire(import.meta.url)('clinical-records-api/spec') as typeof import('clinical-records-api/spec');",
};

/** clinical-records-api: types, client, webhooks, spec. */
export const apiConsumer = (specImport: string) => `
import { createClinicalRecordsClient, UploadRejectedError, type PatientListItem } from 'clinical-records-api/client';
import { parseWebhook, webhookDedupeKey } from 'clinical-records-api/webhooks';
import type { paths, Patient, WebhookEvent } from 'clinical-records-api/types';
${specImport}
${SERVER}
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
  const xml = parseWebhook({
    body: '<?xml version="1.0" encoding="UTF-8"?><webhook xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><event>DOCUMENT_STATUS_CHANGED</event><document_id>2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f</document_id><patient_id>' + ID + '</patient_id><external_id xsi:nil="true"/><status>completed</status><error xsi:nil="true"/><document_url>https://h/ext-api/v1/patients/' + ID + '/documents</document_url><timestamp>2026-11-02T16:05:12.345Z</timestamp></webhook>',
    contentType: 'application/xml',
  });
  const ops: keyof paths = '/patients';
  console.log(JSON.stringify({ id: patient?.id, ids, remaining: client.rateLimit?.remaining, rejected, key: webhookDedupeKey(event), xml: webhookDedupeKey(xml), version: spec.info.version, ops, node: process.versions.node.split('.')[0] }));
} finally {
  server.close();
}
`;

export const API_RESULT = {
  id: '7281928374650192837',
  ids: ['72819283746501928371', '72819283746501928372'],
  remaining: 41,
  rejected: true,
  key: 'DOCUMENT_STATUS_CHANGED:2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f:2026-11-02T16:05:12.345Z',
  xml: 'DOCUMENT_STATUS_CHANGED:2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f:2026-11-02T16:05:12.345Z',
  version: '1.0.0',
  ops: '/patients',
};

/** Misuse the client's types refuse: each line must be an error, or tsc reports the unused directive. */
export const MISUSE = `
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

/** CommonJS, any setting: import() of the ESM-only packages. */
export const CJS_IMPORT = `
async function main() {
  const { createClinicalRecordsClient } = await import('clinical-records-api/client');
  const { webhookDedupeKey } = await import('clinical-records-api/webhooks');
  console.log(JSON.stringify({ cjs: 'import()', client: typeof createClinicalRecordsClient, webhooks: typeof webhookDedupeKey }));
}
void main();
`;

/** CommonJS with require(): Node 20.19+ / 22.12+ load ES modules so, and TypeScript types it under module nodenext. */
export const CJS_REQUIRE = `
import client = require('clinical-records-api/client');
console.log(JSON.stringify({ cjs: 'require', client: typeof client.createClinicalRecordsClient }));
`;

/** clinical-records-mock in process: createMock, a client on mock.fetch, and MSW's setupServer with its handlers. */
export const MOCK_CONSUMER = `
import { createClinicalRecordsClient, ExternalIdConflictError } from 'clinical-records-api/client';
import type { Patient } from 'clinical-records-api/types';
import { createMock } from 'clinical-records-mock';
import { clinicalRecordsHandlers } from 'clinical-records-mock/msw';
import { setupServer } from 'msw/node';

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
const result = { conflict, status: viaMsw.status, name: ((await viaMsw.json()) as { data: Patient }).data.name, keyless: keyless.status, health: health.status };
msw.close();
await mock.close();
console.log(JSON.stringify(result));
`;

export const MOCK_RESULT = { conflict: true, status: 200, name: 'Pack Consumer', keyless: 401, health: 200 };

/** A page's imports, for a browser bundler: the client and the mock resolve to their browser entries. */
export const PAGE = `import { createClinicalRecordsClient } from 'clinical-records-api/client';
import { createMock } from 'clinical-records-mock';
window.api = [createClinicalRecordsClient, createMock];
`;

/** A consumer's tsconfig.json for one module setting. */
export function tsconfig(module: string, moduleResolution: string, include: string[], outDir?: string): string {
  return JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module,
      moduleResolution,
      strict: true,
      ...(outDir ? { outDir } : { noEmit: true }),
      lib: ['ES2023', 'DOM'],
      types: ['node'],
      skipLibCheck: false,
    },
    include,
  });
}
