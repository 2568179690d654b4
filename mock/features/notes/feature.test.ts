// The notes feature against the in-memory harness, loaded with the generated seed (core + clinical sections).
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/types.ts';
import type { SeedFile } from '../../platform/deps.ts';
import { patientsFeature } from '../patients/feature.ts';
import { providersFeature } from '../providers/feature.ts';
import { generateSeed } from '../../seed/generate.ts';
import type { SeedNote, SeedSession, SeedTemplate } from './seed.ts';
import { createHarness, waitFor, type Harness } from '../../testing/fake-deps.ts';
import { MEDIA_TYPES, csvCell } from './export.ts';
import { notesFeature } from './feature.ts';
import { FIELDS } from './rows.ts';
import { IDEMPOTENCY_WINDOW_MS, REGENERATION_MS } from './regeneration.ts';
import { parseCsv } from './csv-reader.ts';

type S = components['schemas'];
let seed: SeedFile;
let ORG1: string;
let ORG2: string;
let h: Harness;
const sessionsOf = (org: string) => (seed.sessions as SeedSession[]).filter((s) => s.organization_id === org);
const notesOf = (org: string) => (seed.notes as SeedNote[]).filter((n) => n.organization_id === org);
const ready = (org: string) =>
  sessionsOf(org).find((s) => s.transcript.status === 'completed' && notesOf(org).some((n) => n.session_id === s.id))!;

beforeAll(async () => {
  seed = await generateSeed();
  [ORG1, ORG2] = seed.organizations.map((o) => o.id) as [string, string];
});
beforeEach(async () => {
  h = createHarness([providersFeature, patientsFeature, notesFeature]);
  await h.seed(seed);
});
afterEach(() => h.close());

