// The request journal: bounded (ring and bodies), redacted (no key ever shown), filtered, emptied by DELETE and by
// reset. Unit tests of the ring and the query parser, then the engine through app.fetch (the loopback peer given as
// the adapter's env, as the node adapter gives it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.ts';
import { nodeRuntime } from '../runtime/node.ts';
import { readSeedFile } from '../seed/load.ts';
import { createRedactor, REDACTED, withoutKey } from './redact.ts';
import { keptEntry } from '../testing/journal-entry.ts';
import { JOURNAL_BODY_BYTES, type JournalEntry, type ShownEntry } from './journal-entry.ts';
import { createRequestJournal, parseJournalQuery, type RequestJournal } from './request-journal.ts';

const entry = (status: number, path = '/ext-api/v1/patients') => keptEntry({ status, path });
/** Records `e` with its own times, as record-requests.ts hands them over. */
const add = (j: RequestJournal, e: JournalEntry) => j.record(e, e.started, e.duration);

const same = (s: string) => s;

describe('the ring', () => {
  it('keeps the newest entries up to its capacity, newest first', () => {
    const j = createRequestJournal(3, same);
    for (let i = 0; i < 5; i++) add(j, entry(200 + i));
    expect(j.list({ limit: 10 }).map((e) => e.status)).toEqual([204, 203, 202]);
    expect(j.stats()).toEqual({ recorded: 5, kept: 3, last_id: 5 });
  });

  it('filters by status code or class, path substring, since an id or a time, and stops at the limit', () => {
    const j = createRequestJournal(10, same);
    add(j, entry(200, '/ext-api/v1/patients'));
    add(j, entry(404, '/ext-api/v1/nowhere'));
    add(j, entry(429, '/ext-api/v1/patients'));
    add(j, entry(201, '/ext-api/v1/appointments'));
    expect(j.list({ limit: 10, status: { class: 4 } }).map((e) => e.status)).toEqual([429, 404]);
    expect(j.list({ limit: 10, status: { exact: 404 } }).map((e) => e.id)).toEqual([2]);
    expect(j.list({ limit: 10, path: 'patients' }).map((e) => e.id)).toEqual([3, 1]);
    expect(j.list({ limit: 10, since: { id: 2 } }).map((e) => e.id)).toEqual([4, 3]);
    expect(j.list({ limit: 10, since: { time: Date.now() + 60_000 } })).toEqual([]);
    expect(j.list({ limit: 1 }).map((e) => e.id)).toEqual([4]);
    // Each entry listed with the times it was recorded with (kept beside the ring, not in the entry).
    const past = keptEntry({ started: Date.now() - 120_000, duration: 3 });
    add(j, past);
    expect(j.list({ limit: 1 })[0]).toMatchObject({ id: 5, started: past.started, duration: 3 });
    expect(j.list({ limit: 10, since: { time: Date.now() - 60_000 } }).map((e) => e.id)).toEqual([4, 3, 2, 1]);
  });

  it('is bounded by bytes whatever its capacity: the oldest leave first, the newest stays', () => {
    const j = createRequestJournal(100_000, same, 1024 * 1024);
    const answer = (n: number) =>
      keptEntry({
        status: 200 + n,
        upstream: {
          key: undefined,
          requestHeaders: {},
          response: { status: 200, headers: {}, body: 'x'.repeat(256 * 1024), truncated: true },
          violations: [],
        },
      });
    for (let i = 0; i < 50; i++) add(j, answer(i));
    const kept = j.list({ limit: 100 }).map((e) => e.status);
    expect(kept.length).toBeGreaterThan(1);
    expect(kept.length).toBeLessThanOrEqual(4);
    expect(kept[0]).toBe(249);
    expect(j.stats()).toMatchObject({ recorded: 50, kept: kept.length });
    const huge = createRequestJournal(10, same, 1024);
    add(huge, answer(0));
    expect(huge.stats().kept).toBe(1);
  });

  it('clear empties it and ids keep growing (a poller asking since=<id> misses nothing)', () => {
    const j = createRequestJournal(5, same);
    add(j, entry(200));
    j.clear();
    expect(j.list({ limit: 5 })).toEqual([]);
    add(j, entry(200));
    expect(j.list({ limit: 5, since: { id: 1 } }).map((e) => e.id)).toEqual([2]);
  });

  it('parses the query, naming every bad parameter', () => {
    expect(parseJournalQuery({ limit: '5', status: '4xx', path: '/patients', since: '7' }, 500)).toEqual({
      ok: true,
      filter: { limit: 5, status: { class: 4 }, path: '/patients', since: { id: 7 } },
    });
    const bad = parseJournalQuery({ limit: '0', status: 'bad', since: 'yesterday', path: '', sort: 'x' }, 500);
    expect(bad.ok).toBe(false);
    expect(Object.keys((bad as { details: object }).details).sort()).toEqual(['limit', 'path', 'since', 'sort', 'status']);
    expect(parseJournalQuery({ limit: '501' }, 500).ok).toBe(false);
    expect(parseJournalQuery({ since: '2026-11-23T10:00:00Z' }, 500)).toMatchObject({
      ok: true,
      filter: { since: { time: Date.parse('2026-11-23T10:00:00Z') } },
    });
  });
});

