// The webhook helpers on the three delivery formats, bad bodies, dedupe keys and the static header check.
import { describe, expect, it } from 'vitest';
import { encodeWebhookBody, WEBHOOK_FORMAT_NAMES, type WebhookFormat } from '../spec/runtime/webhook-codec.ts';
import { startReceiver } from '../spec/runtime/webhook-receiver.ts';
import { checkStaticHeader, parseWebhook, webhookDedupeKey, WebhookParseError } from './webhooks.ts';

const note = {
  event: 'NOTE_REGENERATED',
  note_id: '0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f',
  session_id: '5f4e3d2c-1b0a-4987-8654-3210fedcba98',
  patient_id: '7281928374650192',
  template_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  source: null,
  note_url: 'https://api.clinical-records.test/ext-api/v1/notes/0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f',
  timestamp: '2026-11-02T16:05:12.345Z',
} as const;
const docEvent = {
  event: 'DOCUMENT_STATUS_CHANGED',
  document_id: '2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f',
  patient_id: '7281928374650192',
  external_id: null,
  status: 'failed',
  error: 'unreadable PDF',
  document_url: 'https://api.clinical-records.test/ext-api/v1/patients/7281928374650192/documents',
  timestamp: '2026-11-02T16:05:12.345Z',
} as const;

const text = (payload: Record<string, string | null>, format: WebhookFormat) =>
  new TextDecoder().decode(encodeWebhookBody(payload, format).body);
const toXml = (payload: Record<string, string | null>) => text(payload, 'XML');
const toForm = (payload: Record<string, string | null>) => text(payload, 'Form Data');

describe('parseWebhook', () => {
  for (const payload of [note, docEvent])
    it(`reads ${payload.event} from JSON, XML and Form Data alike`, () => {
      expect(parseWebhook({ body: JSON.stringify(payload), contentType: 'application/json; charset=utf-8' })).toEqual(payload);
      expect(parseWebhook({ body: Buffer.from(JSON.stringify(payload)), contentType: 'application/json' })).toEqual(payload);
      expect(parseWebhook({ body: payload, contentType: 'application/json' })).toEqual(payload);
      expect(parseWebhook({ body: toXml(payload), contentType: 'application/xml' })).toEqual(payload);
      expect(parseWebhook({ body: toForm(payload), contentType: 'application/x-www-form-urlencoded' })).toEqual(payload);
    });

  it('keeps a non-null value of a nullable field, and escapes in XML', () => {
    const withSource = { ...note, source: 'a&b <api>' };
    expect(parseWebhook({ body: toXml(withSource), contentType: 'text/xml' })).toEqual(withSource);
    expect(parseWebhook({ body: toForm(withSource), contentType: 'application/x-www-form-urlencoded' })).toEqual(withSource);
    const completed = { ...docEvent, status: 'completed', error: null, external_id: 'ehr-doc-77' } as const;
    expect(parseWebhook({ body: toForm(completed), contentType: 'application/x-www-form-urlencoded' })).toEqual(completed);
  });

  it('reads a delivery as a Node server receives it (Buffer body, IncomingHttpHeaders), in each format', async () => {
    const receiver = await startReceiver();
    try {
      for (const format of WEBHOOK_FORMAT_NAMES) {
        const { body, contentType } = encodeWebhookBody(docEvent, format);
        await fetch(receiver.url, { method: 'POST', body, headers: { 'content-type': contentType, 'x-crc-secret': 's3cret' } });
      }
      for (const r of await receiver.waitFor(WEBHOOK_FORMAT_NAMES.length)) {
        expect(parseWebhook({ body: r.body, contentType: r.headers['content-type'] })).toEqual(docEvent);
        expect(checkStaticHeader(r.headers, 'X-CRC-Secret', 's3cret')).toBe(true);
      }
    } finally {
      await receiver.close();
    }
  });

  it('narrows by event kind', () => {
    const e = parseWebhook({ body: JSON.stringify(docEvent), contentType: 'application/json' });
    if (e.event === 'DOCUMENT_STATUS_CHANGED') expect(e.status).toBe('failed');
    else throw new Error('expected a document event');
  });

  it('gives a clear error for every bad body', () => {
    const bad: Array<[unknown, string | null | undefined, RegExp]> = [
      ['{not json', 'application/json', /JSON body does not parse/],
      [
        JSON.stringify({ ...note, event: 'NOTE_DELETED' }),
        'application/json',
        /unknown event "NOTE_DELETED": expected one of NOTE_CREATED/,
      ],
      [
        JSON.stringify({ ...note, note_id: 'nope' }),
        'application/json',
        /NOTE_REGENERATED payload does not match its schema: \/note_id must match format "uuid"/,
      ],
      [JSON.stringify({ ...note, extra: 1 }), 'application/json', /must NOT have additional properties/],
      [JSON.stringify({ ...note, patient_id: 7281928374650192 }), 'application/json', /\/patient_id must be string/],
      [JSON.stringify({ ...docEvent, status: 'pending' }), 'application/json', /\/status must be equal to one of the allowed values/],
      ['[]', 'application/json', /payload must be an object/],
      [toXml(note).replace(/webhook/g, 'event'), 'application/xml', /one <webhook> root element, found <event>/],
      [toXml(note).replace('</webhook>', '<note_id>x</note_id></webhook>'), 'application/xml', /<note_id> appears more than once/],
      ['<webhook><a>', 'application/xml', /XML body does not parse/],
      [`${toForm(note)}&note_id=x`, 'application/x-www-form-urlencoded', /note_id appears more than once/],
      [toForm({ ...note, timestamp: '2026-11-02T16:05:12Z' }), 'application/x-www-form-urlencoded', /\/timestamp must match pattern/],
      [JSON.stringify(note), 'text/plain', /unsupported Content-Type "text\/plain"/],
      [JSON.stringify(note), undefined, /unsupported Content-Type ""/],
      [{ a: 1 }, 'application/xml', /must be a string or bytes/],
    ];
    for (const [body, contentType, message] of bad) {
      const err = (() => {
        try {
          parseWebhook({ body: body as string, contentType });
        } catch (e) {
          return e;
        }
      })();
      expect(err, String(message)).toBeInstanceOf(WebhookParseError);
      expect((err as Error).message).toMatch(message);
    }
  });
});