const get = async <T = unknown>(path: string, org = ORG1) => {
  const res = await h.api(path, { org });
  return { status: res.status, body: (await res.json()) as T, res };
};
const post = (path: string, body?: unknown, headers: Record<string, string> = {}, org = ORG1) =>
  h.api(path, {
    method: 'POST',
    org,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
const valid = (schema: string, value: unknown) => {
  const r = h.deps.validator.schema(schema)(value);
  if (!r.ok) throw new Error(`${schema}: ${JSON.stringify(r.details)}`);
};

describe('GET /notes', () => {
  it('NOTE-014: paginates list items of the organization only', async () => {
    const { body } = await get<{ data: S['NoteListItem'][]; meta: S['PageMeta'] }>('/notes?limit=2');
    expect(body.meta).toEqual({ page: 1, limit: 2, total_pages: Math.ceil(notesOf(ORG1).length / 2) });
    for (const n of body.data) valid('NoteListItem', n);
    expect(Object.keys(body.data[0]!).sort()).toEqual(FIELDS.listItem.filter((f) => f in body.data[0]!).sort());
    const other = await get<{ data: S['NoteListItem'][] }>('/notes?limit=100', ORG2);
    expect(other.body.data.map((n) => n.id).sort()).toEqual(
      notesOf(ORG2)
        .map((n) => n.id)
        .sort(),
    );
  });

  it('NOTE-015 NOTE-024: filters by patient, session, template, provider, type and creation dates', async () => {
    const all = (await get<{ data: S['NoteListItem'][] }>('/notes?limit=100')).body.data;
    const n = all[0]!;
    const session = sessionsOf(ORG1).find((s) => s.id === n.session_id)!;
    for (const [q, pred] of [
      [`patient_id=${n.patient_id}`, (x: S['NoteListItem']) => x.patient_id === n.patient_id],
      [`session_id=${n.session_id}`, (x: S['NoteListItem']) => x.session_id === n.session_id],
      [`template_id=${n.template_id}`, (x: S['NoteListItem']) => x.template_id === n.template_id],
      [`note_type=${n.note_type}`, (x: S['NoteListItem']) => x.note_type === n.note_type],
      [`created_after=${n.created_at}`, (x: S['NoteListItem']) => x.created_at >= n.created_at],
      // A bare date covers its whole day.
      [`created_before=${n.created_at.slice(0, 10)}`, (x: S['NoteListItem']) => x.created_at.slice(0, 10) <= n.created_at.slice(0, 10)],
      [
        `created_after=${n.created_at.slice(0, 10)}&created_before=${n.created_at.slice(0, 10)}`,
        (x: S['NoteListItem']) => x.created_at.slice(0, 10) === n.created_at.slice(0, 10),
      ],
    ] as const) {
      const got = (await get<{ data: S['NoteListItem'][] }>(`/notes?limit=100&${q}`)).body.data;
      expect(
        got.map((x) => x.id),
        q,
      ).toEqual(all.filter(pred).map((x) => x.id));
      expect(got.length, q).toBeGreaterThan(0);
    }
    const byProvider = (await get<{ data: S['NoteListItem'][] }>(`/notes?limit=100&provider_id=${session.provider_id}`)).body.data;
    expect(byProvider.map((x) => x.id)).toContain(n.id);
    expect(byProvider.every((x) => sessionsOf(ORG1).find((s) => s.id === x.session_id)!.provider_id === session.provider_id)).toBe(true);
  });

  it('400 for bad filters and pages', async () => {
    for (const q of ['page=0', 'limit=abc', 'patient_id=abc', 'session_id=nope', 'created_after=yesterday'])
      expect((await get(`/notes?${q}`)).status, q).toBe(400);
  });
});

describe('GET /notes/{noteId}', () => {
  const id = () => notesOf(ORG1)[0]!.id;
  it('NOTE-007 NOTE-008 NOTE-017: embeds transcript and patient by default', async () => {
    const { body } = await get<{ data: S['NoteDetail'] }>(`/notes/${id()}`);
    valid('NoteDetail', body.data);
    expect(body.data.transcript?.text).toBeTruthy();
    expect(body.data.patient?.id).toBe(body.data.patient_id);
    expect(body.data.patient?.client_history).toBeDefined();
  });
  it('NOTE-018 NOTE-019: an empty include omits both, body and codes stay', async () => {
    const { body } = await get<{ data: S['NoteDetail'] }>(`/notes/${id()}?include=`);
    expect(body.data.transcript).toBeUndefined();
    expect(body.data.patient).toBeUndefined();
    expect(body.data.content).toBeTruthy();
    expect(body.data.icd10_codes).toBeTypeOf('object');
    const one = await get<{ data: S['NoteDetail'] }>(`/notes/${id()}?include=patient`);
    expect(one.body.data.patient).toBeDefined();
    expect(one.body.data.transcript).toBeUndefined();
  });
  it('400 for an unknown include value; 404 for another organization or a missing note', async () => {
    const bad = await get<{ details: Record<string, string> }>(`/notes/${id()}?include=transcript,history`);
    expect(bad.status).toBe(400);
    expect(bad.body.details).toHaveProperty('include');
    expect((await get(`/notes/${id()}`, ORG2)).status).toBe(404);
    expect((await get('/notes/0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f')).status).toBe(404);
  });
});

describe('GET /notes/export', () => {
  it('NOTE-020 NOTE-025: json (default), ndjson and csv with the spec media types', async () => {
    const json = await h.api('/notes/export', { org: ORG1 });
    expect(json.headers.get('content-type')).toContain(MEDIA_TYPES.json);
    const data = ((await json.json()) as { data: S['NoteExport'][] }).data;
    expect(data).toHaveLength(notesOf(ORG1).length);
    for (const n of data) valid('NoteExport', n);

    const nd = await h.api('/notes/export?format=ndjson', { org: ORG1 });
    expect(nd.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await nd.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual(data);

    const csv = await h.api('/notes/export?format=csv', { org: ORG1 });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = parseCsv(await csv.text());
    expect(rows[0]).toEqual(FIELDS.export);
    expect(rows).toHaveLength(data.length + 1);
    expect(JSON.parse(rows[1]![FIELDS.export.indexOf('icd10_codes')]!)).toEqual(data[0]!.icd10_codes);
    expect(rows[1]![FIELDS.export.indexOf('content')]).toBe(data[0]!.content);
    expect((await h.api('/notes/export?format=xml', { org: ORG1 })).status).toBe(400);
  });

  it('NOTE-025: CSV escapes commas, quotes and line breaks (RFC 4180)', async () => {
    const nasty = 'He said "no", then left.\r\nSecond line, with comma';
    const id = notesOf(ORG1)[0]!.id;
    const patch = await h.control(`/notes/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: nasty, problems: ['a,b', 'c"d'] }),
    });
    expect(patch.status).toBe(200);
    const rows = parseCsv(await (await h.api('/notes/export?format=csv', { org: ORG1 })).text());
    const row = rows.find((r) => r[0] === id)!;
    expect(row[FIELDS.export.indexOf('content')]).toBe(nasty);
    expect(JSON.parse(row[FIELDS.export.indexOf('problems')]!)).toEqual(['a,b', 'c"d']);
    expect(csvCell(null)).toBe('');
  });
});

describe('GET /sessions/{sessionId}/notes', () => {
  it('NOTE-021: session, patient and notes', async () => {
    const s = ready(ORG1);
    const { body } = await get<{ data: { session: S['Session']; patient: S['NotePatientContext']; notes: S['NoteDetail'][] } }>(
      `/sessions/${s.id}/notes`,
    );
    valid('Session', body.data.session);
    valid('NotePatientContext', body.data.patient);
    for (const n of body.data.notes) valid('NoteDetail', n);
    expect(body.data.session.id).toBe(s.id);
    expect(body.data.patient.id).toBe(s.patient_id);
    expect(body.data.notes.map((n) => n.id).sort()).toEqual(
      notesOf(ORG1)
        .filter((n) => n.session_id === s.id)
        .map((n) => n.id)
        .sort(),
    );
  });
  it('NOTE-022: 404 for a session of another organization', async () => {
    expect((await get(`/sessions/${ready(ORG1).id}/notes`, ORG2)).status).toBe(404);
  });
});

describe('POST /sessions/{sessionId}/notes/regenerate', () => {
  const path = (id: string) => `/sessions/${id}/notes/regenerate`;

  it('REGEN-001 REGEN-008 REGEN-014: 202 queued, then the note content is replaced, updated_at bumped, NOTE_REGENERATED', async () => {
    const s = ready(ORG1);
    const before = (await get<{ data: { notes: S['NoteDetail'][] } }>(`/sessions/${s.id}/notes`)).body.data.notes.at(-1)!;
    const res = await post(path(s.id));
    expect(res.status).toBe(202);
    const body = await res.json();
    valid('RegenerateAccepted', body);
    expect(body).toMatchObject({ data: { session_id: s.id, status: 'queued' } });
    const after = await waitFor(async () => {
      const n = (await get<{ data: { notes: S['NoteDetail'][] } }>(`/sessions/${s.id}/notes`)).body.data.notes.find(
        (x) => x.id === before.id,
      )!;
      return n.content !== before.content && n;
    });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(h.events).toEqual([
      {
        type: 'note',
        org: ORG1,
        kind: 'NOTE_REGENERATED',
        note: { id: before.id, session_id: s.id, patient_id: s.patient_id, template_id: after.template_id },
        source: 'api',
      },
    ]);
  });

  it('REGEN-006: template_id switches the template; an unknown one is a 400', async () => {
    const s = ready(ORG1);
    const other = (seed.templates as SeedTemplate[]).find((t) => t.organization_id === ORG1 && t.id !== s.template_id)!;
    expect((await post(path(s.id), { template_id: other.id, model: 'fast' })).status).toBe(202);
    await waitFor(() => h.events.length === 1);
    const notes = (await get<{ data: { notes: S['NoteDetail'][] } }>(`/sessions/${s.id}/notes`)).body.data.notes;
    expect(notes.at(-1)!.template_id).toBe(other.id);
    expect(notes.at(-1)!.template_name).toBe(other.name);
    const foreign = (seed.templates as SeedTemplate[]).find((t) => t.organization_id === ORG2)!;
    const bad = await post(path(s.id), { template_id: foreign.id });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ details: { template_id: expect.any(String) } });
  });

  it('REGEN-009 REGEN-020: 400 for a bad model, an unknown field, malformed JSON, a bad key; 415 for a non-JSON body', async () => {
    const s = ready(ORG1);
    for (const body of [{ model: 'turbo' }, { colour: 'red' }, { template_id: 'nope' }, '{"model":'])
      expect((await post(path(s.id), body)).status, JSON.stringify(body)).toBe(400);
    expect((await post(path(s.id), undefined, { 'idempotency-key': 'k'.repeat(256) })).status).toBe(400);
    const text = await h.api(path(s.id), { method: 'POST', org: ORG1, headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(text.status).toBe(415);
    expect(h.clock.pending()).toBe(0);
  });

  it('REGEN-011 REGEN-012 REGEN-013: 404 other org, 409 not ready, 503 under the fault', async () => {
    const s = ready(ORG1);
    expect((await post(path(s.id), undefined, {}, ORG2)).status).toBe(404);
    const notReady = sessionsOf(ORG1).find((x) => x.transcript.status !== 'completed')!;
    const r409 = await post(path(notReady.id));
    expect(r409.status).toBe(409);
    expect(await r409.json()).toEqual({ error: expect.any(String) });
    h.faults.set('regeneration-unavailable');
    const r503 = await post(path(s.id));
    expect(r503.status).toBe(503);
    expect(await r503.json()).toEqual({ error: expect.any(String) });
    expect((await post(path(s.id))).status).toBe(202);
  });

  it('REGEN-003 REGEN-019: the same Idempotency-Key answers the same 202 and regenerates once', async () => {
    const s = ready(ORG1);
    const first = await post(path(s.id), undefined, { 'idempotency-key': 'retry-1' });
    const second = await post(path(s.id), undefined, { 'idempotency-key': 'retry-1' });
    expect(second.status).toBe(202);
    expect(await second.json()).toEqual(await first.json());
    await waitFor(() => h.events.length === 1);
    await new Promise((r) => setTimeout(r, REGENERATION_MS.balanced! * h.clock.timeScale * 2));
    expect(h.events).toHaveLength(1);
    // The same key on another session is another request.
    const other = sessionsOf(ORG1).filter(
      (x) => x.transcript.status === 'completed' && notesOf(ORG1).some((n) => n.session_id === x.id),
    )[1]!;
    expect((await post(path(other.id), undefined, { 'idempotency-key': 'retry-1' })).status).toBe(202);
    await waitFor(() => h.events.length === 2);
  });

  it('REGEN-004: a key is remembered for at least an hour, then forgotten', async () => {
    const s = ready(ORG1);
    await post(path(s.id), undefined, { 'idempotency-key': 'k' });
    h.clock.shift(60 * 60 * 1000 + 1);
    await post(path(s.id), undefined, { 'idempotency-key': 'k' });
    await waitFor(() => h.events.length === 1);
    h.clock.shift(IDEMPOTENCY_WINDOW_MS);
    await post(path(s.id), undefined, { 'idempotency-key': 'k' });
    await waitFor(() => h.events.length === 2);
  });

  it('a late run never overwrites a newer one', async () => {
    const s = ready(ORG1);
    await post(path(s.id), { model: 'detailed' }); // run 1, slow
    await post(path(s.id), { model: 'fast' }); // run 2, fast
    await waitFor(() => h.events.length === 1);
    await new Promise((r) => setTimeout(r, REGENERATION_MS.detailed! * h.clock.timeScale * 2));
    expect(h.events).toHaveLength(1);
    const note = (await get<{ data: { notes: S['NoteDetail'][] } }>(`/sessions/${s.id}/notes`)).body.data.notes.at(-1)!;
    expect(note.content).toContain('version 2');
  });

  it('resume() re-queues regenerations that were waiting', async () => {
    const s = ready(ORG1);
    await post(path(s.id));
    h.clock.close();
    h.feature('notes').resume!();
    await waitFor(() => h.events.length === 1);
  });
});

describe('control routes', () => {
  it('EVT-004: finalize writes the session note (NOTE_CREATED) and makes the session ready', async () => {
    const s = sessionsOf(ORG1).find((x) => x.transcript.status !== 'completed')!;
    const res = await h.control(`/sessions/${s.id}/finalize`, { method: 'POST' });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: S['NoteDetail'] };
    valid('NoteDetail', data);
    expect(h.events).toEqual([
      {
        type: 'note',
        org: ORG1,
        kind: 'NOTE_CREATED',
        note: { id: data.id, session_id: s.id, patient_id: s.patient_id, template_id: s.template_id },
        source: 'session',
      },
    ]);
    expect((await get(`/notes/${data.id}`)).status).toBe(200);
    expect((await post(`/sessions/${s.id}/notes/regenerate`)).status).toBe(202);
    expect((await h.control(`/sessions/${s.id}/finalize`, { method: 'POST' })).status).toBe(409);
    expect((await h.control('/sessions/0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f/finalize', { method: 'POST' })).status).toBe(404);
    const bad = await h.control(`/sessions/${s.id}/finalize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"x":1}',
    });
    expect(bad.status).toBe(400);
  });

  it('EVT-006: PATCH edits a note (NOTE_UPDATED); bad bodies are 400 and change nothing', async () => {
    const id = notesOf(ORG1)[0]!.id;
    const patch = (body: string, type = 'application/json') =>
      h.control(`/notes/${id}`, { method: 'PATCH', headers: { 'content-type': type }, body });
    const before = (await get<{ data: S['NoteDetail'] }>(`/notes/${id}`)).body.data;
    for (const body of ['{"content":5}', '{"id":"x"}', '{}', '[]', '{"icd10_codes":{"F1":3}}', 'not json'])
      expect((await patch(body)).status, body).toBe(400);
    expect((await patch('{"content":"x"}', 'text/plain')).status).toBe(415);
    expect((await get<{ data: S['NoteDetail'] }>(`/notes/${id}`)).body.data).toEqual(before);
    expect(h.events).toHaveLength(0);
    const ok = await patch(JSON.stringify({ content: 'Edited', cpt_codes: { '90834': 'Psychotherapy, 45 minutes' } }));
    expect(ok.status).toBe(200);
    const after = (await get<{ data: S['NoteDetail'] }>(`/notes/${id}`)).body.data;
    expect(after.content).toBe('Edited');
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(h.events).toMatchObject([{ kind: 'NOTE_UPDATED', note: { id }, source: null }]);
  });
});
