// Runtime behaviour of the client against scripted loopback servers (127.0.0.1, port 0).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { uploadMaxBytes } from '../generated/spec-values.ts';
import { ApiError, createClinicalRecordsClient, ExternalIdConflictError, UploadRejectedError, WaitTimeoutError } from './node.ts';
import { json, RATE, SAMPLES, startLoopback, type Handler, type Loopback } from './testing/loopback.ts';

const KEY = 'crk_test_secret';
let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(handler: Handler, retry?: Parameters<typeof createClinicalRecordsClient>[0]['retry']) {
  server = await startLoopback(handler);
  return { server, client: createClinicalRecordsClient({ baseUrl: server.baseUrl, apiKey: KEY, ...(retry ? { retry } : {}) }) };
}

const BIG_ID = '7281928374650192'; // 19 digits, > 2^53: a JSON number would lose the last digits
const patient = (id: string, n = 0) => ({ id, name: `P${n}`, created_at: '2026-11-02T16:05:12.345Z', provider_id: 'prov-1' });
const doc = (id: string, status: string, external_id: string | null = null) => ({
  id,
  filename: 'a.pdf',
  file_type: 'application/pdf',
  file_size: 10,
  upload_date: '2026-11-02T16:05:12.345Z',
  status,
  has_extracted_text: status === 'completed',
  external_id,
});

describe('createClinicalRecordsClient', () => {
  it('refuses bad options with clear errors', () => {
    expect(() => createClinicalRecordsClient({ baseUrl: 'not a url', apiKey: KEY })).toThrow(/baseUrl must be an absolute http\(s\) URL/);
    expect(() => createClinicalRecordsClient({ baseUrl: 'http://127.0.0.1:1/x', apiKey: '' })).toThrow(/apiKey/);
    expect(() => createClinicalRecordsClient({ baseUrl: 'http://127.0.0.1:1/x', apiKey: KEY, retry: { attempts: 0 } })).toThrow(
      /retry.attempts/,
    );
  });

  it('sends X-API-Key, returns typed data and exposes the rate-limit headers', async () => {
    const { client, server } = await setup((_req, res) => json(res, 200, { data: patient(BIG_ID) }));
    const { data, response } = await client.GET('/patients/{patientId}', { params: { path: { patientId: BIG_ID } } });
    expect(server.seen[0]!.headers['x-api-key']).toBe(KEY);
    expect(data?.data.id).toBe(BIG_ID);
    expect(client.rateLimit).toEqual({ limit: 100, remaining: 99, reset: 1900000000 });
    expect(response.status).toBe(200);
  });

  it('keeps a 19-digit patient id a string end to end (path, body, response)', async () => {
    const { client, server } = await setup((req, res) => {
      if (req.method === 'POST') return json(res, 201, { data: { ...patient(BIG_ID), consent: false } });
      return json(res, 200, { data: { ...patient(req.url.pathname.split('/').pop()!), consent: false } });
    });
    const created = await client.create('/patients', { name: 'Ada' });
    expect(created.data.id).toBe(BIG_ID);
    const { data } = await client.GET('/patients/{patientId}', { params: { path: { patientId: created.data.id } } });
    expect(server.seen[1]!.url.pathname).toBe(`/ext-api/v1/patients/${BIG_ID}`);
    expect(data?.data.id).toBe(BIG_ID);
    const appt = await setup2();
    async function setup2() {
      await client.POST('/appointments', { body: { patient_id: BIG_ID, start_at: '2026-12-01T15:30:00Z', duration_minutes: 30 } });
      return JSON.parse(server.seen[2]!.body.toString()) as { patient_id: unknown };
    }
    expect(appt.patient_id).toBe(BIG_ID);
  });

  it('returns typed errors: { error, details } on 400', async () => {
    const { client } = await setup((_req, res) => json(res, 400, { error: 'Validation failed', details: { nickname: 'unknown field' } }));
    const { data, error } = await client.POST('/patients', { body: { name: 'A' } });
    expect(data).toBeUndefined();
    expect(error).toEqual({ error: 'Validation failed', details: { nickname: 'unknown field' } });
  });
});

