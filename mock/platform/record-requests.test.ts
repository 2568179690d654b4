// What the recorder keeps of a request: references, with the body bounded (its text when the JSON reader decoded it,
// else its bytes, a large body's first bytes copied), a declared body that was never read by its size, the presented
// key only when it is none of the seed's, and its times beside the entry.
import { describe, expect, it } from 'vitest';
import type { EngineContext } from './deps.ts';
import { JOURNAL_BODY_BYTES, type JournalEntry, type RecordedRequest } from './journal-entry.ts';
import type { KeyCheck } from './keys.ts';
import { recordRequests } from './record-requests.ts';
import type { RequestJournal } from './request-journal.ts';

/** A context as the engine's checks leave it (c.get and the request's method, path, URL and headers, web ones too). */
function context(vars: Record<string, unknown>, headers: Record<string, string>, method = 'POST'): EngineContext {
  const url = 'http://127.0.0.1:4010/ext-api/v1/patients?x=1';
  return {
    env: undefined,
    get: (k: string) => vars[k],
    req: { method, path: '/ext-api/v1/patients', url, header: (n: string) => headers[n], raw: { headers: new Headers(headers) } },
  } as unknown as EngineContext;
}

/** The entry kept for a request answered with `status` (an error without errorBody is read back from the answer). */
async function record(vars: Record<string, unknown>, headers: Record<string, string> = {}, status = 201, method = 'POST') {
  const kept: JournalEntry[] = [];
  const journal = {
    record: (e: RecordedRequest, started: number, duration: number) => void kept.push({ ...e, started, duration }),
  } as unknown as RequestJournal;
  const started = Date.now() - 5;
  await recordRequests(journal, false)(context(vars, headers, method), started, new Response(null, { status }));
  expect(kept).toHaveLength(1);
  expect(kept[0]!.started).toBe(started);
  expect(kept[0]!.duration).toBeGreaterThanOrEqual(5);
  return kept[0]!;
}

describe('recordRequests', () => {
  it('keeps a body read as it is, and copies only the first bytes of a larger one', async () => {
    const exact = new Uint8Array(50);
    expect(await record({ requestBody: exact }, { 'content-type': 'application/json' })).toMatchObject({
      body: exact,
      bytes: 50,
      type: 'application/json',
    });
    // The headers by reference, no copy: without the node adapter, the web Request's own.
    const ctx = context({}, { 'x-api-key': 'k' }, 'GET');
    const kept: RecordedRequest[] = [];
    await recordRequests({ record: (e: RecordedRequest) => void kept.push(e) } as unknown as RequestJournal, false)(
      ctx,
      Date.now(),
      new Response(null),
    );
    expect(kept[0]!.headers).toBe(ctx.req.raw.headers);
    const large = (await record({ requestBody: new Uint8Array(9000) })).body as Uint8Array;
    expect([large.byteLength, large.buffer.byteLength]).toEqual([JOURNAL_BODY_BYTES, JOURNAL_BODY_BYTES]);
  });

  it('keeps the text the JSON reader decoded in place of the bytes, whole, and the bytes of a longer one', async () => {
    const text = '{"first_name":"Zoë"}';
    const bytes = new TextEncoder().encode(text);
    expect(await record({ requestBody: bytes, requestText: text })).toMatchObject({ body: text, bytes: bytes.byteLength });
    const long = `"${'é'.repeat(JOURNAL_BODY_BYTES)}"`;
    const longBytes = new TextEncoder().encode(long);
    const e = await record({ requestBody: longBytes, requestText: long });
    expect(e.body).toEqual(longBytes.slice(0, JOURNAL_BODY_BYTES));
    expect(e.bytes).toBe(longBytes.byteLength);
  });

  it('times a request in whole milliseconds, never below 0 when the wall clock was set back meanwhile', async () => {
    const kept: number[] = [];
    const journal = { record: (_e: RecordedRequest, _started: number, duration: number) => void kept.push(duration) };
    const recorder = recordRequests(journal as unknown as RequestJournal, false);
    await recorder(context({}, {}, 'GET'), Date.now() + 60_000, new Response(null, { status: 200 }));
    await recorder(context({}, {}, 'GET'), Date.now() - 1_000, new Response(null, { status: 200 }));
    expect(kept[0]).toBe(0);
    expect(Number.isInteger(kept[1]) && kept[1]! >= 1_000 && kept[1]! < 60_000).toBe(true);
  });

  it('notes a declared body that was never read by its size and type', async () => {
    expect(await record({}, { 'content-length': '300', 'content-type': 'multipart/form-data; boundary=b' }, 401)).toMatchObject({
      unread: true,
      bytes: 300,
      type: 'multipart/form-data; boundary=b',
      body: null,
    });
    expect(await record({}, { 'content-length': '300' }, 200, 'GET')).toMatchObject({ unread: false, bytes: null });
  });

  it('holds the presented key only when the check found it unknown, and the error text as answered', async () => {
    const unknown: KeyCheck = { ok: false, reason: 'unknown' };
    const e = await record({ keyCheck: unknown, errorBody: '{"error":"Invalid API key"}' }, { 'x-api-key': 'guess-1234' }, 401);
    expect([e.presented, e.error]).toEqual(['guess-1234', '{"error":"Invalid API key"}']);
    const known = { ok: true, owner: { label: 'all', organization_id: 'o' } } as unknown as KeyCheck;
    expect((await record({ keyCheck: known }, { 'x-api-key': 'crk_all_d7eab8b9111562bb04e2f95b' })).presented).toBeUndefined();
  });
});
