// The suite's receiver: every documented delivery format read into the payload (the kit's layouts and others the
// source allows), and scripted answers given only to deliveries about the scripted resources.
import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Receiver } from './receiver.ts';
import { LAYOUTS } from '../testing/service-sender.ts';

const documentEvent = (over: Record<string, string | null> = {}) => ({
  event: 'DOCUMENT_STATUS_CHANGED',
  document_id: randomUUID(),
  patient_id: '123456789012345678901234567890',
  external_id: null,
  status: 'completed',
  error: null,
  document_url: 'https://api.example.org/ext-api/v1/patients/123456789012345678901234567890/documents',
  timestamp: '2026-11-26T10:00:00.123Z',
  ...over,
});

const noteEvent = () => ({
  event: 'NOTE_UPDATED',
  note_id: randomUUID(),
  session_id: randomUUID(),
  patient_id: '42',
  template_id: randomUUID(),
  source: null,
  note_url: 'https://api.example.org/ext-api/v1/notes/x',
  timestamp: '2026-11-26T10:00:00.123Z',
});

let receiver: Receiver;
afterEach(() => receiver?.close());

async function listening(): Promise<Receiver> {
  receiver = new Receiver();
  await receiver.listen(0);
  return receiver;
}

/** POSTs one delivery; the status the receiver answered. */
async function send(payload: Record<string, string | null>, layout = 'JSON'): Promise<number> {
  const e = LAYOUTS[layout]!(payload);
  const r = await fetch(`http://127.0.0.1:${receiver.port}/hooks`, {
    method: 'POST',
    headers: { 'content-type': e.contentType },
    body: e.body,
  });
  return r.status;
}

describe('receiver: delivery formats', () => {
  for (const layout of Object.keys(LAYOUTS))
    it(`reads ${layout} deliveries into the payload JSON would carry`, async () => {
      await listening();
      const doc = documentEvent({ external_id: 'crc-x-1', status: 'failed', error: 'Text extraction failed & <stopped>' });
      const note = noteEvent();
      for (const p of [doc, documentEvent(), note]) expect(await send(p, layout)).toBe(200);
      const read = receiver.deliveries.map((d) => d.json);
      expect(read).toEqual([doc, documentEvent({ document_id: read[1]!.document_id as string }), note]);
      expect(receiver.deliveries.map((d) => d.format)).toEqual(Array(3).fill(layout.split(',')[0]));
      expect(receiver.deliveries.every((d) => d.unreadable === undefined)).toBe(true);
    });

  it('says why a body is not a payload, and answers it 200', async () => {
    await listening();
    const r = await fetch(`http://127.0.0.1:${receiver.port}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(r.status).toBe(200);
    expect(receiver.deliveries[0]).toMatchObject({ json: undefined, unreadable: expect.stringMatching(/neither JSON, XML nor Form Data/) });
  });
});

describe('receiver: scripted answers', () => {
  it('answers only the deliveries about the scripted resource, even when another arrives first', async () => {
    await listening();
    const mine = documentEvent();
    const other = documentEvent();
    receiver.answerFor([mine.document_id], [500, 500]);
    // A late delivery from an earlier check arrives first, then this check's three attempts, with another between.
    expect(await send(other)).toBe(200);
    expect(await send(mine, 'XML')).toBe(500);
    expect(await send(other)).toBe(200);
    expect(await send(mine, 'XML')).toBe(500);
    expect(await send(mine, 'XML')).toBe(200);
    expect(receiver.about(mine.document_id).map((d) => d.answered)).toEqual([500, 500, 200]);
    expect(receiver.about(other.document_id).map((d) => d.answered)).toEqual([200, 200]);
  });

  it('matches a document by its external_id before its id is known, by its id once added, and ends on release', async () => {
    await listening();
    const ext = `crc-${randomUUID()}`;
    const script = receiver.answerFor([ext], [503, 503, 503]);
    expect(await send(documentEvent({ external_id: ext }), 'Form Data')).toBe(503);
    const known = documentEvent();
    script.add(known.document_id);
    expect(await send(known, 'Form Data')).toBe(503);
    expect(await send(noteEvent())).toBe(200);
    script.release();
    expect(await send(known)).toBe(200);
  });

  it('keeps scripts of two checks apart', async () => {
    await listening();
    const [a, b] = [documentEvent(), noteEvent()];
    receiver.answerFor([a.document_id], [500]);
    receiver.answerFor([b.note_id], [429, 408]);
    expect([await send(b), await send(a), await send(b), await send(a), await send(b)]).toEqual([429, 500, 408, 200, 200]);
  });
});
