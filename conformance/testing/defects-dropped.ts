// Claims the suite used to make and no longer does: a server with the defect passes the checks that made them (so
// the report lists these rules as not checked, each with its reason). coverage-honesty.test.ts runs each row against
// its former checks: should one of them learn to fail on it, the claim can be made again.
import { jsonOf } from './broken-proxy.ts';
import { answers, type DefectKeys, type DroppedClaim, items, keysWith, type Payload, to } from './single-defect.ts';
import { notRepeated } from './defects-protocol.ts';

const DOC = /^\/patients\/\d+\/documents$/;
const documentEvents = (fn: (p: Payload) => void) => (p: Payload) => {
  if (p.event === 'DOCUMENT_STATUS_CHANGED') fn(p);
  return p;
};

/**
 * The documents list and uploads: processing skipped, a granted documents:read refused, a PNG or a file over 1 MB
 * refused.
 */
function documentsAndUploads(keys: DefectKeys): DroppedClaim[] {
  return [
    {
      rule: 'DOC-016',
      defect: 'pending → completed without processing',
      formerly: ['extraction_reaches_terminal_state'],
      breaks: items('GET', DOC, (d) => void (d.status === 'processing' && (d.status = 'pending'))),
    },
    {
      rule: 'AUTH-017',
      defect: 'documents:read refused on the documents list',
      formerly: ['granted_scope_allowed'],
      breaks: answers(
        (req) => keysWith(keys, 'documents:read').includes(req.headers['x-api-key'] ?? '') && to('GET', DOC)(req),
        () => ({ error: 'Insufficient scope' }),
        403,
      ),
    },
    {
      rule: 'DOC-010',
      defect: 'a PNG refused',
      formerly: ['upload_limits_refused'],
      breaks: answers(
        (req) => to('POST', DOC)(req) && req.body.includes('image/png'),
        () => ({ error: 'Unsupported file type' }),
        415,
      ),
    },
    {
      rule: 'DOC-011',
      defect: 'a file over 1 MB refused',
      formerly: ['upload_limits_refused'],
      breaks: answers(
        (req) => to('POST', DOC)(req) && req.body.length > 1_000_000,
        () => ({ error: 'File too large' }),
        413,
      ),
    },
  ];
}

/** Webhook deliveries: a retry left out, a failed event with error null, document_url without the external_id. */
function deliveries(): DroppedClaim[] {
  return [
    {
      rule: 'EVT-036',
      defect: 'an attempt answered 429 or 408 not retried',
      formerly: ['webhook_retries_identical_payload'],
      deliver: notRepeated((answered) => answered === 429 || answered === 408),
    },
    {
      rule: 'EVT-022',
      defect: 'a failed DOCUMENT_STATUS_CHANGED with error null',
      formerly: ['webhook_payload_schema'],
      deliver: documentEvents((p) => void Object.assign(p, { status: 'failed', error: null })),
    },
    {
      rule: 'EVT-023',
      defect: "document_url the patient's collection though the document has an external_id",
      formerly: ['webhook_payload_schema'],
      deliver: documentEvents((p) => void (p.document_url = String(p.document_url).replace(/\?external_id=.*$/, ''))),
    },
  ];
}

/**
 * A create without external_id refused, a patient read without its notes, a document event's absent external_id
 * sent as "none".
 */
function externalIdsAndPatientNotes(): DroppedClaim[] {
  return [
    {
      rule: 'XID-001',
      defect: 'a create without external_id refused',
      formerly: ['external_id_lookup_hit'],
      breaks: answers(
        (req) => to('POST', /^\/(patients|appointments)$/)(req) && !jsonOf(req.body)?.external_id,
        () => ({ error: 'external_id is required', details: { external_id: 'required' } }),
        400,
      ),
    },
    {
      rule: 'PAT-013',
      defect: 'get-by-id without notes',
      formerly: ['response_schema_conformance'],
      driver: 'patient_lifecycle',
      breaks: answers(
        (req, res) => to('GET', /^\/patients\/\d+$/)(req) && res.status === 200,
        (b) => void delete b.data?.notes,
      ),
    },
    {
      rule: 'EVT-020',
      defect: 'external_id "none" in the event of a document without one',
      formerly: ['webhook_payload_schema'],
      deliver: documentEvents((p) => void (p.external_id ??= 'none')),
    },
  ];
}

/**
 * An npi lookup or an upload refused, and fields in another form or left out (file_type, file_size, the note's
 * patient context).
 */
function refusalsAndFieldForms(): DroppedClaim[] {
  return [
    {
      rule: 'PRV-011',
      defect: 'an npi lookup of another form answered 400',
      formerly: ['response_schema_conformance'],
      driver: 'npi_lookup',
      breaks: answers(
        (req) => to('GET', /^\/providers$/)(req) && !/^\d{10}$/.test(new URL(req.url, 'http://x').searchParams.get('npi') ?? '0000000000'),
        () => ({ error: 'npi must be 10 digits' }),
        400,
      ),
    },
    {
      rule: 'DOC-022',
      defect: 'an upload without external_id refused',
      formerly: ['document_lifecycle'],
      breaks: answers(
        (req) => to('POST', DOC)(req) && !req.body.includes('name="external_id"'),
        () => ({ error: 'external_id required' }),
        400,
      ),
    },
    {
      rule: 'DOC-034',
      defect: 'file_type pdf, not a MIME type',
      formerly: ['response_schema_conformance'],
      driver: 'document_lifecycle',
      breaks: items('GET', DOC, (d) => void (d.file_type = 'pdf')),
    },
    {
      rule: 'DOC-035',
      defect: 'file_size in kilobytes',
      formerly: ['response_schema_conformance'],
      driver: 'document_lifecycle',
      breaks: items('GET', DOC, (d) => void (d.file_size = Math.ceil(d.file_size / 1024))),
    },
    {
      rule: 'NOTE-011',
      defect: 'the patient context without name, first_name and last_name',
      formerly: ['response_schema_conformance'],
      driver: 'note_include_parameter',
      breaks: items(
        'GET',
        /^\/notes\/[^/]+$/,
        (n) => void (n.patient && (delete n.patient.name, delete n.patient.first_name, delete n.patient.last_name)),
      ),
    },
  ];
}

export function droppedClaims(keys: DefectKeys): DroppedClaim[] {
  return [...documentsAndUploads(keys), ...deliveries(), ...externalIdsAndPatientNotes(), ...refusalsAndFieldForms()];
}
