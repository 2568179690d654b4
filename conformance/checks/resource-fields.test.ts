// The resource-field checks against the mock (they pass, documented assumptions skipped, nothing left behind), then
// each against a loopback proxy that breaks its one rule: the check must fail, citing that rule's id.
import { apiPath, is, jsonOf, setJson, type ProxyRequest, type ProxyResponse } from '../testing/broken-proxy.ts';
import { checksNamed, describeBrokenVariants, describeCheckFile, type Breaks } from '../testing/check-file.ts';

// ----- helpers of the variants -----
/** Edits a JSON request body in place (when it is JSON). */
const editJson = (req: ProxyRequest, fn: (b: any) => void) => {
  const b = jsonOf(req.body);
  if (!b || typeof b !== 'object') return;
  fn(b);
  setJson(req, b);
};
/** Drops query parameters from a request. */
const dropQuery = (req: ProxyRequest, ...keys: string[]) => {
  const u = new URL(req.url, 'http://proxy');
  for (const k of keys) u.searchParams.delete(k);
  req.url = u.pathname + u.search;
};
/** Sets the value of a multipart form field (latin1 keeps the file's bytes intact). */
const setFormField = (req: ProxyRequest, name: string, value: string) => {
  const text = req.body.toString('latin1');
  req.body = Buffer.from(text.replace(new RegExp(`(name="${name}"\\r\\n\\r\\n)[^\\r]*`), `$1${value}`), 'latin1');
};
const validation400 = (res: ProxyResponse, field: string) => {
  res.status = 400;
  res.headers['content-type'] = 'application/json';
  setJson(res, { error: 'Validation failed', details: { [field]: 'refused by the broken variant' } });
};

/** A server whose external_ids are unique across organizations: a value another key's create holds is answered 409. */
function crossOrgUniqueness(): Breaks {
  const held = new Map<string, { key: string; id: string }>();
  return {
    request(req) {
      const ext = is(req, 'POST', /^\/patients$/) ? jsonOf(req.body)?.external_id : undefined;
      const prev = typeof ext === 'string' ? held.get(ext) : undefined;
      if (!prev || prev.key === req.headers['x-api-key']) return;
      // Refused before it reaches the mock, so no patient is stored for the 409.
      Object.assign(req, { method: 'GET', body: Buffer.alloc(0) });
      req.headers['x-crc-conflict'] = JSON.stringify({ id: prev.id, external_id: ext });
    },
    response(res, req) {
      const conflict = req.headers['x-crc-conflict'];
      if (conflict) {
        res.status = 409;
        res.headers['content-type'] = 'application/json';
        return setJson(res, { error: 'external_id already in use', existing: JSON.parse(conflict) });
      }
      const ext = jsonOf(req.body)?.external_id;
      if (is(req, 'POST', /^\/patients$/) && res.status === 201 && typeof ext === 'string')
        held.set(ext, { key: req.headers['x-api-key'] ?? '', id: String(jsonOf(res.body)?.data?.id) });
    },
  };
}

