// Documents through the running mock, twice: behind Prism's validation proxy in --strict mode (every response
// checked against the contract) and engine-only. Seeded data comes from the default seed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SeedDocument } from './seed.ts';
import { startMock, type MockMode, type RunningMock } from '../../server.ts';
import { client } from '../../testing/http.ts';
import { MESSAGES } from './messages.ts';
import { MAX_UPLOAD_BYTES } from './rows.ts';
import { makeCorruptPdf, makeDocx, makePdf } from './sample-files.ts';

const TIME_SCALE = 0.001;

describe.each<[MockMode, boolean]>([
  ['default', true],
  ['engine-only', false],
])('documents in %s mode (strict=%s)', (mode, strict) => {
  let m: RunningMock;
  let api: ReturnType<typeof client>;
  const violations: string[] = [];
  let org1: string;
  let patient: string;
  let org2Patient: string;

  beforeAll(async () => {
    m = await startMock({ port: 0, mode, strict, quiet: true, timeScale: TIME_SCALE, onViolation: (l) => violations.push(l) });
    api = client(m);
    org1 = m.seed.organizations[0]!.id;
    const patients = m.seed.patients as Array<{ id: string; organization_id: string }>;
    patient = patients.find((p) => p.organization_id === org1)!.id;
    org2Patient = patients.find((p) => p.organization_id !== org1)!.id;
  });
  afterAll(async () => {
    await m?.close();
    expect(violations).toEqual([]);
  });
  beforeEach(async () => {
    await fetch(`${m.controlUrl}/reset`, { method: 'POST', signal: AbortSignal.timeout(10_000) });
  });

  const upload = async (
    bytes: Uint8Array,
    name: string,
    fields: Record<string, string> = {},
    opts: { key?: string; patientId?: string; headers?: Record<string, string> } = {},
  ) => {
    const form = new FormData();
    form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const r = await fetch(`${m.url}/patients/${opts.patientId ?? patient}/documents`, {
      method: 'POST',
      headers: { 'x-api-key': opts.key ?? api.key('all'), ...opts.headers },
      body: form,
      signal: AbortSignal.timeout(20_000),
    });
    return {
      status: r.status,
      body: (await r.json()) as { data: { id: string; status: string; file_type: string }; message: string } & Record<string, unknown>,
    };
  };
  const poll = async (externalId: string, until: (status: string) => boolean) => {
    const end = Date.now() + 10_000;
    for (;;) {
      const r = await api.call('GET', `/patients/${patient}/documents?external_id=${externalId}`);
      expect(r.status).toBe(200);
      if (until(r.body.data[0].status)) return r.body.data[0];
      if (Date.now() > end) throw new Error(`document ${externalId} stayed ${r.body.data[0].status}`);
      await new Promise((res) => setTimeout(res, 20));
    }
  };

  it('DOC-022 DOC-026 DOC-013 DOC-028 DOC-017 a PDF uploads pending, then completes; polled by external_id', async () => {
    const up = await upload(makePdf(['Referral letter']), 'referral.pdf', { external_id: 'it-1', patient_id: patient });
    expect(up.status).toBe(201);
    expect(up.body.message).toBe(MESSAGES.uploadedQueued);
    expect(up.body.data).toMatchObject({ status: 'pending', file_type: 'application/pdf' });
    const done = await poll('it-1', (s) => s === 'completed');
    expect(done).toMatchObject({ has_extracted_text: true, extracted_text_length: 'Referral letter'.length });
    // The control API lists it too, with its organization, patient and extraction status (the dashboard's table).
    const listed = (await (await fetch(`${m.controlUrl}/documents`)).json()).data.find((d: { id: string }) => d.id === up.body.data.id);
    expect(listed).toMatchObject({
      patient_id: patient,
      organization_id: m.seed.organizations[0]!.id,
      status: 'completed',
      external_id: 'it-1',
    });
    expect((await fetch(`${m.controlUrl}/documents?organization_id=nope`)).status).toBe(400);
  });

  it('DOC-018 a corrupt PDF fails with extraction_error; DOC-019 DOC-031 extract re-runs it (200 success)', async () => {
    expect((await upload(makeCorruptPdf(), 'bad.pdf', { external_id: 'it-bad' })).status).toBe(201);
    const failed = await poll('it-bad', (s) => s === 'failed');
    expect(failed.extraction_error).toEqual(expect.any(String));
    const ex = await api.call('POST', `/patients/${patient}/documents/${failed.id}/extract`);
    expect(ex.status).toBe(200);
    expect(ex.body).toMatchObject({ success: true, data: { id: failed.id } });
  });

  it('DOC-015 DOC-027 under extraction-not-queued: plain wording, stays pending; DOC-031 a second fault makes extract 503', async () => {
    await fetch(`${m.controlUrl}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'extraction-not-queued', count: 2 }),
    });
    const up = await upload(makeDocx(['Summary']), 'summary.docx', { external_id: 'it-nq' });
    expect(up.status).toBe(201);
    expect(up.body.message).toBe(MESSAGES.uploaded);
    await new Promise((r) => setTimeout(r, 100));
    expect((await poll('it-nq', () => true)).status).toBe('pending');
    const ex = await api.call('POST', `/patients/${patient}/documents/${up.body.data.id}/extract`);
    expect(ex.status).toBe(503);
    expect(ex.body).toMatchObject({ success: false, error: expect.any(String), details: expect.any(String) });
    expect((await api.call('POST', `/patients/${patient}/documents/${up.body.data.id}/extract`)).status).toBe(200);
    await poll('it-nq', (s) => s === 'completed');
  });

  it('a scoped extraction-fails or extraction-not-queued fault reaches only uploads carrying its X-Mock-Fault-Scope', async () => {
    const arm = (body: object) =>
      fetch(`${m.controlUrl}/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await arm({ kind: 'extraction-fails', scope: 'check-a' })).status).toBe(201);
    expect((await arm({ kind: 'extraction-not-queued', scope: 'check-a' })).status).toBe(201);
    // Another check's uploads (no header, or another scope) are untouched by them.
    const other = await upload(makePdf(['ok']), 'ok.pdf', { external_id: 'sc-other' }, { headers: { 'x-mock-fault-scope': 'check-b' } });
    expect(other.body.message).toBe(MESSAGES.uploadedQueued);
    await poll('sc-other', (s) => s === 'completed');
    // The scoped ones reach the uploads of their scope: first not queued, then (the next) failed.
    const mine = { headers: { 'x-mock-fault-scope': 'check-a' } };
    expect((await upload(makePdf(['ok']), 'ok.pdf', { external_id: 'sc-nq' }, mine)).body.message).toBe(MESSAGES.uploaded);
    await upload(makePdf(['ok']), 'ok.pdf', { external_id: 'sc-fail' }, mine);
    await poll('sc-fail', (s) => s === 'failed');
    expect((await (await fetch(`${m.controlUrl}/faults`)).json()).data).toEqual([]);
  });

  it('DOC-020 the extraction-fails fault fails a good file, which a new run completes', async () => {
    await fetch(`${m.controlUrl}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'extraction-fails' }),
    });
    const up = await upload(makePdf(['ok']), 'ok.pdf', { external_id: 'it-f' });
    await poll('it-f', (s) => s === 'failed');
    expect((await api.call('POST', `/patients/${patient}/documents/${up.body.data.id}/extract`)).status).toBe(200);
    await poll('it-f', (s) => s === 'completed');
  });

  it('DOC-033 415 for another type; DOC-032 413 past 10 MB (10 000 000 bytes); 400 for an unknown form field; 409 duplicate external_id', async () => {
    expect((await upload(new TextEncoder().encode('just text'), 'a.pdf')).status).toBe(415);
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    big.set(new TextEncoder().encode('%PDF-1.4\n'));
    expect((await upload(big, 'big.pdf')).status).toBe(413);
    const unknown = await upload(makePdf(['a']), 'a.pdf', { colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ details: { colour: expect.any(String) } });
    const seeded = (m.seed.documents as SeedDocument[]).find((d) => d.organization_id === org1 && d.external_id)!;
    const dup = await upload(makePdf(['a']), 'a.pdf', { external_id: seeded.external_id! }, { patientId: seeded.patient_id });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: 'external_id already in use', existing: { id: seeded.id, external_id: seeded.external_id } });
  });

  it("XID-016 a document's external_id and a patient's share one namespace: each refuses the other's", async () => {
    const held = (m.seed.patients as Array<{ id: string; organization_id: string; external_id?: string | null }>).find(
      (p) => p.organization_id === org1 && p.external_id,
    )!;
    const doc = await upload(makePdf(['a']), 'a.pdf', { external_id: held.external_id! });
    expect(doc.body).toEqual({ error: 'external_id already in use', existing: { id: held.id, external_id: held.external_id } });
    const mine = await upload(makePdf(['a']), 'a.pdf', { external_id: 'doc-namespace-1' });
    expect(mine.status).toBe(201);
    const p = await api.call('POST', '/patients', { body: { name: 'Namespace', external_id: 'doc-namespace-1' } });
    expect(p.body).toEqual({ error: 'external_id already in use', existing: { id: mine.body.data.id, external_id: 'doc-namespace-1' } });
  });

  it('DOC-021 the list has no meta; seeded documents in every status; 404 for a patient of another organization', async () => {
    const seeded = (m.seed.documents as SeedDocument[]).filter((d) => d.organization_id === org1);
    const statuses = new Set<string>();
    for (const pid of new Set(seeded.map((d) => d.patient_id))) {
      const r = await api.call('GET', `/patients/${pid}/documents`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['data']);
      for (const d of r.body.data as Array<{ status: string }>) statuses.add(d.status);
    }
    expect([...statuses].sort()).toEqual(['completed', 'failed', 'pending', 'processing']);
    expect((await api.call('GET', `/patients/${org2Patient}/documents`)).status).toBe(404);
    expect((await api.call('GET', `/patients/${patient}/documents?external_id=nope`)).status).toBe(404);
  });

  it('DOC-024 DELETE answers {success:true}, then 404; writes need documents:write', async () => {
    const seeded = (m.seed.documents as SeedDocument[]).find((d) => d.organization_id === org1)!;
    const path = `/patients/${seeded.patient_id}/documents/${seeded.id}`;
    expect((await api.call('DELETE', path, { key: api.key('documents:read') })).status).toBe(403);
    expect((await upload(makePdf(['a']), 'a.pdf', {}, { key: api.key('documents:read') })).status).toBe(403);
    const del = await api.call('DELETE', path);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect((await api.call('DELETE', path)).status).toBe(404);
  });
});

describe('documents across a restart with --state', () => {
  it('an extraction in flight at shutdown is re-queued by resume() and completes', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'docs-state-'));
    const state = join(dir, 'state.json');
    try {
      // Time scale 1: the run cannot finish before the first process stops.
      const first = await startMock({ port: 0, mode: 'engine-only', quiet: true, timeScale: 1, state });
      const api1 = client(first);
      const patient = (first.seed.patients as Array<{ id: string; organization_id: string }>)[0]!.id;
      const form = new FormData();
      form.append('file', new Blob([makePdf(['Persisted']) as Uint8Array<ArrayBuffer>]), 'p.pdf');
      form.append('external_id', 'restart-1');
      const up = await fetch(`${first.url}/patients/${patient}/documents`, {
        method: 'POST',
        headers: { 'x-api-key': api1.key('all') },
        body: form,
      });
      expect(up.status).toBe(201);
      await first.close();

      const second = await startMock({ port: 0, mode: 'engine-only', quiet: true, timeScale: 0.001, state });
      try {
        const api2 = client(second);
        const end = Date.now() + 10_000;
        for (;;) {
          const r = await api2.call('GET', `/patients/${patient}/documents?external_id=restart-1`);
          expect(r.status).toBe(200);
          if (r.body.data[0].status === 'completed') break;
          if (Date.now() > end) throw new Error(`stayed ${r.body.data[0].status}`);
          await new Promise((res) => setTimeout(res, 20));
        }
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
