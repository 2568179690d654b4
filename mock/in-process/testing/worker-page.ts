// The setupWorker proof's page (bundled by mock/in-process/worker.test.ts): an in-process mock behind MSW's service
// worker, then the page's own plain fetch calls and the typed client with the global fetch, as an app's code makes
// them. ?base=<url> is the mock's baseUrl (the test's choice of origin: the page's own, or another one).
// Each step's outcome goes into the DOM, where the test reads it. The PDF comes from the test (data-pdf).
import { http, HttpResponse } from 'msw';
import { setupWorker } from 'msw/browser';
import { createClinicalRecordsClient, ExternalIdConflictError } from '../../../client/index.ts';
import { clinicalRecordsHandlers } from '../../msw.ts';
import { createMock } from '../browser.ts';
import { show, type Step } from './steps-dom.ts';

const HOOKS = 'http://127.0.0.1:9/hooks';

const rateHeaders = (r: Response) => ({
  limit: r.headers.get('x-ratelimit-limit'),
  remaining: r.headers.get('x-ratelimit-remaining'),
  reset: r.headers.get('x-ratelimit-reset') !== null,
});

async function scenario(pdf: Uint8Array<ArrayBuffer>, steps: Step[]): Promise<void> {
  const baseUrl = new URLSearchParams(location.search).get('base') ?? undefined;
  const mock = await createMock({ baseUrl, timeScale: 0.001, allowPrivateWebhooks: true });
  const hooks: string[] = [];
  const worker = setupWorker(
    ...clinicalRecordsHandlers(mock),
    // The page's own receiver: deliveries go out through the page's fetch, so the worker hands them back here.
    http.post(HOOKS, async ({ request }) => (hooks.push(await request.text()), new HttpResponse(null, { status: 204 }))),
  );
  await worker.start({ quiet: false, serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'error' });
  steps.push({ step: 'base', outcome: { baseUrl: mock.baseUrl, sameOrigin: new URL(mock.baseUrl).origin === location.origin } });

  const health = await fetch(`${mock.controlUrl}/health`);
  steps.push({ step: 'health', outcome: { http: health.status, ...((await health.json()) as object) } });
  steps.push({ step: 'no key', outcome: { status: (await fetch(`${mock.baseUrl}/patients`)).status } });

  const key = mock.keys.find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
  const body = JSON.stringify({ first_name: 'Wendy', last_name: 'Worker', external_id: 'worker-1' });
  const post = () =>
    fetch(`${mock.baseUrl}/patients`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
  const created = await post();
  const patient = ((await created.json()) as { data: { id: string; name: string } }).data;
  steps.push({
    step: 'create',
    outcome: {
      status: created.status,
      id: patient.id,
      name: patient.name,
      rate: rateHeaders(created),
      cors: created.headers.get('access-control-allow-origin'),
    },
  });
  const dup = await post();
  steps.push({
    step: 'duplicate',
    outcome: { status: dup.status, existing: ((await dup.json()) as { existing: { id: string } }).existing.id },
  });

  // The typed client with no fetch of its own: the global fetch, which the worker answers.
  const api = createClinicalRecordsClient({ baseUrl: mock.baseUrl, apiKey: key });
  const conflict = await api.create('/patients', { first_name: 'W', last_name: 'Again', external_id: 'worker-1' }).catch((e: unknown) => e);
  steps.push({
    step: 'client duplicate',
    outcome: conflict instanceof ExternalIdConflictError ? { status: conflict.status, existing: conflict.existing.id } : String(conflict),
  });
  const { data: page, response } = await api.GET('/patients', { params: { query: { limit: 5 } } });
  steps.push({ step: 'list', outcome: { status: response.status, items: page?.data.length, rate: api.rateLimit ?? null } });

  // A multipart body through the worker (the page serializes it, MSW rebuilds it), read back as extracted text.
  await api.uploadDocument(patient.id, { file: new Blob([pdf], { type: 'application/pdf' }), filename: 'r.pdf', externalId: 'w-doc' });
  const done = await api.waitForDocument(patient.id, { externalId: 'w-doc' }, { timeoutMs: 60_000, intervalMs: 20 });
  steps.push({ step: 'extraction', outcome: { status: done.status, extracted_text_length: done.extracted_text_length } });

  // The control API with a JSON body: a fault armed by the page, seen by the next request with its Retry-After.
  const armed = await fetch(`${mock.controlUrl}/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'rate-limited', count: 1 }),
  });
  const limited = await fetch(`${mock.baseUrl}/patients`, { headers: { 'x-api-key': key } });
  steps.push({ step: 'fault', outcome: { armed: armed.status, status: limited.status, retryAfter: limited.headers.get('retry-after') } });

  // A drop: MSW answers a network error, so the page's fetch rejects as on a real network (never a 200).
  await fetch(`${mock.controlUrl}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'drop', path: '/providers' }) });
  const dropped = await fetch(`${mock.baseUrl}/providers`, { headers: { 'x-api-key': key } }).then(
    (r) => `status ${r.status}`,
    (e: unknown) => String(e),
  );
  steps.push({ step: 'drop', outcome: { seen: dropped } });

  // A webhook: registered through the control API, delivered by the engine through the page's fetch.
  const hook = { name: 'page', url: HOOKS, event: 'NOTE_REGENERATED', format: 'JSON', headers: {} };
  const registered = await fetch(`${mock.controlUrl}/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(hook),
  });
  const sessions = (await (await fetch(`${mock.controlUrl}/sessions`)).json()) as {
    data: Array<{ id: string; has_note: boolean; ready: boolean }>;
  };
  await api.regenerateNote(sessions.data.find((s) => s.has_note && s.ready)!.id, {});
  // Bounded at 30 s (it ends at the first delivery): 5 s was once too short beside other browser tests under load.
  for (let i = 0; i < 3000 && hooks.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  const named = hooks[0]?.includes('NOTE_REGENERATED') ?? false;
  steps.push({ step: 'webhook', outcome: { registered: registered.status, deliveries: hooks.length, named } });

  worker.stop();
  await mock.close();
}

const pdf = Uint8Array.from(atob(document.body.dataset.pdf!), (c) => c.charCodeAt(0));
const steps: Step[] = [];
scenario(pdf, steps).then(
  () => show(steps),
  (e: unknown) => show(steps, e),
);
