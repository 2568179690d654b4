// The checks whose only proof used to be one variant per area: each against a loopback proxy that breaks its one
// rule (it must fail, citing that rule), and all of them against the mock (they pass; documented and read-only runs).
import { answer, apiPath, is, jsonOf, setJson, type ProxyRequest, type ProxyResponse } from '../testing/broken-proxy.ts';
import { checksNamed, describeBrokenVariants, describeCheckFile, type Breaks } from '../testing/check-file.ts';

const editBody = (res: ProxyResponse, fn: (b: any) => void) => {
  const b = jsonOf(res.body);
  if (!b || typeof b !== 'object') return;
  fn(b);
  setJson(res, b);
};
const dropQuery = (req: ProxyRequest, name: string) => {
  const u = new URL(req.url, 'http://proxy');
  u.searchParams.delete(name);
  req.url = u.pathname + u.search;
};
/** The first DELETE of a resource answered {success: true} while it stays (the run's cleanup then removes it). */
const fakeDelete = (path: RegExp) => (): Breaks => {
  const faked = new Set<string>();
  return {
    request(req) {
      if (is(req, 'DELETE', path) && !faked.has(req.url)) {
        faked.add(req.url);
        req.method = 'GET';
        req.headers['x-crc-fake-delete'] = '1';
      }
    },
    response: (res, req) => void (req.headers['x-crc-fake-delete'] && res.status === 200 && setJson(res, { success: true })),
  };
};
/** A 400 { error, details } for a write becomes a 400 without details. */
const noDetails: Breaks = { response: (res, req) => req.method !== 'GET' && res.status === 400 && editBody(res, (b) => delete b.details) };
/** A write's validation failure answered 422 instead of 400. */
const refused422: Breaks = { response: (res, req) => void (req.method !== 'GET' && res.status === 400 && (res.status = 422)) };
/** Error answers of writes as text/plain. */
const plainErrors: Breaks = {
  response: (res, req) => {
    const b = jsonOf(res.body);
    if (req.method === 'GET' || res.status < 400 || typeof b?.error !== 'string') return;
    res.headers['content-type'] = 'text/plain';
    res.body = Buffer.from(b.error);
  },
};
const PROVIDER = /^\/providers\/[^/]+$/;

