// Single-defect rows for the rules the schema checks claim: a field of the wrong type, form or presence in the
// answers (judged by response_schema_conformance, or by rate_limit_headers for headers, on the requests a driver
// check sends) or in the webhook payloads a check validates (played by the planted sender).
import { jsonOf, setJson } from './broken-proxy.ts';
import type { Breaks } from './check-file.ts';
import { answers, type Defect, eachItem, pathOf, type Payload, to } from './single-defect.ts';

const PATIENT = /^\/patients(\/\d+)?$/;
const APPOINTMENT = /^\/appointments(\/[^/]+)?$/;
const DOCUMENT = /^\/patients\/\d+\/documents(\/[^/]+\/extract)?$/;
const PROVIDER = /^\/providers(\/[^/]+)?$/;
const NOTE = /^\/notes\/[^/]+$/;
const LISTS = /^\/(patients|appointments|providers|notes)$/;

/** Every resource of the 2xx answers to `path` (any method). */
const every = (path: RegExp, fn: (item: any) => void): Breaks =>
  answers(
    (req, res) => res.status < 300 && path.test(pathOf(req)),
    (b) => eachItem(b, fn),
  );
/** Only the items of the GET list at `path`. */
const listed = (path: RegExp, fn: (item: any) => void): Breaks =>
  answers(
    (req, res) => res.status === 200 && to('GET', path)(req) && Array.isArray(jsonOf(res.body)?.data),
    (b) => eachItem(b, fn),
  );
/** The answer's payload without its {data} envelope. */
const unwrapped = (method: string, path: RegExp): Breaks =>
  answers(
    (req, res) => to(method, path)(req) && res.status === 200,
    (b) => b.data,
  );
const header = (name: string, value: string): Breaks => ({
  response: (res) => void (res.headers[name] !== undefined && (res.headers[name] = value)),
});

/** Note events (NOTE_CREATED, NOTE_REGENERATED, NOTE_UPDATED) rewritten by `fn`. */
const noteEvents = (fn: (p: Payload) => void) => (p: Payload) => {
  if (String(p.event).startsWith('NOTE_')) fn(p);
  return p;
};
const documentEvents = (fn: (p: Payload) => void) => (p: Payload) => {
  if (p.event === 'DOCUMENT_STATUS_CHANGED') fn(p);
  return p;
};

