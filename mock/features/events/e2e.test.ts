// End to end through startMock(): a resource module reports an event, the simulator delivers it to a loopback
// receiver registered through the control API, and the payload's URL fetches the resource from the mock.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../platform/deps.ts';
import { makePdf } from '../documents/sample-files.ts';
import { startMock, type RunningMock } from '../../server.ts';
import { eventsContract } from './contract.ts';
import { decodeBody, startReceiver, type Receiver } from '../../../spec/runtime/webhook-receiver.ts';

const contract = eventsContract();
let mock: RunningMock;
let rcv: Receiver;
let key: string;
let org: string;
let createdNoteId: string | undefined;
const TEMPLATE_ID = '6f1d7a52-3c4b-4e8f-9a10-2b3c4d5e6f70';
const SESSION_ID = '7a2e8b63-4d5c-4f90-8b21-3c4d5e6f7081';

/** The default seed plus a template and a recorded session without a note, ready to be finalized. */
function seedWithSession(): SeedFile {
  const seed = JSON.parse(readFileSync(new URL('../../seed/default.json', import.meta.url), 'utf8')) as SeedFile;
  const orgId = seed.organizations[0]!.id;
  const patient = (seed.patients as Array<{ id: string; organization_id: string; provider_id: string }>).find(
    (p) => p.organization_id === orgId,
  )!;
  const templates = (seed.templates as unknown[] | undefined) ?? [];
  const sessions = (seed.sessions as unknown[] | undefined) ?? [];
  return {
    ...seed,
    templates: [...templates, { organization_id: orgId, id: TEMPLATE_ID, name: 'E2E SOAP', note_type: 'SOAP', specialty: null }],
    sessions: [
      ...sessions,
      {
        organization_id: orgId,
        id: SESSION_ID,
        patient_id: patient.id,
        provider_id: patient.provider_id,
        template_id: TEMPLATE_ID,
        transcript: { status: 'completed', text: 'Hello.' },
      },
    ],
  };
}

beforeAll(async () => {
  mock = await startMock({
    port: 0,
    mode: 'engine-only',
    seed: seedWithSession(),
    timeScale: 0.01,
    allowPrivateWebhooks: true,
    quiet: true,
  });
  rcv = await startReceiver();
  org = mock.seed.organizations[0]!.id;
  key = mock.seed.keys.find((k) => k.organization_id === org && k.state === 'active' && k.scopes.includes('*'))!.key;
});
afterAll(async () => {
  await rcv?.close();
  await mock?.close();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${mock.url}${path}`, { ...init, headers: { 'x-api-key': key, ...(init.headers as Record<string, string>) } });
const control = (path: string, body?: unknown) =>
  fetch(
    `${mock.controlUrl}${path}`,
    body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );

async function register(event: string, format = 'JSON'): Promise<string> {
  const res = await control('/webhooks', {
    name: `e2e ${event}`,
    url: `${rcv.url}?event=${event}`,
    event,
    format,
    headers: { 'X-Webhook-Secret': 'e2e' },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

async function deliveredFor(webhookId: string, n = 1, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const list = (
      (await (await fetch(`${mock.controlUrl}/deliveries?webhook_id=${webhookId}`)).json()) as {
        data: Array<{ state: string; payload: Record<string, string | null> }>;
      }
    ).data;
    if (list.filter((d) => d.state !== 'pending').length >= n) return list;
    if (Date.now() > end) throw new Error(`no settled delivery for ${webhookId} within ${timeoutMs} ms: ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('events end to end through startMock', () => {
  it('EVT-007, EVT-008, EVT-003, EVT-023: an upload whose extraction completes sends DOCUMENT_STATUS_CHANGED; document_url finds the document', async () => {
    const hook = await register('DOCUMENT_STATUS_CHANGED', 'XML');
    const patients = (await (await api('/patients?limit=1')).json()) as { data: Array<{ id: string }> };
    const patientId = patients.data[0]!.id;
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(makePdf(['Referral letter']))], { type: 'application/pdf' }), 'referral.pdf');
    form.append('external_id', `e2e-${Date.now()}`);
    const up = await api(`/patients/${patientId}/documents`, { method: 'POST', body: form });
    expect(up.status, await up.clone().text()).toBe(201);
    const docId = ((await up.json()) as { data: { id: string } }).data.id;

    const [d] = await deliveredFor(hook);
    expect(d!.state).toBe('delivered');
    const got = rcv.received.find((r) => r.path.includes('DOCUMENT_STATUS_CHANGED'))!;
    expect(got.headers['content-type']).toBe('application/xml');
    expect(got.headers['x-webhook-secret']).toBe('e2e');
    const body = decodeBody(got);
    expect(contract.byEvent.get('DOCUMENT_STATUS_CHANGED')!.validate(body)).toBe(true);
    expect(body).toMatchObject({ document_id: docId, patient_id: patientId, status: 'completed', error: null });
    const lookup = (await (await api(body.document_url!.slice(mock.url.length))).json()) as { data: Array<{ id: string }> };
    expect(lookup.data.map((x) => x.id)).toEqual([docId]);
  });

  it('EVT-004, EVT-016: finalizing a session sends NOTE_CREATED; note_url fetches the note', async () => {
    const hook = await register('NOTE_CREATED');
    const sessionId = SESSION_ID;
    const fin = await control(`/sessions/${sessionId}/finalize`, {});
    expect(fin.status, await fin.clone().text()).toBe(201);

    const [d] = await deliveredFor(hook);
    expect(d!.state).toBe('delivered');
    const got = rcv.received.find((r) => r.path.includes('NOTE_CREATED'))!;
    const body = decodeBody(got);
    expect(contract.byEvent.get('NOTE_CREATED')!.validate(body)).toBe(true);
    expect(body.session_id).toBe(sessionId);
    expect(body.note_url).toBe(`${mock.url}/notes/${body.note_id}`);
    createdNoteId = body.note_id!;
    const note = await api(`/notes/${body.note_id}`);
    expect(note.status).toBe(200);
  });
  it('EVT-005, EVT-006, EVT-042: editing then regenerating the note sends NOTE_UPDATED and NOTE_REGENERATED for the same note', async () => {
    const updated = await register('NOTE_UPDATED', 'Form Data');
    const regenerated = await register('NOTE_REGENERATED', 'XML');
    // The note the finalize test created (tests in a file run in order).
    const noteId = createdNoteId ?? '';
    expect(noteId).not.toBe('');
    const patch = await fetch(`${mock.controlUrl}/notes/${noteId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Edited by the e2e test.' }),
    });
    expect(patch.status, await patch.clone().text()).toBe(200);
    const regen = await api(`/sessions/${SESSION_ID}/notes/regenerate`, { method: 'POST' });
    expect(regen.status, await regen.clone().text()).toBeLessThan(300);

    const [u] = await deliveredFor(updated);
    const [r] = await deliveredFor(regenerated, 1, 15_000);
    expect(u!.state).toBe('delivered');
    expect(r!.state).toBe('delivered');
    const bodies = ['NOTE_UPDATED', 'NOTE_REGENERATED'].map((e) => decodeBody(rcv.received.find((x) => x.path.includes(`event=${e}`))!));
    for (const b of bodies) expect(b.note_id).toBe(noteId);
    expect(bodies[0]!.event).toBe('NOTE_UPDATED');
    expect(bodies[1]!.event).toBe('NOTE_REGENERATED');
  });
});
