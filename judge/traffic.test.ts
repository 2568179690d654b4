// The judge of recorded traffic, on exchanges written by hand: each request-side and answer check fires on the
// exchange that breaks its rule and on no other, and the profile picks the rules as a suite run does.
import { describe, expect, it } from 'vitest';
import { Contract } from '../spec/runtime/contract.ts';
import { Register } from '../spec/runtime/register.ts';
import { apiPath, judgeTraffic, trafficJudge, type RecordedExchange } from './traffic.ts';

const contract = new Contract();
const register = Register.load();
const documented = trafficJudge(contract, register, 'documented');
const all = trafficJudge(contract, register, 'all');
const RATE = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '1795713368' };
const json = { 'content-type': 'application/json', ...RATE };

const exchange = (over: Partial<RecordedExchange>): RecordedExchange => ({
  method: 'GET',
  url: 'http://127.0.0.1:4010/ext-api/v1/patients',
  requestHeaders: { 'X-API-Key': '[redacted]' },
  status: 200,
  responseHeaders: json,
  responseBody: JSON.stringify({ data: [], meta: { page: 1, limit: 20, total_pages: 1 } }),
  ...over,
});
const found = (rec: RecordedExchange, judge = documented) =>
  judgeTraffic(rec, judge).violations.map((v) => `${v.side} ${v.ruleId} ${v.check} ${v.where}`);