describe('webhookDedupeKey', () => {
  it('is event + resource id + timestamp, so one note yields distinct keys per event and a retry the same key', () => {
    expect(webhookDedupeKey(note)).toBe(`NOTE_REGENERATED:${note.note_id}:${note.timestamp}`);
    expect(webhookDedupeKey({ ...note, event: 'NOTE_CREATED' })).not.toBe(webhookDedupeKey(note));
    expect(webhookDedupeKey({ ...note })).toBe(webhookDedupeKey(note));
    expect(webhookDedupeKey(docEvent)).toBe(`DOCUMENT_STATUS_CHANGED:${docEvent.document_id}:${docEvent.timestamp}`);
    expect(webhookDedupeKey({ ...docEvent, status: 'completed', error: null, timestamp: '2026-11-02T16:06:00.000Z' })).not.toBe(
      webhookDedupeKey(docEvent),
    );
  });
});

describe('checkStaticHeader', () => {
  it('matches the exact secret, case-insensitively on the header name, in Headers and plain objects', () => {
    expect(checkStaticHeader(new Headers({ 'X-Webhook-Secret': 's3cret' }), 'x-webhook-secret', 's3cret')).toBe(true);
    expect(checkStaticHeader({ 'x-webhook-secret': 's3cret' }, 'X-Webhook-Secret', 's3cret')).toBe(true);
    expect(checkStaticHeader({ 'x-webhook-secret': 's3cre' }, 'X-Webhook-Secret', 's3cret')).toBe(false);
    expect(checkStaticHeader({ 'x-webhook-secret': 's3cretX' }, 'X-Webhook-Secret', 's3cret')).toBe(false);
    expect(checkStaticHeader({}, 'X-Webhook-Secret', 's3cret')).toBe(false);
    expect(checkStaticHeader({ 'x-webhook-secret': ['s3cret', 's3cret'] }, 'X-Webhook-Secret', 's3cret')).toBe(false);
    expect(() => checkStaticHeader({}, 'X-Webhook-Secret', '')).toThrow(/secret must be a non-empty string/);
  });
});
