// The readings that change how an answer reads: other forms of the same values (contact details, codes, clock
// times, file types), other wordings and statuses the document does not fix, other header forms, fields the tables do
// not list. Applied to every API answer the engine gives (mock/readings/shape.ts), before the journal keeps it.
import { messages } from '../../generated/spec-values.ts';
import type { ActiveReadings } from './active.ts';
import { OTHER_ADDRESS } from './bodies.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The exchange an answer belongs to. */
export interface AnswerView {
  operationId: string | undefined;
  method: string;
  query: URLSearchParams;
  /** Milliseconds since the epoch, for header forms relative to now. */
  now: number;
  /** Did the request carry a valid key (the engine's checkKey)? */
  keyOk: boolean;
}

/** An answer being shaped: its status, JSON body (undefined when not JSON) and headers, changed in place. */
export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

const PATIENT_OPS = /Patient/;
const DOCUMENT_OPS = new Set(['listDocuments', 'uploadDocument', 'extractDocument']);
const NOTE_OPS = new Set(['listNotes', 'getNote', 'getSessionNotes', 'exportNotes']);
const PATH_IDS = ['patientId', 'appointmentId', 'documentId', 'noteId', 'sessionId', 'providerId'];
const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
};
const ERROR_CODES: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  503: 'SERVICE_UNAVAILABLE',
};

/** The objects an answer carries as data: the one object, the list's items, a session's notes. */
function dataObjects(body: unknown): Obj[] {
  if (Array.isArray(body)) return body.filter(isObj);
  if (!isObj(body)) return [];
  const d = body.data;
  if (Array.isArray(d)) return d.filter(isObj);
  if (!isObj(d)) return [];
  return Array.isArray(d.notes) ? [d, ...d.notes.filter(isObj)] : [d];
}

const upperSnake = (s: string) =>
  s
    .trim()
    .replace(/[\s-]+/g, '_')
    .toUpperCase();

function contact(p: Obj): void {
  if (typeof p.phone === 'string') p.phone = `+${p.phone.replace(/\D/g, '')}`;
  if (typeof p.email === 'string') p.email = p.email.toLowerCase();
  if (typeof p.gender === 'string') p.gender = p.gender.toLowerCase();
}

function otherAddress(p: Obj): void {
  if (!isObj(p.address)) return;
  const theirs = Object.fromEntries(Object.entries(OTHER_ADDRESS).map(([their, kit]) => [kit, their]));
  p.address = Object.fromEntries(Object.entries(p.address).flatMap(([k, v]) => (theirs[k] ? [[theirs[k], v]] : [])));
}

