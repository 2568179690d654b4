// The contract-surface checks against the mock (they pass, assumed rules skipped in the documented profile, writes
// skipped with --read-only, nothing left behind), then each against a loopback proxy that breaks its one rule: the
// check must fail, citing that rule's id.
import { answer, apiPath, is, jsonOf, setJson, type ProxyRequest } from '../testing/broken-proxy.ts';
import { checksNamed, describeBrokenVariants, describeCheckFile, type Breaks } from '../testing/check-file.ts';

// ----- helpers of the variants -----
/** A lenient id parser: `<id>x` resolves to `<id>` (what the path-format checks must catch). */
const lenientIds = (segment: RegExp) => (req: ProxyRequest) => {
  req.url = req.url.replace(new RegExp(`(${segment.source}/)([0-9a-f-]{36}|\\d+)x(?=/|\\?|$)`), '$1$2');
};

// One variant per check: [check name, rule it must fail on, what the variant breaks].
const broken: Array<[string, string, Breaks]> = [
  [
    'write_requests_json_content_type',
    'GEN-006',
    {
      request: (req) =>
        /charset/i.test(req.headers['content-type'] ?? '') && req.method !== 'GET' && (req.headers['content-type'] = 'text/plain'),
    },
  ],
  [
    'upload_is_multipart_form_data',
    'GEN-007',
    {
      response: (res, req) =>
        is(req, 'POST', /\/documents$/) &&
        res.status >= 400 &&
        res.status < 500 &&
        answer(res, 201, { message: 'stored the JSON as a document' }),
    },
  ],
  [
    'response_objects_closed',
    'GEN-011',
    {
      response(res, req) {
        const b = jsonOf(res.body);
        if (is(req, 'GET', /^\/providers\/[^/]+$/) && b?.data) {
          b.data.crc_extra_field = 'not in the field table';
          setJson(res, b);
        }
      },
    },
  ],
  [
    'base_url_ends_with_version',
    'VER-001',
    { request: (req) => req.url.startsWith('/ext-api/providers') && (req.url = req.url.replace('/ext-api/', '/ext-api/v1/')) },
  ],
  [
    'paths_relative_to_base_url',
    'VER-003',
    { response: (res, req) => is(req, 'GET', /^\/sessions\/[^/]+\/notes$/) && answer(res, 404, { error: 'Not found' }) },
  ],
  [
    'external_id_conflict_body',
    'ERR-006',
    {
      response(res) {
        const b = jsonOf(res.body);
        if (res.status === 409 && b?.existing) setJson(res, { ...b, error: 'Duplicate external_id' });
      },
    },
  ],
  [
    'json_write_wrong_content_type_415',
    'ERR-013',
    {
      response: (res, req) =>
        res.status === 415 && req.method !== 'GET' && answer(res, 400, { error: 'Validation failed', details: { body: 'not JSON' } }),
    },
  ],
  [
    'json_body_too_large_413',
    'ERR-014',
    { response: (res) => res.status === 413 && answer(res, 400, { error: 'Validation failed', details: { body: 'too long' } }) },
  ],
  [
    'per_operation_error_statuses',
    'ERR-015',
    { response: (res, req) => req.method === 'DELETE' && res.status === 403 && answer(res, 404, { error: 'Not found' }) },
  ],
  ['error_text_non_empty_string', 'ERR-016', { response: (res) => res.status === 404 && answer(res, 404, { error: '' }) }],
  [
    'malformed_path_id_400',
    'ERR-019',
    {
      response: (res, req) => res.status === 400 && /not-a-uuid|\/abc(\/|$)/.test(apiPath(req)) && answer(res, 404, { error: 'Not found' }),
    },
  ],
  ['patient_id_path_digits', 'PAT-025', { request: lenientIds(/\/patients/) }],
  ['appointment_id_path_uuid', 'APT-022', { request: lenientIds(/\/appointments/) }],
  ['document_id_path_uuid', 'DOC-030', { request: lenientIds(/\/documents/) }],
  ['provider_id_path_uuid', 'PRV-010', { request: lenientIds(/\/providers/) }],
  ['note_and_session_id_path_uuid', 'NOTE-023', { request: lenientIds(/\/sessions/) }],
  [
    'regenerate_session_id_uuid',
    'REGEN-002',
    {
      response(res, req) {
        if (is(req, 'POST', /^\/sessions\/not-a-uuid\/notes\/regenerate$/))
          answer(res, 202, { data: { session_id: 'not-a-uuid', status: 'queued' }, message: 'Note regeneration queued' });
      },
    },
  ],
  [
    'providers_read_only',
    'PRV-009',
    {
      // Whatever refusal the target gives a write (405 or 404 are both readings), the broken one accepts it.
      response: (res, req) =>
        req.method !== 'GET' && /^\/providers/.test(apiPath(req)) && res.status >= 400 && answer(res, 200, { success: true }),
    },
  ],
  [
    'patients_write_scope_grants',
    'AUTH-014',
    {
      response: (res, req) =>
        is(req, 'DELETE', /^\/patients\/\d+$/) &&
        req.headers['x-api-key'] !== file.mainKey() &&
        answer(res, 403, { error: 'Insufficient scope' }),
    },
  ],
  [
    'appointments_write_scope_grants',
    'AUTH-016',
    {
      response: (res, req) =>
        is(req, 'PATCH', /^\/appointments\/[^/]+$/) &&
        req.headers['x-api-key'] !== file.mainKey() &&
        answer(res, 403, { error: 'Insufficient scope' }),
    },
  ],
  [
    'documents_write_scope_grants',
    'AUTH-018',
    {
      response: (res, req) =>
        is(req, 'POST', /\/extract$/) && req.headers['x-api-key'] !== file.mainKey() && answer(res, 403, { error: 'Insufficient scope' }),
    },
  ],
  [
    'regenerate_auth_errors',
    'REGEN-010',
    { response: (res, req) => /\/regenerate$/.test(apiPath(req)) && res.status === 403 && answer(res, 401, { error: 'Unauthorized' }) },
  ],
];

const checks = checksNamed(broken.map(([n]) => n));
const file = describeCheckFile('contract-surface checks', checks);

describeBrokenVariants('contract-surface checks', file, checks, broken);