const broken: Array<[string, string, Breaks | (() => Breaks)]> = [
  [
    'appointment_provider_defaults_to_key_owner',
    'APT-005',
    {
      response: (res, req) =>
        is(req, 'POST', /^\/appointments$/) &&
        editBody(res, (b) => b.data && (b.data.provider_id = '00000000-0000-4000-8000-000000000000')),
    },
  ],
  [
    'appointment_foreign_provider_refused',
    'APT-006',
    {
      request(req) {
        const b = jsonOf(req.body);
        if (!/^\/appointments(\/[^/]+)?$/.test(apiPath(req)) || !b || typeof b !== 'object' || !('provider_id' in b)) return;
        delete b.provider_id;
        if (req.method === 'PATCH') b.notes = 'provider_id dropped by the proxy';
        setJson(req, b);
      },
    },
  ],
  ['appointment_lifecycle', 'APT-020', fakeDelete(/^\/appointments\/[^/]+$/)],
  ['document_lifecycle', 'DOC-024', fakeDelete(/^\/patients\/\d+\/documents\/[^/]+$/)],
  [
    'invalid_key_rejected',
    'AUTH-002',
    () => ({
      request: (req) => void (req.headers['x-api-key'] === 'crc-not-a-valid-key-0000000000' && (req.headers['x-api-key'] = file.mainKey())),
    }),
  ],
  [
    'other_org_document_not_found',
    'AUTH-008',
    {
      response: (res, req) =>
        /\/extract$/.test(apiPath(req)) &&
        res.status === 404 &&
        answer(res, 200, { data: { id: 'x', status: 'pending' }, success: true, message: 'started' }),
    },
  ],
  [
    'wildcard_scope_covers_all',
    'AUTH-012',
    { response: (res, req) => is(req, 'GET', /^\/notes$/) && answer(res, 403, { error: 'Insufficient scope' }) },
  ],
  [
    'granted_scope_allowed',
    'AUTH-021',
    () => ({
      response: (res, req) =>
        req.method === 'GET' &&
        req.headers['x-api-key'] !== file.mainKey() &&
        res.status === 200 &&
        answer(res, 403, { error: 'Insufficient scope' }),
    }),
  ],
  [
    'extraction_not_queued',
    'DOC-015',
    {
      response: (res, req) =>
        is(req, 'POST', /\/documents$/) && editBody(res, (b) => (b.message = 'Document uploaded; text extraction started')),
    },
  ],
  [
    'extraction_failure_then_retry',
    'DOC-020',
    {
      response: (res, req) =>
        is(req, 'GET', /\/documents$/) &&
        editBody(
          res,
          (b) =>
            Array.isArray(b.data) &&
            b.data.forEach((d: any) => {
              if (d.status === 'completed') d.status = 'failed';
            }),
        ),
    },
  ],
  [
    'extraction_reaches_terminal_state',
    'DOC-028',
    {
      response: (res, req) =>
        is(req, 'GET', /\/documents$/) &&
        editBody(
          res,
          (b) =>
            Array.isArray(b.data) &&
            b.data.forEach((d: any) => {
              if (d.status === 'completed') d.has_extracted_text = false;
            }),
        ),
    },
  ],
  [
    'upload_unsupported_type_415',
    'DOC-033',
    {
      response: (res, req) =>
        is(req, 'POST', /\/documents$/) &&
        res.status === 415 &&
        answer(res, 400, { error: 'Validation failed', details: { file: 'type' } }),
    },
  ],
  [
    'upload_limits_refused',
    'LIM-001',
    {
      response: (res, req) =>
        is(req, 'POST', /\/documents$/) &&
        res.status >= 400 &&
        res.status < 500 &&
        res.status !== 404 &&
        answer(res, 201, { data: { id: '00000000-0000-4000-8000-000000000001' }, message: 'stored' }),
    },
  ],
  ['missing_required_rejected', 'ERR-001', refused422],
  ['wrong_type_rejected', 'ERR-001', refused422],
  ['out_of_bounds_rejected', 'ERR-001', refused422],
  ['limit_parameter_honoured', 'PAG-002', { request: (req) => void (req.method === 'GET' && dropQuery(req, 'limit')) }],
  [
    'malformed_json_rejected',
    'ERR-012',
    {
      response: (res, req) =>
        req.method !== 'GET' &&
        res.status === 400 &&
        jsonOf(req.body) === undefined &&
        req.body.length > 0 &&
        answer(res, 500, { error: 'Internal error' }),
    },
  ],
  [
    'other_org_ids_not_found',
    'ERR-004',
    {
      response: (res, req) =>
        is(req, 'GET', PROVIDER) && res.status === 404 && answer(res, 200, { data: { id: apiPath(req).split('/')[2] } }),
    },
  ],
  [
    'success_wrapped_in_data',
    'GEN-003',
    { response: (res, req) => is(req, 'GET', PROVIDER) && editBody(res, (b) => (b.provider = b.data) && delete b.data) },
  ],
  [
    'list_meta_defaults',
    'LIM-005',
    {
      response: (res, req) =>
        is(req, 'GET', /^\/patients$/) && !/limit=/.test(req.url) && editBody(res, (b) => b.meta && (b.meta.limit = 10)),
    },
  ],
  [
    'note_list_items_without_detail_fields',
    'NOTE-001',
    {
      response: (res, req) =>
        is(req, 'GET', /^\/notes$/) &&
        editBody(
          res,
          (b) =>
            Array.isArray(b.data) &&
            b.data.forEach((n: any) => {
              n.content = 'body';
            }),
        ),
    },
  ],
  ['note_include_parameter', 'NOTE-017', { request: (req) => is(req, 'GET', /^\/notes\/[^/]+$/) && dropQuery(req, 'include') }],
  [
    'session_notes',
    'NOTE-021',
    { response: (res, req) => is(req, 'GET', /^\/sessions\/[^/]+\/notes$/) && editBody(res, (b) => b.data && (b.data.notes = [])) },
  ],
  [
    'documents_list_without_meta',
    'PAG-005',
    { response: (res, req) => is(req, 'GET', /\/documents$/) && editBody(res, (b) => (b.meta = { page: 1, limit: 20, total_pages: 1 })) },
  ],
  [
    'patient_id_kept_exact',
    'PAT-001',
    {
      response: (res, req) =>
        is(req, 'GET', /^\/patients\/\d+$/) &&
        editBody(res, (b) => b.data && (b.data.id = String(b.data.id).replace(/\d$/, (d) => String((Number(d) + 1) % 10)))),
    },
  ],
  [
    'name_built_from_first_and_last',
    'PAT-003',
    {
      response: (res, req) =>
        is(req, 'POST', /^\/patients$/) && editBody(res, (b) => b.data && !jsonOf(req.body)?.name && (b.data.name = 'Unnamed')),
    },
  ],
  [
    'patient_list_items_without_detail_fields',
    'PAT-012',
    {
      response: (res, req) =>
        is(req, 'GET', /^\/patients$/) &&
        editBody(
          res,
          (b) =>
            Array.isArray(b.data) &&
            b.data.forEach((p: any) => {
              p.consent = false;
            }),
        ),
    },
  ],
  [
    'name_only_patient_consent_false',
    'PAT-015',
    {
      response: (res, req) =>
        /^\/patients(\/\d+)?$/.test(apiPath(req)) && editBody(res, (b) => b.data && !Array.isArray(b.data) && (b.data.consent = true)),
    },
  ],
  ['npi_lookup', 'PRV-006', { request: (req) => is(req, 'GET', /^\/providers$/) && dropQuery(req, 'npi') }],
  [
    'regenerate_idempotency_key',
    'REGEN-003',
    () => {
      // A repeat with a key already used is refused as a conflict instead of collapsing onto the first.
      const seen = new Set<string>();
      return {
        response(res, req) {
          const k = req.headers['idempotency-key'];
          if (!k || !/\/regenerate$/.test(apiPath(req))) return;
          if (seen.has(k)) answer(res, 409, { error: 'A regeneration is already running' });
          seen.add(k);
        },
      };
    },
  ],
  [
    'regenerate_unavailable',
    'REGEN-013',
    { response: (res, req) => /\/regenerate$/.test(apiPath(req)) && res.status === 503 && answer(res, 500, { error: 'down' }) },
  ],
  [
    'regenerate_idempotent_repeat_same_body',
    'REGEN-019',
    {
      response: (res, req) =>
        /\/regenerate$/.test(apiPath(req)) && res.status === 202 && editBody(res, (b) => (b.message = `queued at ${Math.random()}`)),
    },
  ],
  [
    'status_code_conformance',
    'ERR-017',
    { response: (res, req) => is(req, 'GET', /^\/providers$/) && res.status === 200 && (res.status = 299) },
  ],
  ['not_a_server_error', 'ERR-018', { response: (res, req) => is(req, 'GET', PROVIDER) && answer(res, 500, { error: 'boom' }) }],
  [
    'content_type_conformance',
    'GEN-003',
    { response: (res, req) => is(req, 'GET', /^\/providers$/) && void (res.headers['content-type'] = 'text/plain') },
  ],
  [
    'response_schema_conformance',
    'GEN-003',
    { response: (res, req) => is(req, 'GET', PROVIDER) && editBody(res, (b) => b.data && (b.data.name = 42)) },
  ],
];