describe('redaction', () => {
  const redact = createRedactor(['crk_all_d7eab8b9111562bb04e2f95b', 'short-key']);
  it('replaces seeded keys, the presented key, key-looking strings and key fields', () => {
    expect(redact('{"note":"crk_all_d7eab8b9111562bb04e2f95b and short-key"}')).toBe(`{"note":"${REDACTED} and ${REDACTED}"}`);
    expect(withoutKey('{"name":"my own wrong-secret"}', 'wrong-secret')).toBe(`{"name":"my own ${REDACTED}"}`);
    expect(redact('x=abc_0123456789abcdef0123')).toBe(`x=${REDACTED}`);
    expect(redact('{"X-API-Key": "anything at all", "apiKey":"zz"}')).toBe(`{"X-API-Key": "${REDACTED}", "apiKey":"${REDACTED}"}`);
    expect(redact('{"name":"Ada Lovelace","mrn":"MRN-001"}')).toBe('{"name":"Ada Lovelace","mrn":"MRN-001"}');
  });
});

describe('the journal in the engine', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine({ runtime: nodeRuntime, seed: () => readSeedFile(), timeScale: 0.01, journalSize: 4 });
  });
  afterAll(async () => {
    await engine?.close();
  });
  const env = { peer: '127.0.0.1' };
  const key = (label: string) => engine.keys.find((k) => k.label === label)!.key;
  const api = (path: string, init: RequestInit = {}) => engine.app.fetch(new Request(`http://127.0.0.1/ext-api/v1${path}`, init), env);
  const control = (path: string, init: RequestInit = {}) =>
    engine.app.fetch(new Request(`http://127.0.0.1/__mock${path}`, { ...init, headers: { host: '127.0.0.1' } }), env);
  const journal = async (query = '') =>
    (await (await control(`/requests${query}`)).json()) as { data: ShownEntry[]; meta: Record<string, number> };
  const post = (body: string, k = key('all')) =>
    api('/patients', { method: 'POST', headers: { 'x-api-key': k, 'content-type': 'application/json' }, body });

  it('records a refused create with its body, the key label, the organization and the error details, never the key', async () => {
    await control('/requests', { method: 'DELETE' });
    const r = await post(JSON.stringify({ name: 'Ada', nickname: key('read') }));
    expect(r.status).toBe(400);
    const [e] = (await journal()).data;
    expect(e).toMatchObject({
      method: 'POST',
      path: '/ext-api/v1/patients',
      status: 400,
      key: 'all',
      organization_id: engine.organizations[0]!.id,
    });
    expect(e!.error).toEqual({ error: 'Validation failed', details: { nickname: expect.any(String) } });
    expect(e!.request.body).toBe(`{"name":"Ada","nickname":"${REDACTED}"}`);
    expect(JSON.stringify(await journal())).not.toMatch(/crk_[a-z_]*[0-9a-f]{24}/);
  });

  it('labels missing and wrong keys, redacts a wrong key sent in the query, and keeps known keys of other states', async () => {
    await api('/patients');
    await api('/patients?api_key=guess-1234', { headers: { 'x-api-key': 'guess-1234' } });
    await api('/patients', { headers: { 'x-api-key': key('expired') } });
    const [expired, wrong, none] = (await journal()).data;
    expect([none!.key, none!.status, wrong!.key, expired!.key, expired!.status]).toEqual(['no key', 401, 'invalid key', 'expired', 401]);
    expect(wrong!.query).toBe(`api_key=${REDACTED}`);
    expect(expired!.error).toEqual({ error: 'API key expired' });
  });

  it('keeps at most its size, and only the first 4 KB of a body', async () => {
    await post(JSON.stringify({ name: 'y'.repeat(JOURNAL_BODY_BYTES * 2) }));
    const { data, meta } = await journal();
    expect(data).toHaveLength(4);
    expect(meta.capacity).toBe(4);
    expect(data[0]!.request).toMatchObject({ truncated: true, bytes: JOURNAL_BODY_BYTES * 2 + 11 });
    expect(data[0]!.request.body).toHaveLength(JOURNAL_BODY_BYTES);
  });

  it('answers filters, refuses bad ones with details, and is emptied by DELETE and by reset', async () => {
    expect((await journal('?status=401&path=/patients')).data.every((e) => e.status === 401)).toBe(true);
    const bad = await control('/requests?limit=5000');
    expect([bad.status, ((await bad.json()) as { details: object }).details]).toEqual([400, { limit: expect.stringContaining('1 to 4') }]);
    await control('/requests', { method: 'DELETE' });
    expect((await journal()).data).toEqual([]);
    await api('/patients');
    expect((await journal()).data).toHaveLength(1);
    await control('/reset', { method: 'POST' });
    expect((await journal()).data).toEqual([]);
  });

  it('reads back the body of an error a route answered without answerError', async () => {
    const plain = await createEngine({
      runtime: nodeRuntime,
      seed: () => readSeedFile(),
      features: [
        () => ({
          name: 'plain',
          routes: (app) => void app.get('/providers', (c) => c.json({ error: 'Plain refusal', details: { x: 'y' } }, 409)),
        }),
      ],
    });
    try {
      await plain.app.fetch(new Request('http://127.0.0.1/ext-api/v1/providers', { headers: { 'x-api-key': key('all') } }), env);
      expect((await plain.journal.read({ limit: 1 }))[0]).toMatchObject({
        status: 409,
        error: { error: 'Plain refusal', details: { x: 'y' } },
      });
    } finally {
      await plain.close();
    }
  });

  it('records nothing with size 0', async () => {
    const off = await createEngine({ runtime: nodeRuntime, seed: () => readSeedFile(), journalSize: 0 });
    try {
      await off.app.fetch(new Request('http://127.0.0.1/ext-api/v1/patients'), env);
      expect(off.journal.stats().recorded).toBe(0);
    } finally {
      await off.close();
    }
  });
});