function documentForms(d: Obj, r: ActiveReadings): void {
  if (r.has('extra-fields') && typeof d.file_type === 'string') d.content_type = d.file_type;
  if (r.has('document-fields-other-forms')) {
    if (typeof d.file_type === 'string') d.file_type = EXTENSIONS[d.file_type] ?? d.file_type.split('/').pop()!.toUpperCase();
    if (typeof d.public_url === 'string' && /^https?:\/\//.test(d.public_url)) d.public_url = new URL(d.public_url).pathname;
  }
  if (r.has('event-error-other-words') && typeof d.extraction_error === 'string')
    d.extraction_error = `EXTRACTION_FAILED: ${d.extraction_error}`;
}

function noteForms(n: Obj, r: ActiveReadings): void {
  if (r.has('enum-values-upper-case'))
    for (const f of ['note_type', 'specialty']) if (typeof n[f] === 'string') n[f] = upperSnake(n[f] as string);
  if (r.has('codes-as-lists'))
    for (const f of ['icd10_codes', 'cpt_codes'])
      if (isObj(n[f]) && !('codes' in (n[f] as Obj)))
        n[f] = { codes: Object.entries(n[f] as Obj).map(([code, description]) => ({ code, description })) };
  const t = n.transcript;
  if (r.has('transcript-clock-times') && isObj(t)) {
    if (typeof t.session_date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(t.session_date)) t.session_date = `${t.session_date}T00:00:00Z`;
    for (const f of ['start_time', 'end_time'])
      if (typeof t[f] === 'string' && !Number.isNaN(Date.parse(t[f] as string)))
        t[f] = new Date(t[f] as string).toISOString().slice(11, 16);
  }
}

/** Values of the same fields in another form. */
function reshapeData(a: Answer, v: AnswerView, r: ActiveReadings): void {
  const op = v.operationId ?? '';
  const objects = dataObjects(a.body);
  if (PATIENT_OPS.test(op))
    for (const p of objects) {
      if (r.has('contact-normalised')) contact(p);
      if (r.has('address-other-fields')) otherAddress(p);
      if (r.has('mrn-none-omitted') && p.mrn === null) delete p.mrn;
    }
  if (DOCUMENT_OPS.has(op)) for (const d of objects) documentForms(d, r);
  if (NOTE_OPS.has(op)) for (const n of objects) noteForms(n, r);
  if (r.has('enum-values-upper-case') && /Provider/.test(op))
    for (const p of objects) for (const f of ['role', 'specialty']) if (typeof p[f] === 'string') p[f] = upperSnake(p[f] as string);
}

/** Statuses the document does not give, and bodies it leaves open. */
function reshapeAnswer(a: Answer, v: AnswerView, r: ActiveReadings): void {
  const op = v.operationId ?? '';
  const b = isObj(a.body) ? a.body : undefined;
  if (r.has('extract-data-only') && op === 'extractDocument' && a.status < 300 && b) {
    delete b.success;
    delete b.message;
  }
  if (r.has('extract-accepted-202') && op === 'extractDocument' && a.status === 200) a.status = 202;
  if (r.has('unset-as-null') && a.status < 300) unsetAsNull(op, b);
  if (r.has('upload-other-words') && op === 'uploadDocument' && a.status === 201 && b)
    b.message = b.message === messages.upload.queued ? 'Upload complete; extraction of the text has started.' : 'Upload complete.';
  if (r.has('export-other-layout') && op === 'exportNotes' && a.status === 200) {
    if (b && Array.isArray(b.data)) a.body = b.data;
    const type = a.headers.get('content-type') ?? '';
    if (type.startsWith('application/x-ndjson')) a.headers.set('content-type', 'application/ndjson');
  }
  if (r.has('lookup-meta-one') && a.status === 200 && b && isObj(b.meta) && (v.query.has('external_id') || v.query.has('npi')))
    b.meta = { page: 1, limit: 1, total_pages: 1 };
  // auth-first: the key is checked before the path is routed, so a keyless request to no operation is a 401.
  if (r.has('auth-first') && !v.keyOk && v.operationId === undefined && (a.status === 404 || a.status === 405)) {
    a.status = 401;
    a.headers.delete('allow');
    a.body = { error: 'Missing or invalid API key' };
  }
  if (r.has('statuses-other')) otherStatuses(a, v);
}

/** The optional fields the kit leaves out when unset, answered as null instead. */
const DOCUMENT_UNSET = ['extraction_error', 'extracted_date', 'external_id'];
const NULL_WHEN_UNSET: Record<string, { body?: string[]; data: string[] }> = {
  extractDocument: { body: ['error', 'details'], data: DOCUMENT_UNSET },
  uploadDocument: { data: DOCUMENT_UNSET },
  listDocuments: { data: DOCUMENT_UNSET },
};

function unsetAsNull(op: string, b: Obj | undefined): void {
  const fields = NULL_WHEN_UNSET[op];
  if (!fields || !b) return;
  for (const f of fields.body ?? []) if (!(f in b)) b[f] = null;
  for (const o of dataObjects(b)) for (const f of fields.data) if (!(f in o)) o[f] = null;
}

function otherStatuses(a: Answer, v: AnswerView): void {
  const b = isObj(a.body) ? a.body : undefined;
  if (v.operationId === 'createAppointment' && a.status === 201) a.status = 200;
  else if (a.status === 405) {
    a.status = 404;
    a.headers.delete('allow');
    if (b) b.error = 'Not found';
  } else if (a.status === 400 && b && isObj(b.details) && Object.keys(b.details).some((k) => PATH_IDS.includes(k))) {
    a.status = 404;
    a.body = { error: 'Not found' };
  } else if (v.operationId === 'uploadDocument' && (a.status === 413 || a.status === 415) && b) {
    a.body = { error: 'Validation failed', details: { file: String(b.error) } };
    a.status = 400;
  }
}

/** What the document quotes stays as quoted; every other text reads that server's way. */
function otherErrorTexts(a: Answer): void {
  const b = isObj(a.body) ? a.body : undefined;
  if (!b || typeof b.error !== 'string' || a.status < 400 || a.status === 429 || 'existing' in b) return;
  b.error = ERROR_CODES[a.status] ?? `HTTP_${a.status}`;
}

function extraFields(a: Answer, v: AnswerView): void {
  const b = isObj(a.body) ? a.body : undefined;
  a.headers.set('x-request-id', `req-${v.now.toString(36)}`);
  const type = a.headers.get('content-type');
  if (type && /^application\/json\s*$/i.test(type)) a.headers.set('content-type', 'application/json; charset=utf-8');
  if (!b) return;
  if (a.status >= 400) b.code = ERROR_CODES[a.status] ?? `HTTP_${a.status}`;
  else b.request_id = `req-${v.now.toString(36)}`;
  if (isObj(b.meta) && typeof b.meta.page === 'number' && typeof b.meta.total_pages === 'number')
    b.meta.has_more = b.meta.page < b.meta.total_pages;
  const kind = (v.operationId ?? '')
    .replace(/^(list|get|create|update|upload|extract)/, '')
    .replace(/s$/, '')
    .toLowerCase();
  for (const o of dataObjects(b)) if (!('object' in o)) o.object = kind || 'object';
}

/** Headers in that server's forms (also applied to the headers the transport already holds: shape.ts). */
export function headerForms(a: Pick<Answer, 'headers'>, v: AnswerView, r: ActiveReadings): void {
  if (r.has('rate-headers-other-forms')) {
    const reset = Number(a.headers.get('x-ratelimit-reset'));
    if (Number.isFinite(reset) && reset > 1e9) a.headers.set('x-ratelimit-reset', String(Math.max(0, Math.ceil(reset - v.now / 1000))));
    const retry = Number(a.headers.get('retry-after'));
    if (a.headers.has('retry-after') && Number.isFinite(retry))
      a.headers.set('retry-after', new Date(v.now + Math.ceil(retry) * 1000).toUTCString());
  }
  if (r.has('deprecation-headers')) {
    a.headers.set('deprecation', `@${Math.floor(Date.UTC(2026, 0, 1) / 1000)}`);
    a.headers.set('sunset', new Date(Date.UTC(2031, 0, 1)).toUTCString());
  }
}

/** Every reading that shapes answers, in an order where each sees the kit's values it changes. */
export function shapeAnswer(a: Answer, v: AnswerView, r: ActiveReadings): void {
  reshapeData(a, v, r);
  reshapeAnswer(a, v, r);
  if (r.has('error-texts-other')) otherErrorTexts(a);
  if (r.has('extra-fields')) extraFields(a, v);
  headerForms(a, v, r);
}
