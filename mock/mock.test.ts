// Integration tests of the mock's platform and of the patients, appointments and providers features, run twice:
// through Prism's validation proxy in --strict mode (every engine response checked against the contract) and
// engine-only. Rule ids of spec/rules.yaml are in the test names.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type MockMode, type RunningMock } from './server.ts';
import { client } from './testing/http.ts';
import { isValidNpi } from './seed/random.ts';
import { RATE_LIMIT_MESSAGE } from './platform/rate-limit.ts';

describe.each<[MockMode, boolean]>([
  ['default', true],
  ['engine-only', false],
])('mock in %s mode (strict=%s)', (mode, strict) => {
  let m: RunningMock;
  let api: ReturnType<typeof client>;
  const violations: string[] = [];
  const org2Key = () => api.key('org2_all');

  beforeAll(async () => {
    m = await startMock({ port: 0, mode, strict, quiet: true, onViolation: (l) => violations.push(l) });
    api = client(m);
  });
  afterAll(async () => {
    await m?.close();
    // In strict mode a response outside the contract would be a 500; none may have happened.
    expect(violations).toEqual([]);
  });
  beforeEach(async () => {
    await fetch(`${m.controlUrl}/reset`, { method: 'POST' });
  });

  describe('auth', () => {
    it('AUTH-001 ERR-002 a request without X-API-Key answers 401 {error}', async () => {
      const r = await api.call('GET', '/patients', { key: null });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: expect.any(String) });
    });
    it('AUTH-002 an unknown key answers 401', async () => {
      expect((await api.call('GET', '/patients', { key: 'crk_not_a_key_000000' })).status).toBe(401);
    });
    it('AUTH-009 AUTH-010 expired and revoked keys answer 401', async () => {
      expect((await api.call('GET', '/patients', { key: api.key('expired') })).status).toBe(401);
      expect((await api.call('GET', '/patients', { key: api.key('revoked') })).status).toBe(401);
    });
    it('AUTH-021 AUTH-022 AUTH-023 ERR-003 GET/HEAD need :read, writes need :write, else 403', async () => {
      const read = api.key('patients:read');
      expect((await api.call('GET', '/patients', { key: read })).status).toBe(200);
      expect((await api.call('HEAD', '/patients', { key: read })).status).toBe(200);
      const post = await api.call('POST', '/patients', { key: read, body: { name: 'A' } });
      expect(post.status).toBe(403);
      expect(post.body).toEqual({ error: expect.stringContaining('patients:write') });
      expect((await api.call('POST', '/patients', { key: api.key('patients:write'), body: { name: 'A' } })).status).toBe(201);
      expect((await api.call('GET', '/appointments', { key: read })).status).toBe(403);
      expect((await api.call('GET', '/providers', { key: api.key('read') })).status).toBe(200);
      expect((await api.call('POST', '/patients', { key: api.key('read'), body: { name: 'A' } })).status).toBe(403);
    });
    it('AUTH-012 AUTH-026 the * key covers every scope; keys carry the crk_ prefix', async () => {
      for (const p of ['/patients', '/appointments', '/providers']) expect((await api.call('GET', p)).status).toBe(200);
      expect(m.seed.keys.every((k) => k.key.startsWith('crk_'))).toBe(true);
    });
  });

  describe('rate-limit headers', () => {
    it('RATE-001 LIM-008 every response carries X-RateLimit-*, errors included', async () => {
      const page = 'http://localhost:5173'; // a local dev server's page: allowed by default
      const headers = { origin: page };
      const replies = [
        await api.call('GET', '/patients', { headers }),
        await api.call('GET', '/patients', { key: null, headers }),
        await api.call('GET', '/patients/123', { headers }),
        await api.call('GET', '/patients?page=0', { headers }),
        await api.call('GET', '/nowhere', { headers }),
        await api.call('GET', '/notes/export?format=ndjson', { headers }), // a streamed body
        await api.call('DELETE', '/providers', { headers }), // 405
      ];
      for (const r of replies) {
        expect(r.headers.get('access-control-allow-origin')).toBe(page);
        expect(Number(r.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
        expect(r.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
        expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1); // RATE-005
      }
    });
    it('RATE-002 RATE-003 RATE-004 the rate-limited fault answers 429 with the exact message and Retry-After', async () => {
      await fetch(`${m.controlUrl}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'rate-limited', count: 1 }) });
      const r = await api.call('GET', '/patients');
      expect(r.status).toBe(429);
      expect(r.body).toEqual({ error: RATE_LIMIT_MESSAGE });
      expect(r.headers.get('retry-after')).toMatch(/^\d+$/); // RATE-006
      expect((await api.call('GET', '/patients')).status).toBe(200);
    });
  });

  describe('pagination', () => {
    it('PAG-001 PAG-002 PAG-003 LIM-005 defaults page 1, limit 20; 48 seeded patients give 3 pages', async () => {
      const r = await api.call('GET', '/patients');
      expect(r.body.meta).toEqual({ page: 1, limit: 20, total_pages: 3 });
      expect(r.body.data).toHaveLength(20);
      const last = await api.call('GET', '/patients?page=3');
      expect(last.body.data).toHaveLength(8);
    });
    it('PAG-008 a page past the end is 200 with an empty data array', async () => {
      const r = await api.call('GET', '/patients?page=9');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ data: [], meta: { page: 9, limit: 20, total_pages: 3 } });
    });
    it('PAG-007 ERR-011 page and limit out of bounds answer 400 naming the field', async () => {
      for (const [q, field] of [
        ['page=0', 'page'],
        ['limit=101', 'limit'],
        ['limit=abc', 'limit'],
        ['page=', 'page'],
      ]) {
        const r = await api.call('GET', `/patients?${q}`);
        expect(r.status).toBe(400);
        expect(r.body.details).toHaveProperty(field!);
      }
    });
  });

  describe('patients', () => {
    it('PAT-003 PAT-015 PAT-017 GEN-008 name built from first/last; consent false; provider defaults to the key’s', async () => {
      const r = await api.call('POST', '/patients', { body: { first_name: 'Mary', last_name: 'Shelley' } });
      expect(r.status).toBe(201);
      expect(r.body.data).toMatchObject({ name: 'Mary Shelley', consent: false, provider_id: m.seed.keys[0]!.provider_id });
      expect(r.body.data.id).toMatch(/^\d{19}$/);
      const only = await api.call('POST', '/patients', { body: { name: 'Cher' } });
      expect(only.body.data).toMatchObject({ name: 'Cher', consent: false, pronouns: null, notes: null });
    });
    it('PAT-010 mrn may be omitted, null or empty; LIM-003 longer than 64 is 400', async () => {
      for (const mrn of [null, '']) expect((await api.call('POST', '/patients', { body: { name: 'A', mrn } })).status).toBe(201);
      const long = await api.call('POST', '/patients', { body: { name: 'A', mrn: 'x'.repeat(65) } });
      expect(long.status).toBe(400);
      expect(long.body.details).toHaveProperty('mrn');
    });
    it('PAT-012 PAT-013 PAT-014 list items carry no pronouns, notes or consent; get-by-id does', async () => {
      const list = await api.call('GET', '/patients?limit=5');
      for (const p of list.body.data) for (const f of ['pronouns', 'notes', 'consent']) expect(p).not.toHaveProperty(f);
      const one = await api.call('GET', `/patients/${list.body.data[0].id}`);
      expect(one.body.data).toHaveProperty('consent');
      expect(one.body.data).toHaveProperty('pronouns');
    });
    it('PAT-018 a provider_id outside the organization is refused', async () => {
      const foreign = m.seed.keys.find((k) => k.label === 'org2_all')!.provider_id;
      const r = await api.call('POST', '/patients', { body: { name: 'A', provider_id: foreign } });
      expect(r.status).toBe(400);
      expect(r.body.details).toHaveProperty('provider_id');
    });
    it('PAT-020 PAT-029 search matches name, MRN, email and date of birth', async () => {
      const r = await api.call('GET', '/patients?search=lovelace');
      expect(r.body.data.length).toBeGreaterThan(0);
      expect(r.body.data.every((p: { name: string }) => /lovelace/i.test(p.name))).toBe(true);
      const mrn = (await api.call('GET', '/patients?search=MRN-00001')).body.data;
      expect(mrn.map((p: { mrn: string }) => p.mrn)).toContain('MRN-00001');
      const dob = (await api.call('GET', '/patients?limit=1')).body.data[0].date_of_birth;
      expect((await api.call('GET', `/patients?search=${dob}`)).body.data.length).toBeGreaterThan(0);
    });
    it('PAT-023 PATCH updates, rebuilds a built name; XID-005 external_id on PATCH is ignored', async () => {
      const created = (await api.call('POST', '/patients', { body: { first_name: 'Ann', last_name: 'Lee', external_id: 'x-keep' } })).body
        .data;
      expect((await api.call('GET', `/patients/${created.id}`)).body.data).toEqual(created);
      expect((await api.call('GET', '/patients?limit=100')).body.data.find((p: { id: string }) => p.id === created.id)).toMatchObject({
        name: 'Ann Lee',
      });
      const r = await api.call('PATCH', `/patients/${created.id}`, { body: { last_name: 'Kim', external_id: 'x-other' } });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ name: 'Ann Kim', external_id: 'x-keep' });
      // Reads after the change answer the changed row (the engine keeps rows serialized: never a stale text).
      expect((await api.call('GET', `/patients/${created.id}`)).body.data).toEqual(r.body.data);
      const listed = (await api.call('GET', '/patients?external_id=x-keep')).body.data[0];
      expect(listed).toMatchObject({ name: 'Ann Kim', last_name: 'Kim' });
      const page = (await api.call('GET', '/patients?limit=100')).body.data;
      expect(page.find((p: { id: string }) => p.id === created.id)).toMatchObject({ name: 'Ann Kim' });
      // Silently ignored whatever its length, even one a create refuses (XID-017); only another JSON type is a 400.
      for (const external_id of ['', 'x'.repeat(256)]) {
        const again = await api.call('PATCH', `/patients/${created.id}`, { body: { external_id } });
        expect(again.status).toBe(200);
        expect(again.body.data.external_id).toBe('x-keep');
      }
      expect((await api.call('PATCH', `/patients/${created.id}`, { body: { external_id: 7 } })).status).toBe(400);
    });
    it('PAT-024 DELETE answers {success: true}, then 404', async () => {
      const id = (await api.call('POST', '/patients', { body: { name: 'Gone' } })).body.data.id;
      expect((await api.call('DELETE', `/patients/${id}`)).body).toEqual({ success: true });
      expect((await api.call('GET', `/patients/${id}`)).status).toBe(404);
      expect((await api.call('DELETE', `/patients/${id}`)).status).toBe(404);
    });
    it('PAT-025 a non-digit patient id is 400', async () => {
      expect((await api.call('GET', '/patients/abc')).status).toBe(400);
    });
  });

  describe('external_id', () => {
    it('XID-006 ERR-006 a duplicate answers 409 with existing; XID-008 XID-009 XID-014 lookup; XID-010 miss 404', async () => {
      const first = await api.call('POST', '/patients', { body: { name: 'A', external_id: 'dup-1' } });
      const dup = await api.call('POST', '/patients', { body: { name: 'B', external_id: 'dup-1' } });
      expect(dup.status).toBe(409);
      expect(dup.body).toEqual({ error: 'external_id already in use', existing: { id: first.body.data.id, external_id: 'dup-1' } });
      const hit = await api.call('GET', '/patients?external_id=dup-1&page=3&limit=5');
      expect(hit.body).toEqual({
        data: [expect.objectContaining({ id: first.body.data.id })],
        meta: { page: 1, limit: 5, total_pages: 1 },
      });
      expect((await api.call('GET', '/patients?external_id=nope')).status).toBe(404);
    });
    it('XID-003 concurrent creates with one external_id yield exactly one 201', async () => {
      const replies = await Promise.all(
        Array.from({ length: 12 }, () => api.call('POST', '/patients', { body: { name: 'Racer', external_id: 'race-1' } })),
      );
      expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
      expect(replies.filter((r) => r.status === 409)).toHaveLength(11);
    });
    it('XID-016 patients and appointments share one external_id namespace: a value one holds is a 409 on the other', async () => {
      const p = (await api.call('POST', '/patients', { body: { name: 'A', external_id: 'across-1' } })).body.data;
      const appt = await api.call('POST', '/appointments', {
        body: { patient_id: p.id, start_at: '2030-01-01T10:00:00Z', duration_minutes: 30, external_id: 'across-1' },
      });
      expect(appt.status).toBe(409);
      expect(appt.body).toEqual({ error: 'external_id already in use', existing: { id: p.id, external_id: 'across-1' } });
      const a = (
        await api.call('POST', '/appointments', {
          body: { patient_id: p.id, start_at: '2030-01-01T10:00:00Z', duration_minutes: 30, external_id: 'across-2' },
        })
      ).body.data;
      expect((await api.call('POST', '/patients', { body: { name: 'B', external_id: 'across-2' } })).body).toEqual({
        error: 'external_id already in use',
        existing: { id: a.id, external_id: 'across-2' },
      });
    });
    it('XID-003 external_id is unique per organization, not globally', async () => {
      await api.call('POST', '/patients', { body: { name: 'A', external_id: 'shared' } });
      expect((await api.call('POST', '/patients', { key: org2Key(), body: { name: 'A', external_id: 'shared' } })).status).toBe(201);
    });
    it('LIM-002 an external_id outside 1..255 characters is 400', async () => {
      for (const external_id of ['', 'x'.repeat(256)])
        expect((await api.call('POST', '/patients', { body: { name: 'A', external_id } })).status).toBe(400);
    });
  });

  describe('organization scope', () => {
    it('GEN-001 ERR-004 another organization’s patient answers 404 like a missing one', async () => {
      const id = (await api.call('GET', '/patients?limit=1')).body.data[0].id;
      const other = await api.call('GET', `/patients/${id}`, { key: org2Key() });
      const missing = await api.call('GET', '/patients/1');
      expect(other.status).toBe(404);
      expect(other.body).toEqual(missing.body);
      expect((await api.call('PATCH', `/patients/${id}`, { key: org2Key(), body: { name: 'X' } })).status).toBe(404);
      const list = await api.call('GET', '/patients', { key: org2Key() });
      expect(list.body.data.some((p: { id: string }) => p.id === id)).toBe(false);
    });
  });

  describe('validation', () => {
    it('GEN-010 ERR-001 ERR-011 unknown, mistyped and nested fields are named in details', async () => {
      const r = await api.call('POST', '/patients', {
        body: { name: 1, nickname: 'x', address: { planet: 'Mars' }, date_of_birth: '1990-13-45' },
      });
      expect(r.status).toBe(400);
      expect(r.body.error).toEqual(expect.any(String));
      expect(Object.keys(r.body.details).sort()).toEqual(['address.planet', 'date_of_birth', 'name', 'nickname']);
    });
    it('PAT-026 a create body without any name field is 400', async () => {
      const r = await api.call('POST', '/patients', { body: { email: 'a@b.c' } });
      expect(r.status).toBe(400);
      expect(r.body.details).toHaveProperty('name');
    });
    it('ERR-012 malformed JSON is 400; ERR-013 another Content-Type is 415; ERR-014 an oversized body is 413', async () => {
      const bad = await api.call('POST', '/patients', { raw: '{"name":', headers: { 'content-type': 'application/json' } });
      expect(bad.status).toBe(400);
      expect(bad.body.details).toBeTruthy();
      expect((await api.call('POST', '/patients', { raw: 'name=A', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
      const big = await api.call('POST', '/patients', {
        raw: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(big.status).toBe(413);
    });
  });

  describe('appointments', () => {
    const patientId = async () => (await api.call('GET', '/patients?limit=1')).body.data[0].id as string;
    it('APT-023 APT-005 APT-028 APT-003 defaults, the key’s provider, 201, read-only names filled', async () => {
      const r = await api.call('POST', '/appointments', {
        body: { patient_id: await patientId(), start_at: '2026-12-01T15:30:00Z', duration_minutes: 30 },
      });
      expect(r.status).toBe(201);
      expect(r.body.data).toMatchObject({ visit_type: 'In-Person', status: 'SCHEDULED', provider_id: m.seed.keys[0]!.provider_id });
      expect(r.body.data.patient_name).toEqual(expect.any(String));
      expect(isValidNpi(r.body.data.provider_npi)).toBe(true);
    });
    it('APT-003 read-only names are refused in a create body; APT-010 LIM-004 duration below 1 is 400', async () => {
      const r = await api.call('POST', '/appointments', {
        body: { patient_id: await patientId(), start_at: '2026-12-01T15:30:00Z', duration_minutes: 0, patient_name: 'X' },
      });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.details).sort()).toEqual(['duration_minutes', 'patient_name']);
    });
    it('APT-006 a foreign provider or patient is refused', async () => {
      const foreignProvider = m.seed.keys.find((k) => k.label === 'org2_all')!.provider_id;
      const r = await api.call('POST', '/appointments', {
        body: { patient_id: await patientId(), start_at: '2026-12-01T15:30:00Z', duration_minutes: 30, provider_id: foreignProvider },
      });
      expect(r.status).toBe(400);
      const p = await api.call('POST', '/appointments', {
        key: org2Key(),
        body: { patient_id: await patientId(), start_at: '2026-12-01T15:30:00Z', duration_minutes: 30 },
      });
      expect(p.status).toBe(400);
    });
    it('APT-015 APT-027 filters date, start_date and end_date (inclusive)', async () => {
      const day = await api.call('GET', '/appointments?date=2026-11-03&limit=100');
      expect(day.body.data.length).toBeGreaterThan(0);
      expect(day.body.data.every((a: { start_at: string }) => a.start_at.startsWith('2026-11-03'))).toBe(true);
      const range = await api.call('GET', '/appointments?start_date=2026-11-03&end_date=2026-11-04&limit=100');
      const days = new Set(range.body.data.map((a: { start_at: string }) => a.start_at.slice(0, 10)));
      expect([...days].sort()).toEqual(['2026-11-03', '2026-11-04']);
      expect((await api.call('GET', '/appointments?date=2026-13-01')).status).toBe(400);
    });
    it('APT-011 the seed has appointments in every status on several dates', async () => {
      const all = (await api.call('GET', '/appointments?limit=100')).body.data as Array<{ status: string; start_at: string }>;
      expect(new Set(all.map((a) => a.status)).size).toBe(4);
      expect(new Set(all.map((a) => a.start_at.slice(0, 10))).size).toBeGreaterThan(2);
    });
    it('APT-018 APT-019 APT-026 XID-005 PATCH reassigns, changes status, ignores external_id; APT-020 DELETE then 404', async () => {
      const created = (
        await api.call('POST', '/appointments', {
          body: { patient_id: await patientId(), start_at: '2026-12-01T15:30:00Z', duration_minutes: 30, external_id: 'appt-x' },
        })
      ).body.data;
      const other = (await api.call('GET', '/providers')).body.data.find((p: { id: string }) => p.id !== created.provider_id);
      const r = await api.call('PATCH', `/appointments/${created.id}`, {
        body: { provider_id: other.id, status: 'NO_SHOW', external_id: 'changed' },
      });
      expect(r.body.data).toMatchObject({ provider_id: other.id, provider_name: other.name, status: 'NO_SHOW', external_id: 'appt-x' });
      expect(
        (
          await api.call('POST', '/appointments', {
            body: { patient_id: await patientId(), start_at: '2026-12-01T15:30:00Z', duration_minutes: 30, external_id: 'appt-x' },
          })
        ).status,
      ).toBe(409); // APT-021
      expect((await api.call('PATCH', `/appointments/${created.id}`, { body: {} })).status).toBe(400); // APT-025
      expect((await api.call('DELETE', `/appointments/${created.id}`)).body).toEqual({ success: true });
      expect((await api.call('GET', `/appointments/${created.id}`)).status).toBe(404);
    });
  });

  describe('providers', () => {
    it('PRV-005 PRV-003 list with Luhn-valid NPIs; PRV-006 PRV-007 npi lookup', async () => {
      const list = await api.call('GET', '/providers');
      expect(list.body.data.length).toBeGreaterThanOrEqual(3);
      expect(list.body.data.every((p: { npi: string }) => isValidNpi(p.npi))).toBe(true);
      const npi = list.body.data[1].npi;
      expect((await api.call('GET', `/providers?npi=${npi}`)).body.data).toHaveLength(1);
      expect((await api.call('GET', '/providers?npi=1234567893')).status).toBe(404);
      // A value of another form is a lookup without a match (PRV-007, PRV-011), not a validation failure.
      for (const other of ['abc', '123', '12345678901']) expect((await api.call('GET', `/providers?npi=${other}`)).status).toBe(404);
      expect((await api.call('GET', `/providers/${list.body.data[0].id}`)).status).toBe(200); // PRV-008
    });
    it('PRV-009 other methods answer 405 with Allow', async () => {
      const r = await api.call('POST', '/providers', { body: { name: 'X' } });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('GET, HEAD');
      expect(r.body).toEqual({ error: expect.any(String) });
    });
  });

  describe('platform', () => {
    it('unknown routes answer 404 {error}', async () => {
      const r = await api.call('GET', '/nowhere/at/all');
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: expect.any(String) });
    });
    it('CORS: preflight is answered and the rate-limit headers are exposed', async () => {
      const pre = await fetch(`${m.url}/patients`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-api-key,content-type,idempotency-key',
        },
      });
      expect(pre.status).toBeLessThan(300);
      expect(pre.headers.get('access-control-allow-origin')).toBeTruthy();
      expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
      const get = await fetch(`${m.url}/patients`, { headers: { origin: 'http://localhost:5173', 'x-api-key': api.key('all') } });
      expect(get.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
    });
    it('control: keys list every seeded key with its state', async () => {
      const r = await (await fetch(`${m.controlUrl}/keys`)).json();
      expect(r.data).toHaveLength(m.seed.keys.length);
      expect(new Set(r.data.map((k: { state: string }) => k.state))).toEqual(new Set(['active', 'expired', 'revoked']));
      expect(Object.keys(r.data[0]).sort()).toEqual(['key', 'organization_id', 'provider_id', 'scopes', 'state']);
    });
    it('control: an http fault answers the matching request once; bad faults are 400', async () => {
      const add = await fetch(`${m.controlUrl}/faults`, {
        method: 'POST',
        body: JSON.stringify({ kind: 'http', method: 'GET', path: '/providers', status: 404, count: 1 }),
      });
      expect(add.status).toBe(201);
      expect((await (await fetch(`${m.controlUrl}/faults`)).json()).data).toHaveLength(1);
      const hit = await api.call('GET', '/providers');
      expect(hit.status).toBe(404);
      expect((await api.call('GET', '/providers')).status).toBe(200);
      expect((await fetch(`${m.controlUrl}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'meteor' }) })).status).toBe(400);
      expect((await fetch(`${m.controlUrl}/faults`, { method: 'DELETE' })).status).toBe(200);
    });
    it('control: a scoped fault reaches only requests carrying its X-Mock-Fault-Scope; unscoped ones reach any', async () => {
      const arm = (body: object) => fetch(`${m.controlUrl}/faults`, { method: 'POST', body: JSON.stringify(body) });
      expect((await arm({ kind: 'http', method: 'GET', path: '/providers', status: 404, scope: 'mine' })).status).toBe(201);
      expect((await arm({ kind: 'rate-limited', scope: 'mine' })).status).toBe(201);
      expect((await api.call('GET', '/providers')).status).toBe(200);
      expect((await api.call('GET', '/providers', { headers: { 'X-Mock-Fault-Scope': 'theirs' } })).status).toBe(200);
      const mine = { headers: { 'X-Mock-Fault-Scope': 'mine' } };
      const first = await api.call('GET', '/providers', mine);
      const second = await api.call('GET', '/providers', mine);
      expect([first.status, second.status].sort()).toEqual([404, 429]);
      expect((await api.call('GET', '/providers', mine)).status).toBe(200);
      // Unscoped: any request, with or without a scope header.
      expect((await arm({ kind: 'http', method: 'GET', path: '/providers', status: 404 })).status).toBe(201);
      expect((await api.call('GET', '/providers', mine)).status).toBe(404);
      for (const scope of ['', 'x'.repeat(201), 'two words', 7])
        expect((await arm({ kind: 'rate-limited', scope })).status, JSON.stringify(scope)).toBe(400);
    });
    it('control: reset brings the seed back', async () => {
      await api.call('POST', '/patients', { body: { name: 'Temp', external_id: 'temp' } });
      await fetch(`${m.controlUrl}/reset`, { method: 'POST' });
      expect((await api.call('GET', '/patients?external_id=temp')).status).toBe(404);
      expect((await api.call('GET', '/patients')).body.meta.total_pages).toBe(3);
    });
  });
});
