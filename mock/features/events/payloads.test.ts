import { describe, expect, it } from 'vitest';
import { parseWebhook } from '../../../client/webhooks.ts';
import { loadBundle } from '../../../spec/runtime/bundle.ts';
import type { JsonObject } from '../../../spec/runtime/json-pointer.ts';
import { eventsContract } from './contract.ts';
import {
  decodeWebhookBody,
  encodeWebhookBody as encode,
  WEBHOOK_FORMAT_NAMES as FORMAT_NAMES,
  WEBHOOK_FORMATS as FORMATS,
} from '../../../spec/runtime/webhook-codec.ts';
import { documentPayload, notePayload } from './payloads.ts';

const BASE = 'http://127.0.0.1:4010/ext-api/v1';
const AT = new Date('2026-11-02T16:05:12.000Z');
const note = {
  id: '0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f',
  session_id: '5f4e3d2c-1b0a-4987-8654-3210fedcba98',
  patient_id: '7281928374650192837',
  template_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
};
const doc = { id: '2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f', patient_id: '7281928374650192837' };
const contract = eventsContract();

describe('event contract read from the spec', () => {
  it('EVT-047: takes the event kinds from the webhooks keys and a schema for each', () => {
    const bundle = loadBundle();
    expect(contract.kinds).toEqual(Object.keys(bundle.webhooks as JsonObject));
    for (const kind of contract.kinds) expect(contract.byEvent.get(kind)!.fields.length).toBeGreaterThan(0);
  });

  it('offers exactly the media types the spec lists for deliveries', () => {
    for (const c of contract.byEvent.values()) expect([...c.mediaTypes].sort()).toEqual(Object.values(FORMATS).sort());
  });
});

describe('payloads: EVT-002, identifiers only, exactly the spec schemas', () => {
  it.each(['NOTE_CREATED', 'NOTE_REGENERATED', 'NOTE_UPDATED'] as const)(
    'EVT-012..017: %s validates, with a millisecond timestamp and an absolute note_url',
    (kind) => {
      const built = notePayload(kind, note, null, AT, BASE);
      expect(built).toMatchObject({ ok: true });
      if (!built.ok) return;
      expect(Object.keys(built.payload)).toEqual(contract.byEvent.get(kind)!.fields);
      expect(built.payload.timestamp).toBe('2026-11-02T16:05:12.000Z');
      expect(built.payload.note_url).toBe(`${BASE}/notes/${note.id}`);
      expect(built.payload.source).toBeNull();
      expect(built.payload.event).toBe(kind);
    },
  );

  it('EVT-046: passes a string source through and strips a trailing slash of the base URL', () => {
    const built = notePayload('NOTE_CREATED', note, 'session', AT, `${BASE}/`);
    expect(built.ok && built.payload).toMatchObject({ source: 'session', note_url: `${BASE}/notes/${note.id}` });
  });

  it('EVT-023: DOCUMENT_STATUS_CHANGED with an external_id points at the external_id lookup (url-encoded)', () => {
    const built = documentPayload({ ...doc, external_id: 'ehr doc/77&x', status: 'completed', error: null }, AT, BASE);
    expect(built).toMatchObject({ ok: true });
    if (!built.ok) return;
    expect(Object.keys(built.payload)).toEqual(contract.byEvent.get('DOCUMENT_STATUS_CHANGED')!.fields);
    expect(built.payload.document_url).toBe(`${BASE}/patients/${doc.patient_id}/documents?external_id=ehr%20doc%2F77%26x`);
    expect(built.payload.error).toBeNull();
    expect(built.payload.external_id).toBe('ehr doc/77&x');
  });

  it('EVT-020, EVT-023: DOCUMENT_STATUS_CHANGED without an external_id points at the patient document collection', () => {
    const built = documentPayload({ ...doc, external_id: null, status: 'failed', error: 'Unreadable scan' }, AT, BASE);
    expect(built.ok && built.payload).toMatchObject({
      document_url: `${BASE}/patients/${doc.patient_id}/documents`,
      external_id: null,
      status: 'failed',
      error: 'Unreadable scan',
    });
  });

  it('EVT-022: a failure without a reason still carries an error string; a success never does', () => {
    const failed = documentPayload({ ...doc, external_id: null, status: 'failed', error: null }, AT, BASE);
    const done = documentPayload({ ...doc, external_id: null, status: 'completed', error: 'ignored' }, AT, BASE);
    expect(failed.ok && typeof failed.payload.error).toBe('string');
    expect(done.ok && done.payload.error).toBeNull();
  });

  it('refuses a payload that breaks the schema instead of sending it', () => {
    const built = notePayload('NOTE_CREATED', { ...note, id: 'not-a-uuid' }, null, AT, BASE);
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.error).toMatch(/NoteEvent: .*note_id/);
    const badPatient = documentPayload({ ...doc, patient_id: 'abc', external_id: null, status: 'completed', error: null }, AT, BASE);
    expect(badPatient.ok).toBe(false);
  });
});

describe('encodings of a built payload: EVT-028, EVT-043, EVT-044 (the codec itself: spec/runtime/webhook-codec.test.ts)', () => {
  const built = documentPayload({ ...doc, external_id: 'a<b>&"c\'', status: 'completed', error: null }, AT, BASE);
  const payload = built.ok ? built.payload : {};

  it.each(FORMAT_NAMES)('%s lists the fields in schema order and decodes back', (format) => {
    const e = encode(payload, format);
    expect(e.contentType).toBe(FORMATS[format]);
    const back = decodeWebhookBody(e.body, e.contentType).payload as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(contract.byEvent.get('DOCUMENT_STATUS_CHANGED')!.fields);
    expect(back).toEqual(format === 'Form Data' ? { ...payload, error: '' } : payload);
  });
});

describe('encodings read back by the client (client/webhooks.ts parseWebhook): EVT-028, EVT-043, EVT-044', () => {
  const samples = [
    ...(['NOTE_CREATED', 'NOTE_REGENERATED', 'NOTE_UPDATED'] as const).map((k) => notePayload(k, note, null, AT, BASE)),
    notePayload('NOTE_UPDATED', note, 'api', AT, BASE),
    documentPayload({ ...doc, external_id: 'ehr&<77>', status: 'completed', error: null }, AT, BASE),
    documentPayload({ ...doc, external_id: null, status: 'failed', error: 'Unreadable "scan" <p1>' }, AT, BASE),
  ];
  it.each(FORMAT_NAMES)('%s: every event kind parses back to the same payload', (format) => {
    for (const built of samples) {
      if (!built.ok) throw new Error(built.error);
      const { body, contentType } = encode(built.payload, format);
      expect(parseWebhook({ body, contentType })).toEqual(built.payload);
    }
  });
});
