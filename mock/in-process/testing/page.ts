// The browser proof's page (bundled by mock/in-process/browser.test.ts with esbuild for the browser): an in-process
// mock and the typed client, run through create, duplicate 409, list, upload, wait for extraction and regenerate;
// each step's outcome is written into the DOM, where the test reads it. The PDF comes from the test (data-pdf).
import { createClinicalRecordsClient, ExternalIdConflictError } from '../../../client/index.ts';
import { createMock } from '../browser.ts';
import { show, type Step } from './steps-dom.ts';

async function scenario(pdf: Uint8Array<ArrayBuffer>): Promise<Step[]> {
  const steps: Step[] = [];
  const mock = await createMock({ timeScale: 0.001 });
  const apiKey = mock.keys.find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
  const api = createClinicalRecordsClient({ baseUrl: mock.baseUrl, apiKey, fetch: mock.fetch });
  const body = { first_name: 'Paige', last_name: 'Browser', external_id: 'page-1' };
  const { data: created } = await api.create('/patients', body);
  steps.push({ step: 'create', outcome: { id: created.id, name: created.name } });
  const dup = await api.create('/patients', body).catch((e: unknown) => e);
  steps.push({
    step: 'duplicate',
    outcome: dup instanceof ExternalIdConflictError ? { status: dup.status, existing: dup.existing.id } : String(dup),
  });
  const { data: page, response } = await api.GET('/patients', { params: { query: { limit: 5 } } });
  steps.push({
    step: 'list',
    outcome: {
      status: response.status,
      items: page?.data.length,
      total_pages: page?.meta.total_pages,
      remaining: api.rateLimit?.remaining,
    },
  });
  const up = await api.uploadDocument(created.id, {
    file: new Blob([pdf], { type: 'application/pdf' }),
    filename: 'referral.pdf',
    externalId: 'page-doc-1',
  });
  steps.push({ step: 'upload', outcome: { status: up.data.status, file_type: up.data.file_type } });
  const done = await api.waitForDocument(created.id, { externalId: 'page-doc-1' }, { timeoutMs: 300_000, intervalMs: 20 });
  steps.push({
    step: 'extraction',
    outcome: { status: done.status, extracted_text_length: done.extracted_text_length, error: done.extraction_error },
  });
  const sessions = (await (await mock.fetch(`${mock.controlUrl}/sessions`)).json()) as {
    data: Array<{ id: string; has_note: boolean; ready: boolean }>;
  };
  const regenerated = await api.regenerateNote(sessions.data.find((s) => s.has_note && s.ready)!.id, {});
  steps.push({ step: 'regenerate', outcome: { status: regenerated.accepted.data.status } });
  await mock.close();
  return steps;
}

const pdf = Uint8Array.from(atob(document.body.dataset.pdf!), (c) => c.charCodeAt(0));
scenario(pdf).then(
  (steps) => show(steps),
  (e: unknown) => show([], e),
);