describe('judging one recorded exchange', () => {
  it('finds nothing on a clean list answer, and places a path under the base path', () => {
    expect(found(exchange({}))).toEqual([]);
    expect(apiPath('https://staging.example.org/prefix/ext-api/v1/patients/12?x=1', '/ext-api/v1')).toBe('/patients/12');
    expect(apiPath('/patients', '/ext-api/v1')).toBe('/patients');
  });

  it("a request the contract forbids is the client's violation: no key, an unknown field, a JSON body sent as text", () => {
    // Answered 200 without a key, it is the server's too (AUTH-001); answered 401, the client's only.
    expect(found(exchange({ requestHeaders: {} }))).toEqual([
      'request AUTH-003 request_carries_key request.headers',
      'response AUTH-001 keyless_answered_401 response.status',
    ]);
    expect(found(exchange({ requestHeaders: {}, status: 401, responseBody: '{"error":"Missing API key"}' }))).toEqual([
      'request AUTH-003 request_carries_key request.headers',
    ]);
    const create = {
      method: 'POST',
      status: 400,
      responseBody: JSON.stringify({ error: 'Validation failed', details: { extra: 'unknown field' } }),
    };
    expect(
      found(
        exchange({
          ...create,
          requestHeaders: { 'x-api-key': 'k', 'content-type': 'application/json' },
          requestBody: '{"first_name":"A","extra":1}',
        }),
      ),
    ).toEqual(['request GEN-010 request_body_conformance request.body']);
    expect(
      found(exchange({ ...create, requestHeaders: { 'x-api-key': 'k', 'content-type': 'text/plain' }, requestBody: '{"first_name":"A"}' })),
    ).toEqual(['request GEN-006 write_request_content_type request.headers.content-type']);
    // A path id of another form than the document's, under the rule stating it (the regenerate path's own, REGEN-002).
    const refused = { status: 400, responseBody: JSON.stringify({ error: 'Validation failed', details: { id: 'bad' } }) };
    expect(found(exchange({ url: '/ext-api/v1/patients/abc', ...refused }))).toEqual(['request PAT-025 path_ids_conformance request.path']);
    expect(found(exchange({ url: '/ext-api/v1/providers/12', ...refused }))).toEqual(['request PRV-010 path_ids_conformance request.path']);
    const regenerate = { method: 'POST', url: '/ext-api/v1/sessions/x/notes/regenerate', requestHeaders: { 'x-api-key': 'k' } };
    expect(found(exchange({ ...regenerate, ...refused }))).toEqual(['request REGEN-002 path_ids_conformance request.path']);
  });

  it('an answer that contradicts its request: list defaults, a lookup, a 409 without the holder', () => {
    const meta = JSON.stringify({ data: [], meta: { page: 2, limit: 20, total_pages: 3 } });
    expect(found(exchange({ responseBody: meta }))).toEqual(['response LIM-005 meta_shows_default_page_and_limit response.body/meta']);
    expect(found(exchange({ url: '/ext-api/v1/patients?page=2', responseBody: meta }))).toEqual([]);
    expect(found(exchange({ url: '/ext-api/v1/patients?page=3', responseBody: meta }))).toEqual([
      'response PAG-001 meta_page_matches_query response.body/meta/page',
    ]);
    // A page past the last is the kit's reading (PAG-008): not judged here.
    expect(found(exchange({ url: '/ext-api/v1/patients?page=9', responseBody: meta }))).toEqual([]);
    const three = JSON.stringify({ data: [{}, {}, {}], meta: { page: 1, limit: 2, total_pages: 2 } });
    expect(found(exchange({ url: '/ext-api/v1/patients?limit=2&page=1', responseBody: three }))).toEqual([
      'response PAG-002 page_within_limit response.body/data',
    ]);
    const two = JSON.stringify({ data: [{ external_id: 'a' }, { external_id: 'b' }], meta: { page: 1, limit: 20, total_pages: 1 } });
    expect(found(exchange({ url: '/ext-api/v1/patients?external_id=a', responseBody: two }))).toContain(
      'response XID-008 external_id_lookup_one_item response.body/data',
    );
    const conflict = (existing: unknown) =>
      exchange({
        method: 'POST',
        requestHeaders: { 'x-api-key': 'k', 'content-type': 'application/json' },
        requestBody: '{"first_name":"A","external_id":"e-1"}',
        status: 409,
        responseBody: JSON.stringify({ error: 'external_id already in use', existing }),
      });
    expect(found(conflict({ id: '7', external_id: 'e-1' }))).toEqual([]);
    expect(found(conflict({ id: '7', external_id: 'other' }))).toContain('response XID-006 conflict_names_existing response.body/existing');
  });

  it('the documented profile leaves assumed rules out; all judges them (a 5xx: ERR-018)', () => {
    const failing = exchange({ status: 500, responseBody: JSON.stringify({ error: 'boom' }) });
    expect(found(failing).some((v) => v.includes('ERR-018'))).toBe(false);
    expect(found(failing, all).some((v) => v.includes('response ERR-018 not_a_server_error'))).toBe(true);
  });

  it('a request outside the contract is not judged', () => {
    expect(judgeTraffic(exchange({ url: '/app.js' }), documented)).toMatchObject({ judged: [], violations: [] });
  });

  it('a part the recorder did not keep is not judged: no headers, no body', () => {
    const bare = exchange({ requestHeaders: undefined, responseHeaders: undefined, responseBody: undefined });
    const verdict = judgeTraffic({ ...bare, status: 200 }, all);
    expect(verdict.violations).toEqual([]);
    expect(verdict.judged.sort()).toEqual([
      'accepted_size_refused',
      'accepted_type_refused',
      'answered_outside_base_path',
      'form_external_id_bounds',
      'limit_breach_accepted',
      'not_a_server_error',
      'path_ids_conformance',
      'request_under_base_path',
      'status_code_conformance',
      'success_status',
      'unknown_field_accepted',
      'upload_limit_accepted',
    ]);
    expect(found({ ...bare, status: 201 }, all)).toEqual(['response ERR-017 status_code_conformance response.status']);
  });

  it("puts a success body's root finding under the rule stating what its operation answers", () => {
    const rules = (rec: RecordedExchange) => found(rec).map((v) => v.split(' ')[1]);
    const docs = `${exchange({}).url}/12/documents`;
    expect(rules(exchange({ url: docs, responseBody: '{"data":{}}' }))).toEqual(['DOC-021']);
    // A meta block on the documents list is PAG-005's (the document: only data).
    expect(rules(exchange({ url: docs, responseBody: '{"data":[],"meta":{"page":1,"limit":20,"total_pages":1}}' }))).toEqual(['PAG-005']);
    expect(rules(exchange({ method: 'DELETE', url: `${exchange({}).url}/12`, responseBody: '{"success":false}' }))).toEqual(['PAT-024']);
    // Answered 204 with no body, where the document gives {success: true}.
    const gone = { method: 'DELETE', url: `${exchange({}).url}/12`, status: 204, responseHeaders: { ...RATE }, responseBody: '' };
    expect(rules(exchange(gone))).toEqual(['PAT-024']);
    expect(rules(exchange({ ...gone, status: 200, responseHeaders: json, responseBody: '{"success":true}' }))).toEqual([]);
    const regen = 'http://127.0.0.1:4010/ext-api/v1/sessions/3f1c2a9e-8b7d-4c6e-9a01-2b3c4d5e6f70/notes/regenerate';
    const accepted = (status: string) => JSON.stringify({ data: { session_id: 's', status }, message: 'queued' });
    expect(rules(exchange({ method: 'POST', url: regen, status: 202, responseBody: accepted('done') }))).toEqual(['REGEN-008']);
    expect(rules(exchange({ method: 'POST', url: regen, status: 202, responseBody: accepted('queued') }))).toEqual([]);
  });

  it('names the documented rule one answer breaks: a stated success status, a lookup miss, list-item fields, id types', () => {
    const patient = { id: '12', name: 'A', created_at: '2026-01-01T00:00:00Z', provider_id: 'p1' };
    const list = (items: unknown[]) => JSON.stringify({ data: items, meta: { page: 1, limit: 20, total_pages: 1 } });
    const create = {
      method: 'POST',
      requestHeaders: { 'x-api-key': 'k', 'content-type': 'application/json' },
      requestBody: '{"name":"A"}',
    };
    const answered = JSON.stringify({ data: { ...patient, consent: false } });
    expect(found(exchange({ ...create, status: 200, responseBody: answered }))).toEqual([
      'response PAT-021 success_status response.status',
    ]);
    expect(found(exchange({ ...create, status: 201, responseBody: answered }))).toEqual([]);
    const regenerate = { method: 'POST', url: '/ext-api/v1/sessions/6a2f41a3-c54c-4e0c-9c8e-1d3f4f0e0a11/notes/regenerate' };
    const queued = JSON.stringify({ data: { session_id: '6a2f41a3-c54c-4e0c-9c8e-1d3f4f0e0a11', status: 'queued' }, message: 'q' });
    expect(found(exchange({ ...regenerate, status: 200, responseBody: queued }))).toEqual([
      'response REGEN-001 success_status response.status',
    ]);
    const miss = list([]);
    expect(found(exchange({ url: '/ext-api/v1/patients?external_id=none', responseBody: miss }))).toEqual([
      'response XID-010 lookup_miss_status response.status',
    ]);
    expect(found(exchange({ url: '/ext-api/v1/providers?npi=1234567893', responseBody: miss }))).toEqual([
      'response PRV-007 lookup_miss_status response.status',
    ]);
    expect(found(exchange({ url: '/ext-api/v1/patients?search=none', responseBody: miss }))).toEqual([]);
    expect(found(exchange({ responseBody: list([{ ...patient, pronouns: 'she/her', consent: true, notes: 'n' }]) })).sort()).toEqual([
      'response PAT-012 response_schema_conformance response.body/data/0',
      'response PAT-013 response_schema_conformance response.body/data/0',
      'response PAT-014 response_schema_conformance response.body/data/0',
    ]);
    expect(found(exchange({ responseBody: list([{ ...patient, id: 12 }]) }))).toEqual([
      'response GEN-008 response_schema_conformance response.body/data/0/id',
    ]);
    // A field the document says nothing about is the kit's closure (GEN-011): --profile all only, under the generic rule.
    expect(found(exchange({ responseBody: list([{ ...patient, extra: 1 }]) }))).toEqual([]);
    expect(found(exchange({ responseBody: list([{ ...patient, extra: 1 }]) }), all)).toEqual([
      'response GEN-003 response_schema_conformance response.body/data/0',
    ]);
  });

  it("the server's side of one answer: an unknown field accepted (GEN-010), another record than the path's (PRV-008)", () => {
    const create = {
      method: 'POST',
      requestHeaders: { 'x-api-key': 'k', 'content-type': 'application/json' },
      status: 201,
      responseBody: JSON.stringify({ data: { id: '12', name: 'A', created_at: '2026-01-01T00:00:00Z', provider_id: 'p1' } }),
    };
    expect(found(exchange({ ...create, requestBody: '{"name":"A","crc_unknown_field":1}' }))).toEqual([
      'request GEN-010 request_body_conformance request.body',
      'response GEN-010 unknown_field_accepted response.status',
    ]);
    // Refused 400 it is the client's only (above); a body of listed fields accepted is nobody's.
    expect(found(exchange({ ...create, requestBody: '{"name":"A"}' }))).toEqual([]);
    const provider = (id: string) => JSON.stringify({ data: { id, name: 'Dr A', npi: '1234567893' } });
    const asked = '6a2f41a3-c54c-4e0c-9c8e-1d3f4f0e0a11';
    const byId = { url: `/ext-api/v1/providers/${asked}` };
    expect(found(exchange({ ...byId, responseBody: provider('00000000-0000-4000-8000-000000000000') }))).toEqual([
      'response PRV-008 answer_is_the_record_asked_for response.body/data/id',
    ]);
    // The same id in another case, or a patient id with leading zeros, is the record asked for.
    expect(found(exchange({ ...byId, responseBody: provider(asked.toUpperCase()) }))).toEqual([]);
    const patient = JSON.stringify({ data: { id: '12', name: 'A', created_at: '2026-01-01T00:00:00Z', provider_id: 'p1' } });
    expect(found(exchange({ url: '/ext-api/v1/patients/012', responseBody: patient }))).toEqual([]);
    expect(found(exchange({ url: '/ext-api/v1/patients/13', responseBody: patient }))).toEqual([
      'response GEN-003 answer_is_the_record_asked_for response.body/data/id',
    ]);
  });

  it('a status the document does not give is shown as not in the contract, failed only where the document states one', () => {
    const teapot = exchange({ status: 418, responseBody: JSON.stringify({ error: 'teapot' }) });
    expect(judgeTraffic(teapot, documented)).toMatchObject({
      violations: [],
      unlisted: '418 is not a status of GET /patients in the contract',
    });
    expect(found(teapot, all)).toContain('response ERR-017 status_code_conformance response.status');
    // The appointment create's 201 and the extract's 200 are the kit's readings: another 2xx is not a documented failure
    // (its body is judged as the one success body the contract has: here a valid one).
    const appointment = {
      id: '3f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
      patient_id: '12',
      start_at: '2026-01-01T10:00:00Z',
      duration_minutes: 30,
    };
    const created = exchange({
      method: 'POST',
      url: '/ext-api/v1/appointments',
      requestHeaders: { 'x-api-key': 'k', 'content-type': 'application/json' },
      requestBody: JSON.stringify({ patient_id: '12', start_at: '2026-01-01T10:00:00Z', duration_minutes: 30 }),
      status: 200,
      responseBody: JSON.stringify({ data: appointment }),
    });
    expect(judgeTraffic(created, documented)).toMatchObject({ violations: [], unlisted: expect.stringContaining('200') });
    expect(found(created, all)).toContain('response ERR-017 status_code_conformance response.status');
    const deleted = exchange({ method: 'DELETE', url: '/ext-api/v1/patients/12', status: 202, responseBody: '{"success":true}' });
    expect(found(deleted)).toEqual([]);
    // A DELETE's body that is not {success: true}: the rule of that DELETE, not the patient DELETE's sharing its schema.
    const appointmentUrl = '/ext-api/v1/appointments/3f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';
    expect(found(exchange({ method: 'DELETE', url: appointmentUrl, responseBody: '{"success":"yes"}' }))).toEqual([
      'response APT-020 response_schema_conformance response.body/success',
    ]);
    expect(found(exchange({ method: 'DELETE', url: '/ext-api/v1/patients/12', responseBody: '{"success":"yes"}' }))).toEqual([
      'response PAT-024 response_schema_conformance response.body/success',
    ]);
  });
});
