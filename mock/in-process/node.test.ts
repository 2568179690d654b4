// createMock() in Node: the typed client through mock.fetch gets every rule of the CLI mock (keys and scopes, 409 with
// existing, pages, rate limits with headers, documents and their extraction, regeneration, faults through the
// control API), two mocks share nothing, webhooks go out through a fetch, and `strict` turns a contract violation
// into a 500.
import { afterEach, describe, expect, it } from 'vitest';
import { createClinicalRecordsClient, ExternalIdConflictError } from '../../client/node.ts';
import { parseWebhook } from '../../client/webhooks.ts';
import { makePdf } from '../features/documents/sample-files.ts';
import { createResponseCheck } from '../platform/response-check.ts';
import { specIndex } from '../platform/spec.ts';
import { strictCheck } from './mock.ts';
import { createMock, DEFAULT_BASE_URL, type InProcessMock } from './node.ts';

const mocks: InProcessMock[] = [];
afterEach(async () => {
  for (const m of mocks.splice(0)) await m.close();
});
const start = async (...args: Parameters<typeof createMock>) => {
  const m = await createMock(...args);
  mocks.push(m);
  return m;
};
const keyWith = (m: InProcessMock, scopes: string[]) => m.keys.find((k) => k.state === 'active' && k.scopes.join() === scopes.join())!.key;
const clientOf = (m: InProcessMock, apiKey = keyWith(m, ['*'])) =>
  createClinicalRecordsClient({ baseUrl: m.baseUrl, apiKey, fetch: m.fetch });
const control = (m: InProcessMock, path: string, init: RequestInit = {}) =>
  m.fetch(`${m.controlUrl}${path}`, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });

