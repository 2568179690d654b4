// MSW in Node: setupServer with clinicalRecordsHandlers(mock) answers plain fetch calls (and the typed client with no
// fetch of its own) with the engine's answers; webhook deliveries go out through the global fetch, so the test's own
// MSW handler receives them; a URL outside the mock is left to MSW's unhandled-request policy.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createClinicalRecordsClient } from '../client/node.ts';
import { parseWebhook } from '../client/webhooks.ts';
import { createMock } from './in-process/node.ts';
import { clinicalRecordsHandlers } from './msw.ts';

const mock = await createMock({ timeScale: 0.001, allowPrivateWebhooks: true });
const received: Array<{ body: string; contentType: string | null }> = [];
const server = setupServer(
  ...clinicalRecordsHandlers(mock),
  http.post('http://127.0.0.1:9/hooks', async ({ request }) => {
    received.push({ body: await request.text(), contentType: request.headers.get('content-type') });
    return new HttpResponse(null, { status: 204 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(async () => {
  server.close();
  await mock.close();
});

const key = mock.keys.find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;

it('answers plain fetch calls with the engine: auth, JSON bodies, 409, the control API', async () => {
  expect((await fetch(`${mock.baseUrl}/patients`)).status).toBe(401);
  const post = () =>
    fetch(`${mock.baseUrl}/patients`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Msw', last_name: 'Test', external_id: 'msw-1' }),
    });
  const created = await post();
  expect(created.status).toBe(201);
  expect(created.headers.get('x-ratelimit-limit')).toBe('1200');
  const dup = await post();
  expect(dup.status).toBe(409);
  expect(((await dup.json()) as { existing: { id: string } }).existing.id).toBe(
    ((await created.json()) as { data: { id: string } }).data.id,
  );
  expect(await (await fetch(`${mock.controlUrl}/health`)).json()).toEqual({ status: 'ok', mode: 'in-process', time_scale: 0.001 });
  await expect(fetch('http://127.0.0.1:4010/elsewhere')).rejects.toThrow();
});

it('serves the typed client with the global fetch, and delivers webhooks to a handler of the test', async () => {
  const api = createClinicalRecordsClient({ baseUrl: mock.baseUrl, apiKey: key });
  const hook = { name: 'msw', url: 'http://127.0.0.1:9/hooks', event: 'NOTE_REGENERATED', format: 'XML', headers: {} };
  const registered = await fetch(`${mock.controlUrl}/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(hook),
  });
  expect(registered.status).toBe(201);
  const sessions = (await (await fetch(`${mock.controlUrl}/sessions`)).json()) as {
    data: Array<{ id: string; has_note: boolean; ready: boolean }>;
  };
  await api.regenerateNote(sessions.data.find((s) => s.has_note && s.ready)!.id, {});
  for (let i = 0; i < 500 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(received).toHaveLength(1);
  expect(parseWebhook(received[0]!).event).toBe('NOTE_REGENERATED');
});

it('refuses anything but a mock', () => {
  expect(() => clinicalRecordsHandlers({} as never)).toThrow(/takes the mock createMock\(\) returned/);
});
