// Single-defect rows for the rules checks claim through `covers` on the resources (patients, appointments, documents,
// providers, notes, regeneration, external ids); their own rules are proven by the check files' broken variants,
// which layout.test.ts requires of every check. Each row breaks its rule alone.
import { answer, jsonOf, setJson, type ProxyRequest } from './broken-proxy.ts';
import type { Breaks } from './check-file.ts';
import { answers, both, type Defect, eachItem, items, pathOf, query, queryOf, sends, to } from './single-defect.ts';

const DOC = /^\/patients\/\d+\/documents$/;
const EXTRACT = /^\/patients\/\d+\/documents\/[^/]+\/extract$/;
const REGEN = /^\/sessions\/[^/]+\/notes\/regenerate$/;

/** Removes one field of a multipart body (latin1 keeps the bytes of the file part intact). */
function dropFormField(req: ProxyRequest, name: string): void {
  const boundary = /boundary=([^;]+)/.exec(req.headers['content-type'] ?? '')?.[1]?.replace(/"/g, '');
  if (!boundary) return;
  const text = req.body.toString('latin1');
  const part = new RegExp(
    `--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\r\\nContent-Disposition: form-data; name="${name}"\\r\\n\\r\\n[^\\r]*\\r\\n`,
    'i',
  );
  req.body = Buffer.from(text.replace(part, ''), 'latin1');
}

/** Documents that reach completed are reported failed instead, with `error` as extraction_error. */
const extractionFails = (error: unknown): Breaks =>
  answers(
    (req, res) => res.status < 300 && (to('GET', DOC)(req) || to('POST', EXTRACT)(req)),
    (b) =>
      eachItem(b, (d) => {
        if (d.status !== 'completed') return;
        Object.assign(d, { status: 'failed', has_extracted_text: false, extracted_text_length: null, extraction_error: error });
      }),
  );

/** After a PATCH sent an external_id, reads of that resource show it (the stored value changed). */
function externalIdChanges(): Breaks {
  const changed = new Map<string, string>();
  return {
    request(req) {
      const b = jsonOf(req.body);
      if (req.method === 'PATCH' && typeof b?.external_id === 'string') changed.set(pathOf(req), b.external_id);
    },
    response(res, req) {
      const v = changed.get(pathOf(req));
      const b = jsonOf(res.body);
      if (v === undefined || !b?.data || res.status >= 300) return;
      b.data.external_id = v;
      setJson(res, b);
    },
  };
}

/** The session notes as they were first read: a regenerated note never shows up there. */
function sessionNotesFrozen(): Breaks {
  const first = new Map<string, Buffer>();
  return {
    response(res, req) {
      if (!to('GET', /^\/sessions\/[^/]+\/notes$/)(req) || res.status !== 200) return;
      const seen = first.get(pathOf(req));
      if (seen) res.body = seen;
      else first.set(pathOf(req), res.body);
    },
  };
}

/** A create whose external_id is already taken answers 201 with the taken resource (the duplicate accepted). */
const duplicateAccepted = (path: RegExp): Breaks =>
  answers(
    (req, res) => to('POST', path)(req) && res.status === 409,
    (b) => ({ data: { id: b.existing?.id, external_id: b.existing?.external_id } }),
    201,
  );

export const resourceDefects: Defect[] = [
  // PAT, APT
  {
    rule: 'PAT-023',
    defect: 'PATCH /patients/{id} answers 200 and changes nothing',
    breaks: sends(to('PATCH', /^\/patients\/\d+$/), (b) => {
      for (const k of Object.keys(b)) delete b[k];
    }),
  },
  {
    rule: 'APT-018',
    defect: 'PATCH /appointments/{id} ignores status and visit_type',
    breaks: sends(to('PATCH', /^\/appointments\/[^/]+$/), (b) => void (delete b.status, delete b.visit_type)),
  },
  {
    rule: 'APT-018',
    defect: 'PATCH /appointments/{id} ignores notes',
    breaks: sends(to('PATCH', /^\/appointments\/[^/]+$/), (b) => void delete b.notes),
  },
  { rule: 'APT-015', defect: 'the date filter ignored', breaks: query(to('GET', /^\/appointments$/), 'date') },
  {
    rule: 'APT-015',
    defect: 'start_date and end_date ignored',
    breaks: both(query(to('GET', /^\/appointments$/), 'start_date'), query(to('GET', /^\/appointments$/), 'end_date')),
  },
  // DOC
  {
    rule: 'DOC-017',
    defect: 'completed with has_extracted_text false',
    breaks: items('GET', DOC, (d) => void (d.status === 'completed' && (d.has_extracted_text = false))),
  },
  {
    rule: 'DOC-007',
    defect: 'has_extracted_text false once the text exists',
    breaks: items('GET', DOC, (d) => void (d.has_extracted_text = false)),
  },
  {
    rule: 'DOC-007',
    defect: 'has_extracted_text the string "yes"',
    breaks: items('GET', DOC, (d) => void (d.has_extracted_text &&= 'yes')),
  },
  {
    rule: 'DOC-023',
    defect: 'the extract answer without the document (success and message alone)',
    breaks: answers(
      (req, res) => to('POST', EXTRACT)(req) && res.status < 300,
      (b) => void delete b.data,
    ),
  },
  {
    rule: 'DOC-029',
    defect: 'extract answers 200 and starts no run (the document stays as it is)',
    breaks: {
      request: (req) =>
        void (
          to('POST', EXTRACT)(req) &&
          ((req.method = 'GET'),
          (req.url = req.url.replace(/\/documents\/[^/?]+\/extract/, '/documents')),
          (req.headers['x-crc-extract'] = pathOf(req)))
        ),
      response(res, req) {
        if (!req.headers['x-crc-extract'] || res.status !== 200) return;
        const doc = (jsonOf(res.body)?.data ?? []).find((d: any) => d.status === 'completed' || d.status === 'failed');
        answer(res, 200, { data: doc, success: true, message: 'Text extraction started.' });
      },
    },
  },
  {
    rule: 'DOC-006',
    defect: 'failed without a reason (extraction_error null)',
    breaks: items('GET', DOC, (d) => void (d.status === 'failed' && (d.extraction_error = null))),
  },
  {
    rule: 'DOC-006',
    defect: 'extraction_error a number when failed',
    breaks: items('GET', DOC, (d) => void (d.status === 'failed' && (d.extraction_error = 500))),
  },
  {
    rule: 'DOC-018',
    defect: 'extraction ends failed without extraction_error',
    breaks: extractionFails(null),
    caughtBy: ['extraction_reaches_terminal_state'],
  },
  {
    rule: 'DOC-027',
    defect: 'an upload whose extraction was not queued says extraction started',
    breaks: answers(
      (req, res) => to('POST', DOC)(req) && res.status === 201,
      (b) => void (b.message = 'Document uploaded; text extraction started.'),
    ),
  },
  {
    rule: 'DOC-021',
    defect: 'the documents list without the data envelope',
    breaks: answers(
      (req, res) => to('GET', DOC)(req) && res.status === 200,
      (b) => b.data,
    ),
  },
  { rule: 'DOC-021', defect: 'the documents list ignores external_id', breaks: query(to('GET', DOC), 'external_id') },
  // PRV, NOTE
  {
    rule: 'PRV-007',
    defect: 'an npi without a match answers 200 with no item',
    breaks: answers(
      (req, res) => to('GET', /^\/providers$/)(req) && res.status === 404 && queryOf(req).has('npi'),
      () => ({ data: [], meta: { page: 1, limit: 20, total_pages: 1 } }),
      200,
    ),
  },
  {
    rule: 'NOTE-007',
    defect: 'no transcript without include',
    breaks: answers(
      (req) => to('GET', /^\/notes\/[^/]+$/)(req) && !queryOf(req).has('include'),
      (b) => void delete b.data?.transcript,
    ),
  },
  {
    rule: 'NOTE-008',
    defect: 'no patient without include',
    breaks: answers(
      (req) => to('GET', /^\/notes\/[^/]+$/)(req) && !queryOf(req).has('include'),
      (b) => void delete b.data?.patient,
    ),
  },
  {
    rule: 'NOTE-018',
    defect: 'include= (empty) embeds both',
    breaks: query((req) => to('GET', /^\/notes\/[^/]+$/)(req) && queryOf(req).get('include') === '', 'include'),
  },
  {
    rule: 'NOTE-019',
    defect: 'include=transcript leaves out the body',
    breaks: answers(
      (req) => to('GET', /^\/notes\/[^/]+$/)(req) && queryOf(req).get('include') === 'transcript',
      (b) => void delete b.data?.content,
    ),
  },
  {
    rule: 'NOTE-019',
    defect: 'include=patient leaves out the codes',
    breaks: answers(
      (req) => to('GET', /^\/notes\/[^/]+$/)(req) && queryOf(req).get('include') === 'patient',
      (b) => void (delete b.data?.icd10_codes, delete b.data?.cpt_codes),
    ),
  },
  {
    rule: 'NOTE-022',
    defect: "an unknown session's notes answer 200",
    breaks: answers(
      (req, res) => to('GET', /^\/sessions\/[^/]+\/notes$/)(req) && res.status === 404,
      () => ({ data: { session: null, patient: null, notes: [] } }),
      200,
    ),
  },
  // REGEN
  {
    rule: 'REGEN-001',
    defect: 'regenerate answers 200',
    breaks: { response: (res, req) => void (to('POST', REGEN)(req) && res.status === 202 && (res.status = 200)) },
  },
  { rule: 'REGEN-014', defect: 'the regenerated note never shows on the session notes', breaks: sessionNotesFrozen },
  {
    rule: 'ERR-007',
    defect: 'the not-ready 409 as {message}',
    breaks: answers(
      (req, res) => to('POST', REGEN)(req) && res.status === 409,
      () => ({ message: 'Session not ready' }),
    ),
  },
  {
    rule: 'ERR-009',
    defect: 'the unavailable 503 as {message}',
    breaks: answers(
      (req, res) => to('POST', REGEN)(req) && res.status === 503,
      () => ({ message: 'Try later' }),
    ),
  },
  // XID
  { rule: 'APT-021', defect: 'a duplicate appointment external_id accepted', breaks: duplicateAccepted(/^\/appointments$/) },
  { rule: 'XID-004', defect: 'PATCH changes the external_id', breaks: externalIdChanges },
  {
    rule: 'XID-009',
    defect: 'a lookup paginated (page 2 empty)',
    breaks: answers(
      (req, res) => req.method === 'GET' && queryOf(req).has('external_id') && Number(queryOf(req).get('page')) > 1 && res.status === 200,
      (b) => void (b.data = []),
    ),
  },
  { rule: 'XID-011', defect: 'the documents lookup ignores external_id', breaks: query(to('GET', DOC), 'external_id') },
  {
    rule: 'XID-012',
    defect: 'the upload ignores the external_id form field',
    breaks: { request: (req) => void (to('POST', DOC)(req) && dropFormField(req, 'external_id')) },
  },
  {
    rule: 'ERR-005',
    defect: 'a lookup miss answers 404 with {message}',
    breaks: answers(
      (req, res) => res.status === 404 && queryOf(req).has('external_id'),
      () => ({ message: 'Not found' }),
    ),
  },
  {
    rule: 'ERR-005',
    defect: 'an npi without a match answers 200 with no item',
    breaks: answers(
      (req, res) => to('GET', /^\/providers$/)(req) && res.status === 404 && queryOf(req).has('npi'),
      () => ({ data: [], meta: { page: 1, limit: 20, total_pages: 1 } }),
      200,
    ),
  },
];