describe('createMock in Node', () => {
  it('answers the typed client with the CLI mock defaults: create, 409 with existing, lookup, pages, rate-limit headers', async () => {
    const mock = await start();
    expect(mock.baseUrl).toBe(DEFAULT_BASE_URL);
    expect(mock.controlUrl).toBe('http://127.0.0.1:4010/__mock');
    const api = clientOf(mock);
    const { data: created } = await api.create('/patients', { first_name: 'Ada', last_name: 'Lovelace', external_id: 'ehr-ada' });
    const conflict = await api
      .create('/patients', { first_name: 'Ada', last_name: 'Again', external_id: 'ehr-ada' })
      .catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ExternalIdConflictError);
    expect((conflict as ExternalIdConflictError).existing.id).toBe(created.id);
    expect((await api.findByExternalId('/patients', 'ehr-ada'))?.id).toBe(created.id);
    const { data } = await api.GET('/patients', { params: { query: { limit: 2, page: 1 } } });
    expect(data?.data).toHaveLength(2);
    expect(data?.meta.total_pages).toBeGreaterThan(1);
    expect(api.rateLimit).toMatchObject({ limit: 1200 });
    const keys = (await (await control(mock, '/keys')).json()) as { data: unknown[] };
    expect(keys.data).toEqual(mock.keys);
  });

  it('keeps keys and scopes: no key 401, a read key cannot write (403)', async () => {
    const mock = await start();
    expect((await mock.fetch(`${mock.baseUrl}/patients`)).status).toBe(401);
    const reader = clientOf(mock, keyWith(mock, ['patients:read']));
    const { response } = await reader.POST('/patients', { body: { first_name: 'No', last_name: 'Scope' } });
    expect(response.status).toBe(403);
  });

  it('limits the rate with headers, takes faults through controlUrl, and reset() clears them', async () => {
    const mock = await start({ rateLimit: '2/60' });
    const key = keyWith(mock, ['*']);
    const get = () => mock.fetch(`${mock.baseUrl}/providers`, { headers: { 'x-api-key': key } });
    expect((await get()).headers.get('x-ratelimit-remaining')).toBe('1');
    await get();
    const limited = await get();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    await mock.reset();
    expect((await get()).status).toBe(200);
    expect(
      (
        await control(mock, '/faults', {
          method: 'POST',
          body: JSON.stringify({ kind: 'http', method: 'GET', path: '/providers', status: 503 }),
        })
      ).status,
    ).toBe(201);
    expect((await get()).status).toBe(503);
  });

  it('runs documents through extraction and regenerates a note on a scaled clock', async () => {
    const mock = await start({ timeScale: 0.001 });
    const api = clientOf(mock);
    const { data: patient } = await api.create('/patients', { first_name: 'Doc', last_name: 'Holder' });
    const up = await api.uploadDocument(patient.id, { file: makePdf(['Referral letter']), filename: 'referral.pdf', externalId: 'doc-1' });
    expect(up.data.status).toBe('pending');
    const done = await api.waitForDocument(patient.id, { externalId: 'doc-1' }, { timeoutMs: 10_000, intervalMs: 20 });
    expect(done).toMatchObject({ status: 'completed', extracted_text_length: 15 });
    const sessions = (await (await control(mock, '/sessions')).json()) as {
      data: Array<{ id: string; has_note: boolean; ready: boolean }>;
    };
    const session = sessions.data.find((s) => s.has_note && s.ready)!;
    const regenerated = await api.regenerateNote(session.id, {});
    expect(regenerated.accepted.data.status).toBe('queued');
  });

  it('two mocks share nothing: rows, faults and rate windows', async () => {
    const [a, b] = [await start({ rateLimit: '1/60' }), await start({ rateLimit: '1/60' })];
    await clientOf(a).create('/patients', { first_name: 'Only', last_name: 'InA', external_id: 'only-a' });
    expect(await clientOf(b).findByExternalId('/patients', 'only-a')).toBeUndefined();
    // a's window is spent; b's is not.
    expect((await a.fetch(`${a.baseUrl}/providers`, { headers: { 'x-api-key': keyWith(a, ['*']) } })).status).toBe(429);
    await control(a, '/faults', { method: 'POST', body: JSON.stringify({ kind: 'rate-limited' }) });
    expect((await b.fetch(`${b.baseUrl}/providers`, { headers: { 'x-api-key': keyWith(b, ['providers:read']) } })).status).toBe(200);
  });

  it('delivers webhooks through webhookFetch, by the same rules (a non-2xx is retried)', async () => {
    const seen: Request[] = [];
    const webhookFetch = async (input: Request | string | URL, init?: RequestInit) => {
      seen.push(new Request(input, init));
      return new Response(null, { status: seen.length === 1 ? 503 : 204 });
    };
    const mock = await start({ timeScale: 0.001, webhookFetch, allowPrivateWebhooks: true });
    const hook = {
      name: 't',
      url: 'http://127.0.0.1:9/hooks',
      event: 'NOTE_REGENERATED',
      format: 'JSON',
      headers: { 'X-Webhook-Secret': 's' },
    };
    expect((await control(mock, '/webhooks', { method: 'POST', body: JSON.stringify(hook) })).status).toBe(201);
    const refused = await control(mock, '/webhooks', {
      method: 'POST',
      body: JSON.stringify({ ...hook, url: 'http://169.254.169.254/x' }),
    });
    expect(refused.status).toBe(400);
    const sessions = (await (await control(mock, '/sessions')).json()) as {
      data: Array<{ id: string; has_note: boolean; ready: boolean }>;
    };
    await clientOf(mock).regenerateNote(sessions.data.find((s) => s.has_note && s.ready)!.id, {});
    for (let i = 0; i < 500 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(seen.map((r) => r.url)).toEqual(['http://127.0.0.1:9/hooks', 'http://127.0.0.1:9/hooks']);
    expect(seen[1]!.headers.get('x-webhook-secret')).toBe('s');
    const event = parseWebhook({ body: await seen[1]!.text(), contentType: seen[1]!.headers.get('content-type') });
    expect(event.event).toBe('NOTE_REGENERATED');
  });

  it('refuses what is not the mock: another origin, bad options, a closed mock', async () => {
    const mock = await start({ baseUrl: 'http://localhost:5173/ext-api/v1' });
    await expect(mock.fetch('http://127.0.0.1:4010/ext-api/v1/patients')).rejects.toThrow(
      /answers http:\/\/localhost:5173\/ext-api\/v1 and/,
    );
    for (const near of [
      'http://localhost:51730/ext-api/v1/patients',
      'http://localhost:5173@evil.test/ext-api/v1/patients',
      'http://localhost:5173/ext-api/v10',
    ])
      await expect(mock.fetch(near)).rejects.toThrow(TypeError);
    expect((await mock.fetch(`${mock.controlUrl}/health`)).status).toBe(200);
    await expect(createMock({ baseUrl: 'http://x/api' })).rejects.toThrow(/must end in \/ext-api\/v1/);
    await expect(createMock({ rateLimit: '0/0' })).rejects.toThrow(/rateLimit/);
    await expect(createMock({ seed: { organizations: [] } as never })).rejects.toThrow(/organizations/);
    await mock.close();
    await expect(mock.fetch(`${mock.baseUrl}/patients`)).rejects.toThrow(/closed/);
  });

  it('with strict: true, answers that keep the contract pass through unchanged', async () => {
    const mock = await start({ strict: true });
    const api = clientOf(mock);
    const { data: p } = await api.create('/patients', { first_name: 'S', last_name: 'T', external_id: 's-1' });
    const dup = await mock.fetch(`${mock.baseUrl}/patients`, {
      method: 'POST',
      headers: { 'x-api-key': keyWith(mock, ['*']), 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'S', last_name: 'T', external_id: 's-1' }),
    });
    expect(dup.status).toBe(409);
    expect((await api.GET('/patients/{patientId}', { params: { path: { patientId: p.id } } })).response.status).toBe(200);
    expect((await mock.fetch(`${mock.baseUrl}/patients/1`, { headers: { 'x-api-key': keyWith(mock, ['*']) } })).status).toBe(404);
  });

  it('with strict: true, an answer outside the contract becomes a 500 naming each violation', async () => {
    const check = strictCheck(createResponseCheck(specIndex().bundle));
    const headers = { 'x-ratelimit-limit': '1200', 'x-ratelimit-remaining': '1199', 'x-ratelimit-reset': '1790000000' };
    const ok = Response.json({ error: 'Patient not found' }, { status: 404, headers });
    expect(await check('GET', '/patients/{x}', ok)).toBe(ok);
    const wrong = await check('GET', '/patients/7281928374650192837', Response.json({ data: { id: 7 } }, { status: 200, headers }));
    expect(wrong.status).toBe(500);
    const { details } = (await wrong.json()) as { details: { violations: string[] } };
    expect(details.violations).toEqual(
      expect.arrayContaining(['body.data.id must be string', expect.stringMatching(/^body.data must have required property/)]),
    );
    expect(JSON.parse(wrong.headers.get('sl-violations')!)).toEqual(details.violations);
    const undocumented = await check('GET', '/patients/7281928374650192837', Response.json({}, { status: 418, headers }));
    expect(((await undocumented.json()) as { details: { violations: string[] } }).details.violations).toEqual([
      'status 418 is not documented for getPatient',
    ]);
    const headerless = await check('GET', '/patients/7281928374650192837', Response.json({ error: 'Patient not found' }, { status: 404 }));
    expect(((await headerless.json()) as { details: { violations: string[] } }).details.violations).toContain(
      'header x-ratelimit-limit is required',
    );
  });
});