describe('paginate', () => {
  it('follows meta.total_pages and stops at the end', async () => {
    const { client, server } = await setup((req, res) => {
      const page = Number(req.url.searchParams.get('page'));
      json(res, 200, { data: [patient(`${page}1`, page), patient(`${page}2`, page)], meta: { page, limit: 2, total_pages: 3 } });
    });
    const ids: string[] = [];
    for await (const p of client.paginate('/patients', { query: { limit: 2, search: 'a' } })) ids.push(p.id);
    expect(ids).toEqual(['11', '12', '21', '22', '31', '32']);
    expect(server.seen.map((s) => s.url.search)).toEqual([
      '?limit=2&search=a&page=1',
      '?limit=2&search=a&page=2',
      '?limit=2&search=a&page=3',
    ]);
  });

  it('reads a list without meta (documents) as one page', async () => {
    const { client, server } = await setup((_req, res) => json(res, 200, { data: [doc('d1', 'pending'), doc('d2', 'completed')] }));
    const ids: string[] = [];
    for await (const d of client.paginate('/patients/{patientId}/documents', { path: { patientId: BIG_ID } })) ids.push(d.id);
    expect(ids).toEqual(['d1', 'd2']);
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.url.pathname).toBe(`/ext-api/v1/patients/${BIG_ID}/documents`);
  });

  it('throws ApiError on a failed page', async () => {
    const { client } = await setup((_req, res) => json(res, 403, { error: 'Insufficient scope: patients:read required' }));
    const it = client.paginate('/patients');
    await expect(it.next()).rejects.toThrow(/GET \/patients answered 403: Insufficient scope/);
  });
});

