// An entry is kept as the request left it and shown derived and redacted: the key's label and organization from the
// key check, the query with the presented key and the seed's keys removed, bodies as text likewise.
import { describe, expect, it } from 'vitest';
import { JOURNAL_BODY_BYTES, showEntry, type JournalEntry } from './journal-entry.ts';
import { keptEntry } from '../testing/journal-entry.ts';
import type { KeyCheck } from './keys.ts';
import { createRedactor, REDACTED } from './redact.ts';

const redact = createRedactor(['crk_all_d7eab8b9111562bb04e2f95b']);
const owner = { label: 'all', organization_id: 'org-1' };
const utf8 = (s: string) => new TextEncoder().encode(s);
const kept = (over: Partial<JournalEntry>) =>
  keptEntry({ id: 7, duration: 12, method: 'POST', status: 201, check: { ok: true, owner } as unknown as KeyCheck, ...over });

describe('showEntry', () => {
  it('derives the label, organization, time, duration and query; a JSON body as text', () => {
    const body = '{"first_name":"Ada"}';
    const e = kept({
      query: 'limit=5',
      body: utf8(body),
      bytes: body.length,
      type: 'application/json',
    });
    const shown = showEntry(e, redact);
    expect(shown).toMatchObject({ id: 7, key: 'all', organization_id: 'org-1', duration_ms: 12, query: 'limit=5' });
    expect(shown.request).toEqual({ content_type: 'application/json', bytes: body.length, body, truncated: false });
    expect(Date.parse(shown.time)).toBe(e.started);
  });

  it('shows a body kept as the text the JSON reader decoded as it is, redacted', () => {
    const body = '{"note":"crk_all_d7eab8b9111562bb04e2f95b é"}';
    const shown = showEntry(kept({ body, bytes: new TextEncoder().encode(body).byteLength, type: 'application/json' }), redact);
    expect(shown.request).toEqual({
      content_type: 'application/json',
      bytes: body.length + 1,
      body: `{"note":"${REDACTED} é"}`,
      truncated: false,
    });
  });

  it("removes a presented key that is none of the seed's, and the seed's, from the query, the body and the error", () => {
    const guess = 'my-guessed-secret';
    const body = `{"note":"${guess} crk_all_d7eab8b9111562bb04e2f95b"}`;
    const shown = showEntry(
      kept({
        query: `k=${guess}`,
        status: 401,
        check: { ok: false, reason: 'unknown' } as KeyCheck,
        presented: guess,
        body: utf8(body),
        bytes: body.length,
        type: 'application/json',
        error: `{"error":"Invalid API key ${guess}"}`,
      }),
      redact,
    );
    expect(shown).toMatchObject({ key: 'invalid key', organization_id: null, query: `k=${REDACTED}` });
    expect(shown.request.body).toBe(`{"note":"${REDACTED} ${REDACTED}"}`);
    expect(shown.error).toEqual({ error: `Invalid API key ${REDACTED}` });
    expect(JSON.stringify(shown)).not.toContain(guess);
  });

  it('says why a body is not shown: not text, a file upload, or never read', () => {
    const show = (over: Partial<JournalEntry>) => showEntry(kept({ check: undefined, ...over }), redact).request;
    expect(show({ body: new Uint8Array([1, 2]), bytes: 2, type: 'application/octet-stream' })).toMatchObject({
      body: null,
      note: 'not kept: not a text body',
    });
    expect(show({ unread: true, bytes: 9000, type: 'multipart/form-data; boundary=x' })).toMatchObject({
      bytes: 9000,
      note: 'not kept: a file upload',
    });
    expect(show({ unread: true, bytes: 12, type: 'application/json' })).toMatchObject({
      body: null,
      note: expect.stringContaining('not read'),
    });
    expect(showEntry(kept({ check: undefined }), redact).key).toBe('no key');
  });

  it('marks a body cut to its first JOURNAL_BODY_BYTES, and an error cut there is shown as text', () => {
    const shown = showEntry(
      kept({
        body: utf8('x'.repeat(JOURNAL_BODY_BYTES)),
        bytes: JOURNAL_BODY_BYTES + 10,
        type: 'text/plain',
        status: 500,
        error: `{"error":"${'e'.repeat(JOURNAL_BODY_BYTES)}"}`,
      }),
      redact,
    );
    expect(shown.request).toMatchObject({ truncated: true, bytes: JOURNAL_BODY_BYTES + 10 });
    expect(typeof shown.error).toBe('string');
    expect((shown.error as string).length).toBe(JOURNAL_BODY_BYTES);
  });
});