export const shapeDefects: Defect[] = [
  // Lists and errors
  {
    rule: 'GEN-004',
    defect: 'lists without meta',
    driver: 'list_meta_defaults',
    breaks: answers(
      (req, res) => to('GET', LISTS)(req) && res.status === 200,
      (b) => void delete b.meta,
    ),
  },
  {
    rule: 'GEN-005',
    defect: 'a 404 body {message}',
    driver: 'external_id_lookup_miss',
    breaks: answers(
      (_, res) => res.status === 404,
      () => ({ message: 'Not found' }),
    ),
  },
  {
    rule: 'PAG-003',
    defect: 'meta.total_pages a string',
    driver: 'list_meta_defaults',
    breaks: answers(
      (req, res) => to('GET', LISTS)(req) && res.status === 200,
      (b) => void (b.meta && (b.meta.total_pages = String(b.meta.total_pages))),
    ),
  },
  {
    rule: 'GEN-012',
    defect: 'created_at a local time without offset',
    driver: 'patient_lifecycle',
    breaks: every(PATIENT, (p) => void (p.created_at = '2026-01-02T03:04:05')),
  },
  {
    rule: 'XID-002',
    defect: 'an external_id of 256 characters',
    driver: 'patient_lifecycle',
    breaks: every(PATIENT, (p) => void (p.external_id = 'x'.repeat(256))),
  },
  // Patients
  {
    rule: 'PAT-002',
    defect: 'name an object',
    driver: 'patient_lifecycle',
    breaks: every(PATIENT, (p) => void (p.name = { first: p.first_name, last: p.last_name })),
  },
  { rule: 'PAT-007', defect: 'phone a number', driver: 'patient_lifecycle', breaks: every(PATIENT, (p) => void (p.phone = 5550100)) },
  {
    rule: 'PAT-009',
    defect: 'an mrn of 65 characters',
    driver: 'patient_lifecycle',
    breaks: every(PATIENT, (p) => void (p.mrn = 'M'.repeat(65))),
  },
  {
    rule: 'PAT-011',
    defect: 'created_at epoch seconds',
    driver: 'patient_lifecycle',
    breaks: every(PATIENT, (p) => void (p.created_at = 1767225600)),
  },
  {
    rule: 'PAT-014',
    defect: 'list items carry consent',
    driver: 'patient_lifecycle',
    breaks: listed(/^\/patients$/, (p) => void (p.consent = true)),
  },
  {
    rule: 'PAT-014',
    defect: 'get-by-id without consent',
    driver: 'patient_lifecycle',
    breaks: answers(
      (req, res) => to('GET', /^\/patients\/\d+$/)(req) && res.status === 200,
      (b) => void delete b.data?.consent,
    ),
  },
  {
    rule: 'PAT-022',
    defect: 'get-by-id without the data envelope',
    driver: 'patient_lifecycle',
    breaks: unwrapped('GET', /^\/patients\/\d+$/),
  },
  {
    rule: 'PAT-028',
    defect: 'an address with a street field',
    driver: 'patient_lifecycle',
    breaks: every(PATIENT, (p) => void (p.address = { line1: '1 Main St', street: 'Main St' })),
  },
  // Appointments
  {
    rule: 'APT-001',
    defect: 'listed appointment ids not UUIDs',
    driver: 'appointment_lifecycle',
    breaks: listed(/^\/appointments$/, (a) => void (a.id = `appt-${a.id}`)),
  },
  {
    rule: 'APT-003',
    defect: 'provider_name a number',
    driver: 'appointment_lifecycle',
    breaks: every(APPOINTMENT, (a) => void (a.provider_name = 7)),
  },
  {
    rule: 'APT-007',
    defect: 'appointment_type a number',
    driver: 'appointment_lifecycle',
    breaks: every(APPOINTMENT, (a) => void (a.appointment_type = 3)),
  },
  {
    rule: 'APT-008',
    defect: 'visit_type Video',
    driver: 'appointment_lifecycle',
    breaks: every(APPOINTMENT, (a) => void (a.visit_type = 'Video')),
  },
  {
    rule: 'APT-011',
    defect: 'status BOOKED',
    driver: 'appointment_lifecycle',
    breaks: every(APPOINTMENT, (a) => void (a.status = 'BOOKED')),
  },
  {
    rule: 'APT-012',
    defect: 'updated_at epoch seconds',
    driver: 'appointment_lifecycle',
    breaks: every(APPOINTMENT, (a) => void (a.updated_at = 1767225600)),
  },
  {
    rule: 'APT-013',
    defect: 'repeat_rule interval a string',
    driver: 'appointment_lifecycle',
    breaks: every(APPOINTMENT, (a) => void (a.repeat_rule = { frequency: 'weekly', interval: '2' })),
  },
  {
    rule: 'APT-017',
    defect: 'get-by-id without the data envelope',
    driver: 'appointment_lifecycle',
    breaks: unwrapped('GET', /^\/appointments\/[^/]+$/),
  },
  // Documents
  {
    rule: 'DOC-001',
    defect: 'listed document ids not UUIDs',
    driver: 'document_lifecycle',
    breaks: listed(/^\/patients\/\d+\/documents$/, (d) => void (d.id = `doc-${d.id}`)),
  },
  { rule: 'DOC-002', defect: 'filename a number', driver: 'document_lifecycle', breaks: every(DOCUMENT, (d) => void (d.filename = 1)) },
  {
    rule: 'DOC-003',
    defect: 'file_size a string',
    driver: 'document_lifecycle',
    breaks: every(DOCUMENT, (d) => void (d.file_size = String(d.file_size))),
  },
  {
    rule: 'DOC-004',
    defect: 'upload_date epoch seconds',
    driver: 'document_lifecycle',
    breaks: every(DOCUMENT, (d) => void (d.upload_date = 1767225600)),
  },
  { rule: 'DOC-005', defect: 'status done', driver: 'document_lifecycle', breaks: every(DOCUMENT, (d) => void (d.status = 'done')) },
  {
    rule: 'DOC-008',
    defect: 'external_id a number',
    driver: 'document_lifecycle',
    breaks: every(DOCUMENT, (d) => void (d.external_id = 42)),
  },
  {
    rule: 'ERR-010',
    defect: 'the extract answer with success "true"',
    driver: 'extract_endpoint_starts_a_run',
    breaks: answers(
      (req) => to('POST', /\/extract$/)(req),
      (b) => void (b.success = String(b.success)),
    ),
  },
  // Providers
  {
    rule: 'PRV-001',
    defect: 'provider ids not UUIDs',
    driver: 'provider_by_id',
    breaks: answers(
      (req, res) => to('GET', /^\/providers\/[^/]+$/)(req) && res.status === 200,
      (b) => void (b.data.id = `prv-${b.data.id}`),
    ),
  },
  { rule: 'PRV-002', defect: 'specialty a number', driver: 'provider_by_id', breaks: every(PROVIDER, (p) => void (p.specialty = 5)) },
  { rule: 'PRV-003', defect: 'npi a number', driver: 'provider_by_id', breaks: every(PROVIDER, (p) => void (p.npi = Number(p.npi))) },
  {
    rule: 'PRV-004',
    defect: 'joined_at "yesterday"',
    driver: 'provider_by_id',
    breaks: every(PROVIDER, (p) => void (p.joined_at = 'yesterday')),
  },
  // Notes
  {
    rule: 'NOTE-002',
    defect: 'listed note ids not UUIDs',
    driver: 'list_meta_defaults',
    breaks: listed(/^\/notes$/, (n) => void (n.id = `note-${n.id}`)),
  },
  {
    rule: 'NOTE-003',
    defect: 'updated_at epoch seconds',
    driver: 'list_meta_defaults',
    breaks: listed(/^\/notes$/, (n) => void (n.updated_at = 1767225600)),
  },
  {
    rule: 'NOTE-004',
    defect: 'content an array of paragraphs',
    driver: 'note_include_parameter',
    breaks: every(NOTE, (n) => void (n.content = [n.content])),
  },
  {
    rule: 'NOTE-005',
    defect: 'problems a string',
    driver: 'note_include_parameter',
    breaks: every(NOTE, (n) => void (n.problems = (n.problems ?? []).join(', '))),
  },
  {
    rule: 'NOTE-006',
    defect: 'icd10_codes an array',
    driver: 'note_include_parameter',
    breaks: every(NOTE, (n) => void (n.icd10_codes = Object.keys(n.icd10_codes ?? {}))),
  },
  {
    rule: 'NOTE-009',
    defect: 'transcript title a number',
    driver: 'note_include_parameter',
    breaks: every(NOTE, (n) => void (n.transcript && (n.transcript.title = 1))),
  },
  {
    rule: 'NOTE-010',
    defect: 'transcript session_date a number',
    driver: 'note_include_parameter',
    breaks: every(NOTE, (n) => void (n.transcript && (n.transcript.session_date = 20260102))),
  },
  {
    rule: 'NOTE-012',
    defect: 'client_history medical_history a number',
    driver: 'note_include_parameter',
    breaks: every(NOTE, (n) => void (n.patient?.client_history && (n.patient.client_history.medical_history = 0))),
  },
  {
    rule: 'NOTE-013',
    defect: 'the session without its transcript',
    driver: 'session_notes',
    breaks: answers(
      (req, res) => to('GET', /^\/sessions\/[^/]+\/notes$/)(req) && res.status === 200,
      (b) => void delete b.data?.session?.transcript,
    ),
  },
  { rule: 'NOTE-016', defect: 'a note without the data envelope', driver: 'note_include_parameter', breaks: unwrapped('GET', NOTE) },
  {
    rule: 'NOTE-026',
    defect: 'codes map to objects',
    driver: 'note_include_parameter',
    breaks: every(NOTE, (n) => void (n.icd10_codes = { 'F41.1': { description: 'Generalized anxiety disorder' } })),
  },
  {
    rule: 'NOTE-027',
    defect: 'session_date 03/04/2026',
    driver: 'note_include_parameter',
    breaks: every(NOTE, (n) => void (n.transcript && (n.transcript.session_date = '03/04/2026'))),
  },
  // Headers and error details
  {
    rule: 'RATE-005',
    defect: 'X-RateLimit-Reset an HTTP date',
    driver: 'list_meta_defaults',
    breaks: header('x-ratelimit-reset', 'Wed, 21 Oct 2026 07:28:00 GMT'),
  },
  {
    rule: 'RATE-006',
    defect: 'Retry-After an HTTP date',
    driver: 'rate_limited_429',
    breaks: header('retry-after', 'Wed, 21 Oct 2026 07:28:00 GMT'),
  },
  {
    rule: 'RATE-008',
    defect: 'X-RateLimit-Limit "1000/min"',
    driver: 'list_meta_defaults',
    breaks: header('x-ratelimit-limit', '1000/min'),
  },
  {
    rule: 'ERR-011',
    defect: '400 details as lists of messages',
    driver: 'out_of_bounds_rejected',
    breaks: {
      response(res) {
        const b = jsonOf(res.body);
        if (res.status !== 400 || !b?.details || typeof b.details !== 'object') return;
        for (const k of Object.keys(b.details)) b.details[k] = [b.details[k]];
        setJson(res, b);
      },
    },
  },
  // Webhook payloads
  {
    rule: 'EVT-012',
    defect: 'NOTE_UPDATED sent as note_updated',
    deliver: (p) => (p.event === 'NOTE_UPDATED' ? { ...p, event: 'note_updated' } : p),
  },
  { rule: 'EVT-013', defect: 'session_id not a UUID', deliver: noteEvents((p) => void (p.session_id = `session-${String(p.session_id)}`)) },
  { rule: 'EVT-014', defect: 'patient_id a number', deliver: noteEvents((p) => void (p.patient_id = Number(p.patient_id))) },
  { rule: 'EVT-015', defect: 'source left out', deliver: noteEvents((p) => void delete p.source) },
  {
    rule: 'EVT-017',
    defect: 'timestamp without milliseconds',
    deliver: noteEvents((p) => void (p.timestamp = String(p.timestamp).replace(/\.\d+/, ''))),
  },
  { rule: 'EVT-046', defect: 'source a number', deliver: noteEvents((p) => void (p.source = 1)) },
  { rule: 'EVT-018', defect: 'event DOCUMENT_STATUS', deliver: documentEvents((p) => void (p.event = 'DOCUMENT_STATUS')) },
  { rule: 'EVT-019', defect: 'patient_id a number', deliver: documentEvents((p) => void (p.patient_id = Number(p.patient_id))) },
  { rule: 'EVT-021', defect: 'status processing', deliver: documentEvents((p) => void (p.status = 'processing')) },
  { rule: 'EVT-024', defect: 'timestamp epoch seconds', deliver: documentEvents((p) => void (p.timestamp = 1767225600)) },
  {
    rule: 'EVT-049',
    defect: 'document_url a relative path',
    deliver: documentEvents((p) => void (p.document_url = new URL(String(p.document_url)).pathname)),
  },
];