// One variant per check: [check name, rule it must fail on, what the variant breaks].
const broken: Array<[string, string, Breaks]> = [
  [
    'one_key_covers_every_provider',
    'GEN-002',
    { request: (req) => is(req, 'POST', /^\/patients$/) && editJson(req, (b) => delete b.provider_id) },
  ],
  [
    'page_past_end_empty',
    'PAG-008',
    {
      response(res, req) {
        const b = jsonOf(res.body);
        if (req.method === 'GET' && Array.isArray(b?.data) && b.data.length === 0 && b.meta) {
          res.status = 404;
          setJson(res, { error: 'Page not found' });
        }
      },
    },
  ],
  ['external_id_query_parameter', 'XID-007', { request: (req) => is(req, 'GET', /^\/appointments$/) && dropQuery(req, 'external_id') }],
  [
    'upload_form_patient_id_field',
    'XID-013',
    { request: (req) => is(req, 'POST', /\/documents$/) && setFormField(req, 'patient_id', '1') },
  ],
  [
    'lookup_hit_meta_first_page',
    'XID-014',
    {
      response(res, req) {
        const u = new URL(req.url, 'http://proxy');
        const b = jsonOf(res.body);
        if ((u.searchParams.has('external_id') || u.searchParams.has('npi')) && b?.meta && u.searchParams.has('page')) {
          b.meta.page = Number(u.searchParams.get('page'));
          setJson(res, b);
        }
      },
    },
  ],
  [
    'upload_patient_id_mismatch_400',
    'XID-015',
    { request: (req) => is(req, 'POST', /\/documents$/) && setFormField(req, 'patient_id', /\/patients\/(\d+)\//.exec(apiPath(req))![1]!) },
  ],
  [
    'patient_first_name_min_length',
    'PAT-004',
    { request: (req) => /^\/patients/.test(apiPath(req)) && editJson(req, (b) => b.first_name === '' && delete b.first_name) },
  ],
  [
    'patient_last_name_min_length',
    'PAT-005',
    { request: (req) => /^\/patients/.test(apiPath(req)) && editJson(req, (b) => b.last_name === '' && delete b.last_name) },
  ],
  [
    'patient_date_of_birth_format',
    'PAT-006',
    {
      response(res, req) {
        const b = jsonOf(res.body);
        if (/^\/patients/.test(apiPath(req)) && typeof b?.data?.date_of_birth === 'string') {
          b.data.date_of_birth += 'T00:00:00.000Z';
          setJson(res, b);
        }
      },
    },
  ],
  [
    'patient_address_object',
    'PAT-008',
    {
      // The broken server drops an address it cannot read and stores the patient (the inner fields it would take are
      // a reading of its own, so dropping is what every reading of it shows).
      request: (req) => is(req, 'POST', /^\/patients$/) && editJson(req, (b) => typeof b.address === 'string' && delete b.address),
    },
  ],
  [
    'patient_address_fields',
    'PAT-028',
    {
      // A server whose address is { street, ... }: line1 is kept under another name.
      response(res, req) {
        const b = jsonOf(res.body);
        const a = b?.data?.address;
        if (!/^\/patients(\/\d+)?$/.test(apiPath(req)) || !a || typeof a !== 'object' || !('line1' in a)) return;
        b.data.address = { ...a, street: a.line1, line1: undefined };
        setJson(res, b);
      },
    },
  ],
  [
    'patient_mrn_optional',
    'PAT-010',
    { response: (res, req) => is(req, 'POST', /^\/patients$/) && jsonOf(req.body)?.mrn === null && validation400(res, 'mrn') },
  ],
  [
    'patient_provider_id_string',
    'PAT-016',
    { request: (req) => /^\/patients/.test(apiPath(req)) && editJson(req, (b) => b.provider_id === '' && delete b.provider_id) },
  ],
  ['patients_list_parameters', 'PAT-019', { request: (req) => is(req, 'GET', /^\/patients$/) && dropQuery(req, 'external_id') }],
  [
    'patient_search_fields',
    'PAT-020',
    {
      request(req) {
        const u = new URL(req.url, 'http://proxy');
        if (!is(req, 'GET', /^\/patients$/) || !u.searchParams.get('search')?.startsWith('MRN-')) return;
        u.searchParams.set('search', 'no-such-patient-anywhere');
        req.url = u.pathname + u.search;
      },
    },
  ],
  [
    'patient_create_name_variants',
    'PAT-026',
    {
      request: (req) =>
        is(req, 'POST', /^\/patients$/) &&
        editJson(req, (b) => !('name' in b || 'first_name' in b || 'last_name' in b) && (b.name = 'Added by proxy')),
    },
  ],
  [
    'patient_patch_fields_optional',
    'PAT-027',
    { request: (req) => is(req, 'PATCH', /^\/patients\/\d+$/) && editJson(req, (b) => delete b.gender) },
  ],
  ['patient_search_parameter_named_search', 'PAT-029', { request: (req) => is(req, 'GET', /^\/patients$/) && dropQuery(req, 'search') }],
  [
    'appointment_patient_id_digit_string',
    'APT-002',
    {
      response(res, req) {
        if (is(req, 'POST', /^\/appointments$/))
          res.body = Buffer.from(res.body.toString('utf8').replace(/"patient_id":"(\d{1,15})\d*"/, '"patient_id":$1'));
      },
    },
  ],
  [
    'appointment_provider_id_optional',
    'APT-004',
    { request: (req) => is(req, 'POST', /^\/appointments$/) && editJson(req, (b) => b.provider_id === '' && delete b.provider_id) },
  ],
  [
    'appointment_start_at_date_time',
    'APT-009',
    {
      request: (req) =>
        // The broken server reads any start_at it cannot parse as a week from now.
        is(req, 'POST', /^\/appointments$/) &&
        editJson(
          req,
          (b) =>
            typeof b.start_at === 'string' &&
            !/^\d{4}-\d{2}-\d{2}T/.test(b.start_at) &&
            (b.start_at = new Date(Date.now() + 7 * 864e5).toISOString()),
        ),
    },
  ],
  [
    'appointment_duration_minutes_integer',
    'APT-010',
    {
      request: (req) =>
        /^\/appointments/.test(apiPath(req)) &&
        editJson(req, (b) => typeof b.duration_minutes === 'number' && (b.duration_minutes = Math.max(1, Math.round(b.duration_minutes)))),
    },
  ],
  ['appointments_list_parameters', 'APT-014', { request: (req) => is(req, 'GET', /^\/appointments$/) && dropQuery(req, 'page') }],
  [
    'appointment_create_all_fields',
    'APT-016',
    { request: (req) => is(req, 'POST', /^\/appointments$/) && editJson(req, (b) => delete b.notes) },
  ],
  [
    'appointment_patch_reassigns_provider',
    'APT-019',
    {
      request: (req) =>
        is(req, 'PATCH', /^\/appointments\/[^/]+$/) &&
        editJson(req, (b) => 'provider_id' in b && (delete b.provider_id, (b.notes = 'provider ignored'))),
    },
  ],
  [
    'appointment_create_required_and_defaults',
    'APT-023',
    {
      response(res, req) {
        const b = jsonOf(res.body);
        if (is(req, 'POST', /^\/appointments$/) && res.status === 201 && !('visit_type' in (jsonOf(req.body) ?? {}))) {
          b.data.visit_type = 'Telehealth';
          setJson(res, b);
        }
      },
    },
  ],
  [
    'appointment_repeat_rule_input',
    'APT-024',
    {
      request: (req) =>
        is(req, 'POST', /^\/appointments$/) &&
        editJson(req, (b) => b.repeat_rule && !b.repeat_rule.frequency && (b.repeat_rule.frequency = 'weekly')),
    },
  ],
  [
    'appointment_patch_fields_optional',
    'APT-025',
    {
      request: (req) =>
        is(req, 'PATCH', /^\/appointments\/[^/]+$/) && editJson(req, (b) => !Object.keys(b).length && (b.notes = 'filled by proxy')),
    },
  ],
  [
    'appointment_status_any_transition',
    'APT-026',
    {
      request: (req) =>
        is(req, 'PATCH', /^\/appointments\/[^/]+$/) && editJson(req, (b) => b.status === 'NO_SHOW' && (b.status = 'CANCELLED')),
    },
  ],
  [
    'appointment_create_201',
    'APT-028',
    { response: (res, req) => is(req, 'POST', /^\/appointments$/) && res.status === 201 && (res.status = 200) },
  ],
  // A server whose external_ids are unique per resource type: each type's value is stored under its own suffix.
  [
    'external_id_one_namespace',
    'XID-016',
    {
      request(req) {
        if (is(req, 'POST', /^\/appointments$/))
          editJson(req, (b) => typeof b.external_id === 'string' && (b.external_id += '-appointments'));
        else if (is(req, 'POST', /\/documents$/)) {
          const m = /name="external_id"\r\n\r\n([^\r]*)/.exec(req.body.toString('latin1'));
          if (m) setFormField(req, 'external_id', `${m[1]}-documents`);
        }
      },
    },
  ],
  ['external_id_unique_per_organization', 'XID-003', crossOrgUniqueness()],
  ['providers_list_parameters', 'PRV-005', { request: (req) => is(req, 'GET', /^\/providers$/) && dropQuery(req, 'npi') }],
  ['notes_list_parameters', 'NOTE-014', { request: (req) => is(req, 'GET', /^\/notes$/) && dropQuery(req, 'page') }],
];

const checks = checksNamed(broken.map(([n]) => n));
const file = describeCheckFile('resource-field checks', checks, { patient_search_fields: /PAT-029/ });

describeBrokenVariants('resource-field checks', file, checks, broken);
