// Notes and sessions through the running mock, twice: behind Prism's validation proxy in --strict mode and
// engine-only. Seeded data comes from the default seed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type MockMode, type RunningMock } from '../../server.ts';
import { client } from '../../testing/http.ts';
import type { SeedNote, SeedSession } from './seed.ts';

describe.each<[MockMode, boolean]>([
  ['default', true],
  ['engine-only', false],
])('notes in %s mode (strict=%s)', (mode, strict) => {
  let m: RunningMock;
  let api: ReturnType<typeof client>;
  const violations: string[] = [];
  let org1: string;
  let ready: SeedSession;
  let notReady: SeedSession;

  beforeAll(async () => {
    m = await startMock({ port: 0, mode, strict, quiet: true, timeScale: 0.001, onViolation: (l) => violations.push(l) });
    api = client(m);
    org1 = m.seed.organizations[0]!.id;
    const sessions = (m.seed.sessions as SeedSession[]).filter((s) => s.organization_id === org1);
    const notes = m.seed.notes as SeedNote[];
    ready = sessions.find((s) => notes.some((n) => n.session_id === s.id))!;
    notReady = sessions.find((s) => s.transcript.status !== 'completed')!;
  });
  afterAll(async () => {
    await m?.close();
    expect(violations).toEqual([]);
  });
  beforeEach(async () => {
    await fetch(`${m.controlUrl}/reset`, { method: 'POST', signal: AbortSignal.timeout(10_000) });
  });

  it('NOTE-014 NOTE-024 list with meta and filters', async () => {
    const all = await api.call('GET', '/notes?limit=100');
    expect(all.status).toBe(200);
    expect(all.body.meta).toMatchObject({ page: 1, limit: 100, total_pages: 1 });
    const bySession = await api.call('GET', `/notes?session_id=${ready.id}`);
    expect(bySession.body.data.length).toBeGreaterThan(0);
    expect(bySession.body.data.every((n: { session_id: string }) => n.session_id === ready.id)).toBe(true);
    expect((await api.call('GET', '/notes?created_after=bad')).status).toBe(400);
  });

  it('NOTE-016 NOTE-017 NOTE-018 include: default both, empty none, unknown 400', async () => {
    const id = (await api.call('GET', '/notes')).body.data[0].id;
    const full = await api.call('GET', `/notes/${id}`);
    expect(full.body.data).toHaveProperty('transcript');
    expect(full.body.data).toHaveProperty('patient');
    const bare = await api.call('GET', `/notes/${id}?include=`);
    expect(bare.status).toBe(200);
    expect(bare.body.data).not.toHaveProperty('transcript');
    expect(bare.body.data).not.toHaveProperty('patient');
    expect((await api.call('GET', `/notes/${id}?include=codes`)).status).toBe(400);
    expect((await api.call('GET', `/notes/${id}`, { key: api.key('org2_all') })).status).toBe(404);
  });

  it('NOTE-020 NOTE-025 export in json, ndjson and csv', async () => {
    const json = await api.call('GET', '/notes/export');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toContain('application/json');
    const count = json.body.data.length;
    const nd = await api.call('GET', '/notes/export?format=ndjson');
    expect(nd.headers.get('content-type')).toContain('application/x-ndjson');
    expect(String(nd.body).trim().split('\n')).toHaveLength(count);
    const csv = await api.call('GET', '/notes/export?format=csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(String(csv.body).startsWith('id,patient_id,session_id')).toBe(true);
    expect((await api.call('GET', '/notes/export?format=pdf')).status).toBe(400);
    expect((await api.call('GET', '/notes/export', { key: api.key('patients:read') })).status).toBe(403);
  });

  it('NOTE-021 NOTE-022 session notes; 404 for another organization', async () => {
    const r = await api.call('GET', `/sessions/${ready.id}/notes`);
    expect(r.status).toBe(200);
    expect(r.body.data.session.id).toBe(ready.id);
    expect(r.body.data.patient.id).toBe(ready.patient_id);
    expect((await api.call('GET', `/sessions/${ready.id}/notes`, { key: api.key('org2_all') })).status).toBe(404);
  });

  it('REGEN-001 REGEN-008 REGEN-014 regenerate: 202, then the content changes', async () => {
    const before = (await api.call('GET', `/sessions/${ready.id}/notes`)).body.data.notes.at(-1);
    const regeneration = async () =>
      ((await (await fetch(`${m.controlUrl}/sessions`)).json()).data as Array<{ id: string; regeneration: object }>).find(
        (s) => s.id === ready.id,
      )!.regeneration;
    const was = (await regeneration()) as { requested: number };
    const r = await api.call('POST', `/sessions/${ready.id}/notes/regenerate`, { body: { model: 'fast' } });
    expect(r.status).toBe(202);
    // The control API counts the run at once (waiting or, at this time scale, maybe applied already), then applied.
    expect(await regeneration()).toMatchObject({ requested: was.requested + 1 });
    expect(r.body).toEqual({ data: { session_id: ready.id, status: 'queued' }, message: expect.any(String) });
    const end = Date.now() + 10_000;
    for (;;) {
      const now = (await api.call('GET', `/sessions/${ready.id}/notes`)).body.data.notes.find((n: { id: string }) => n.id === before.id);
      if (now.content !== before.content) {
        expect(Date.parse(now.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
        expect(await regeneration()).toEqual({ requested: was.requested + 1, pending: 0, applied_run: was.requested + 1 });
        break;
      }
      if (Date.now() > end) throw new Error('note was not regenerated');
      await new Promise((res) => setTimeout(res, 20));
    }
  });

  it('REGEN-010 REGEN-012 REGEN-013 REGEN-019 regenerate: scope, 409, 503, idempotency, bad template', async () => {
    const path = `/sessions/${ready.id}/notes/regenerate`;
    expect((await api.call('POST', path, { key: api.key('notes:read') })).status).toBe(403);
    expect((await api.call('POST', `/sessions/${notReady.id}/notes/regenerate`)).status).toBe(409);
    await fetch(`${m.controlUrl}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'regeneration-unavailable' }),
    });
    expect((await api.call('POST', path)).status).toBe(503);
    const a = await api.call('POST', path, { headers: { 'Idempotency-Key': 'it-1' } });
    const b = await api.call('POST', path, { headers: { 'Idempotency-Key': 'it-1' } });
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(b.body).toEqual(a.body);
    expect((await api.call('POST', path, { body: { template_id: '0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f' } })).status).toBe(400);
    expect((await api.call('POST', path, { body: { model: 'turbo' } })).status).toBe(400);
  });

  it('control: GET /__mock/sessions tells ready from not ready, per organization', async () => {
    type Row = { id: string; organization_id: string; transcript_status: string; has_note: boolean; ready: boolean };
    const all = (await (await fetch(`${m.controlUrl}/sessions`)).json()) as { data: Row[] };
    const byId = new Map(all.data.map((s) => [s.id, s]));
    expect(byId.get(ready.id)).toMatchObject({ ready: true, has_note: true, transcript_status: 'completed' });
    expect(byId.get(notReady.id)?.ready).toBe(false);
    expect(new Set(all.data.map((s) => s.organization_id)).size).toBe(2);
    const org = byId.get(ready.id)!.organization_id;
    const one = (await (await fetch(`${m.controlUrl}/sessions?organization_id=${org}`)).json()) as { data: Row[] };
    expect(one.data.length).toBeGreaterThan(0);
    expect(one.data.every((s) => s.organization_id === org)).toBe(true);
    expect((await fetch(`${m.controlUrl}/sessions?organization_id=nope`)).status).toBe(400);
  });

  it('control: finalize creates a note; PATCH edits one', async () => {
    const fin = await fetch(`${m.controlUrl}/sessions/${notReady.id}/finalize`, { method: 'POST' });
    expect(fin.status).toBe(201);
    const note = ((await fin.json()) as { data: { id: string } }).data;
    expect((await api.call('GET', `/notes/${note.id}`)).status).toBe(200);
    const patch = await fetch(`${m.controlUrl}/notes/${note.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Edited' }),
    });
    expect(patch.status).toBe(200);
    expect((await api.call('GET', `/notes/${note.id}`)).body.data.content).toBe('Edited');
    const bad = await fetch(`${m.controlUrl}/notes/${note.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{"nope":1}',
    });
    expect(bad.status).toBe(400);
  });
});