describe('external_id', () => {
  it('lookup: a hit is the item, the documented 404 is undefined, other failures throw', async () => {
    const { client, server } = await setup((req, res) => {
      const ext = req.url.searchParams.get('external_id');
      if (ext === 'hit')
        return json(res, 200, { data: [{ ...patient(BIG_ID), external_id: 'hit' }], meta: { page: 1, limit: 20, total_pages: 1 } });
      if (ext === 'boom') return json(res, 401, { error: 'Invalid or missing API key' });
      return json(res, 404, { error: 'Not found' });
    });
    expect((await client.findByExternalId('/patients', 'hit'))?.id).toBe(BIG_ID);
    expect(await client.findByExternalId('/patients', 'miss')).toBeUndefined();
    await expect(client.findByExternalId('/patients', 'boom')).rejects.toBeInstanceOf(ApiError);
    expect(await client.findByExternalId('/patients/{patientId}/documents', 'miss', { patientId: BIG_ID })).toBeUndefined();
    expect(server.seen[3]!.url.pathname + server.seen[3]!.url.search).toBe(`/ext-api/v1/patients/${BIG_ID}/documents?external_id=miss`);
  });

  it('create: a 409 becomes ExternalIdConflictError carrying existing', async () => {
    const { client } = await setup((_req, res) =>
      json(res, 409, { error: 'external_id already in use', existing: { id: BIG_ID, external_id: 'ehr-1' } }),
    );
    const err = await client.create('/patients', { name: 'Ada', external_id: 'ehr-1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExternalIdConflictError);
    expect((err as ExternalIdConflictError).existing).toEqual({ id: BIG_ID, external_id: 'ehr-1' });
    expect((err as ExternalIdConflictError).status).toBe(409);
    // The raw call types the same body.
    const { error } = await client.POST('/appointments', {
      body: { patient_id: BIG_ID, start_at: '2026-12-01T15:30:00Z', duration_minutes: 30, external_id: 'ehr-1' },
    });
    expect(error && 'existing' in error ? error.existing.id : undefined).toBe(BIG_ID);
  });
});

describe('uploadDocument', () => {
  const ok: Handler = (_req, res) =>
    json(res, 201, { data: doc('d1', 'pending', 'ext-1'), message: 'Document uploaded successfully. Text extraction started.' });

  it('sends a PDF from a Buffer as multipart with file and external_id', async () => {
    const { client, server } = await setup(ok);
    const result = await client.uploadDocument(BIG_ID, { file: SAMPLES.pdf, filename: 'letter.pdf', externalId: 'ext-1' });
    expect(result.data.status).toBe('pending');
    const sent = server.seen[0]!;
    expect(sent.url.pathname).toBe(`/ext-api/v1/patients/${BIG_ID}/documents`);
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.headers['x-api-key']).toBe(KEY);
    const body = sent.body.toString('latin1');
    expect(body).toMatch(/name="file"; filename="letter.pdf"\r\nContent-Type: application\/pdf/);
    expect(body).toMatch(/name="external_id"\r\n\r\next-1\r\n/);
    expect(body).toContain('%PDF-1.4');
  });

  it('accepts a Blob/File and a file path, and names the part after them', async () => {
    const { client, server } = await setup(ok);
    await client.uploadDocument(BIG_ID, { file: new File([SAMPLES.png], 'scan.png') });
    const dir = mkdtempSync(join(tmpdir(), 'crc-upload-'));
    try {
      writeFileSync(join(dir, 'report.docx'), SAMPLES.docx);
      await client.uploadDocument(BIG_ID, { file: join(dir, 'report.docx') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(server.seen[0]!.body.toString('latin1')).toMatch(/filename="scan.png"\r\nContent-Type: image\/png/);
    expect(server.seen[1]!.body.toString('latin1')).toMatch(
      /filename="report.docx"\r\nContent-Type: application\/vnd.openxmlformats-officedocument.wordprocessingml.document/,
    );
  });

  it('refuses, before sending, a file over x-max-bytes and types other than the accepted ones (by content)', async () => {
    const { client, server } = await setup(ok);
    const tooBig = new Uint8Array(uploadMaxBytes + 1);
    tooBig.set(SAMPLES.pdf);
    const cases: Array<[Parameters<typeof client.uploadDocument>[1], string]> = [
      [{ file: tooBig, filename: 'big.pdf' }, 'too-large'],
      [{ file: new Blob([tooBig]), filename: 'big.pdf' }, 'too-large'],
      [{ file: SAMPLES.text, filename: 'fake.pdf' }, 'unsupported-type'],
      [{ file: SAMPLES.zip, filename: 'fake.docx' }, 'unsupported-type'],
      [{ file: SAMPLES.looseDocx, filename: 'loose.docx' }, 'unsupported-type'],
      [{ file: SAMPLES.png, filename: 'scan.pdf' }, 'name-mismatch'],
      [{ file: '/nonexistent/file.pdf' }, 'unreadable'],
    ];
    for (const [input, reason] of cases) {
      const err = await client.uploadDocument(BIG_ID, input).catch((e: unknown) => e);
      expect(err, reason).toBeInstanceOf(UploadRejectedError);
      expect((err as UploadRejectedError).reason).toBe(reason);
    }
    // Exactly 10 MB is allowed.
    const exact = new Uint8Array(uploadMaxBytes);
    exact.set(SAMPLES.pdf);
    await client.uploadDocument(BIG_ID, { file: exact, filename: 'edge.pdf' });
    expect(server.seen).toHaveLength(1);
    await expect(client.uploadDocument(BIG_ID, { file: SAMPLES.pdf })).rejects.toThrow(/filename is required/);
    // @ts-expect-error a numeric patient id is refused at compile time, and at run time:
    await expect(client.uploadDocument(7281928374650192, { file: SAMPLES.pdf, filename: 'a.pdf' })).rejects.toThrow(
      /patientId must be a non-empty string/,
    );
  });
});

describe('waitForDocument', () => {
  it('polls by external_id until completed', async () => {
    const statuses = ['pending', 'processing', 'completed'];
    const { client, server } = await setup((_req, res) => json(res, 200, { data: [doc('d1', statuses.shift() ?? 'completed', 'ext-1')] }));
    const d = await client.waitForDocument(BIG_ID, { externalId: 'ext-1' }, { intervalMs: 10 });
    expect(d.status).toBe('completed');
    expect(server.seen).toHaveLength(3);
    expect(server.seen.every((s) => s.url.searchParams.get('external_id') === 'ext-1')).toBe(true);
  });

  it('polls by id until failed', async () => {
    const statuses = ['processing', 'failed'];
    const { client } = await setup((_req, res) =>
      json(res, 200, { data: [doc('other', 'pending'), doc('d1', statuses.shift() ?? 'failed')] }),
    );
    expect((await client.waitForDocument(BIG_ID, { id: 'd1' }, { intervalMs: 10 })).status).toBe('failed');
  });

  it('gives up after the timeout with the last document, and reports a missing one', async () => {
    const { client } = await setup((req, res) =>
      req.url.searchParams.get('external_id') === 'gone'
        ? json(res, 404, { error: 'Not found' })
        : json(res, 200, { data: [doc('d1', 'processing', 'ext-1')] }),
    );
    const started = Date.now();
    const err = await client.waitForDocument(BIG_ID, { externalId: 'ext-1' }, { intervalMs: 20, timeoutMs: 150 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect((err as WaitTimeoutError).message).toMatch(/still processing after 150 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(client.waitForDocument(BIG_ID, { externalId: 'gone' })).rejects.toThrow(/does not exist/);
  });
});

describe('regenerateNote', () => {
  const SESSION = '5f4e3d2c-1b0a-4987-8654-3210fedcba98';
  const accepted = { data: { session_id: SESSION, status: 'queued' }, message: 'Note regeneration queued.' };

  it('reuses one Idempotency-Key across a timeout and a network error, and a new call gets a new key', async () => {
    let n = 0;
    const { client, server } = await setup((_req, res) => {
      n++;
      if (n === 1) return; // never answers: the attempt times out
      if (n === 2) return void res.socket?.destroy(); // connection dropped: a network error
      json(res, 202, accepted);
    });
    const r = await client.regenerateNote(SESSION, { model: 'detailed' }, { attemptTimeoutMs: 300 });
    expect(r.accepted).toEqual(accepted);
    expect(r.attempts).toBe(3);
    const keys = server.seen.map((s) => s.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe(r.idempotencyKey);
    expect(server.seen.every((s) => JSON.parse(s.body.toString()).model === 'detailed')).toBe(true);
    const again = await client.regenerateNote(SESSION);
    expect(again.idempotencyKey).not.toBe(r.idempotencyKey);
  });

  it('stops after the attempts and does not retry an HTTP error', async () => {
    const { client, server } = await setup((_req, res) => json(res, 409, { error: 'Session is not ready for regeneration' }));
    await expect(client.regenerateNote(SESSION)).rejects.toThrow(/answered 409: Session is not ready/);
    expect(server.seen).toHaveLength(1);
    await server.close();
    await expect(client.regenerateNote(SESSION, {}, { attempts: 2 })).rejects.toThrow(TypeError);
  });
});

describe('retry of 429 and 503', () => {
  const rateLimited = (res: Parameters<Handler>[1], retryAfter = '1') =>
    json(res, 429, { error: 'Rate limit exceeded. Please retry after the window resets.' }, { 'Retry-After': retryAfter });

  it('waits Retry-After, then succeeds', async () => {
    let n = 0;
    const { client, server } = await setup(
      (_req, res) => (++n === 1 ? rateLimited(res, '1') : json(res, 200, { data: patient(BIG_ID) })),
      true,
    );
    const started = Date.now();
    const { data } = await client.GET('/patients/{patientId}', { params: { path: { patientId: BIG_ID } } });
    expect(data?.data.id).toBe(BIG_ID);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.seen).toHaveLength(2);
  });

  it('is bounded in attempts and retries 503 too; the caller sees the last answer', async () => {
    const { client, server } = await setup((_req, res) => json(res, 503, { error: 'Regeneration could not be queued' }), {
      attempts: 3,
      baseDelayMs: 10,
    });
    const { error, response } = await client.POST('/sessions/{sessionId}/notes/regenerate', { params: { path: { sessionId: 's' } } });
    expect(response.status).toBe(503);
    expect(error).toEqual({ error: 'Regeneration could not be queued' });
    expect(server.seen).toHaveLength(3);
  });

  it('is bounded in time: a Retry-After beyond the bounds is not waited for', async () => {
    const { client, server } = await setup((_req, res) => rateLimited(res, '120'), { attempts: 5, maxElapsedMs: 5_000 });
    const started = Date.now();
    const { response } = await client.GET('/providers');
    expect(response.status).toBe(429);
    expect(client.rateLimit?.retryAfterMs).toBe(120_000);
    expect(server.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('is off unless asked for', async () => {
    const { client, server } = await setup((_req, res) => rateLimited(res, '0'));
    expect((await client.GET('/providers')).response.status).toBe(429);
    expect(server.seen).toHaveLength(1);
  });

  it('resends a multipart body intact', async () => {
    let n = 0;
    const { client, server } = await setup(
      (_req, res) =>
        ++n === 1 ? rateLimited(res, '0') : json(res, 201, { data: doc('d1', 'pending'), message: 'Document uploaded successfully.' }),
      true,
    );
    await client.uploadDocument(BIG_ID, { file: SAMPLES.pdf, filename: 'a.pdf' });
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.body.equals(server.seen[0]!.body)).toBe(true);
    expect(RATE['X-RateLimit-Limit']).toBe('100');
  });
});