// Response checks of error answers, run with a check whose requests are refused (in every profile: its wrong types
// break the document's own field types).
const ERROR_CHECKS: Array<[string, string, Breaks]> = [
  ['error_body_shape', 'GEN-005', plainErrors],
  ['validation_error_details', 'ERR-001', noDetails],
];

// The response checks judge every exchange of the run: their variants run with a check that sends the requests.
const RESPONSE_CHECKS = ['status_code_conformance', 'not_a_server_error', 'content_type_conformance', 'response_schema_conformance'];
const checks = checksNamed(broken.map(([n]) => n).filter((n) => !RESPONSE_CHECKS.includes(n)));
const file = describeCheckFile('checks proven by a variant of their own', checks, {
  missing_required_rejected: /nothing to assert|assumed/,
});
describeBrokenVariants(
  'checks proven by a variant of their own',
  file,
  checks,
  broken.filter(([n]) => !RESPONSE_CHECKS.includes(n)),
);
describeBrokenVariants(
  'response checks',
  file,
  [],
  broken.filter(([n]) => RESPONSE_CHECKS.includes(n)),
  [],
  ['success_wrapped_in_data'],
);
describeBrokenVariants('response checks of error answers', file, [], ERROR_CHECKS, [], ['wrong_type_rejected']);
