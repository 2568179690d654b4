// An implementation that differs from the mock only where the source document leaves room (the kit's reading is
// marked x-assumption there): the documented profile must pass it, --profile all must not. Test-only, used behind
// the loopback proxy of broken-proxy.ts. Each deviation names the statement of the document that allows it.
import { answer, apiPath, jsonOf, setJson, type ProxyRequest, type ProxyResponse, type Variant } from './broken-proxy.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Extra fields a real service may add: the field tables are not said to be exhaustive (GEN-011 is assumed). */
function addFields(body: Obj, status: number): void {
  if (status >= 400)
    body.code = `E${status}`; // error.code: the document shows `{ error }`, not that nothing else comes
  else body.request_id = 'crc-allowed-variant';
  if (isObj(body.meta)) body.meta.total = 1; // meta.total beside page, limit, total_pages
  const items = Array.isArray(body.data) ? body.data : isObj(body.data) ? [body.data] : [];
  for (const item of items) {
    if (!isObj(item)) continue;
    item.crc_extra = true;
    // The inner structure of address is not shown: an unset line may be null.
    if (isObj(item.address) && !('line2' in item.address)) item.address.line2 = null;
  }
}

/**
 * How often a reading below changed an exchange (the test asserts every one was met). anyAddress is not counted: the
 * documented profile sends no address of another shape (the wrong-type case of address.line1 is the kit's reading).
 */
export const readingsMet = {
  newestFirst: 0,
  uploadAnswersProcessing: 0,
  exportNeedsFormat: 0,
  extractDataOnly: 0,
  otherSuccessStatus: 0,
  exportOtherLayout: 0,
  startedInOtherWords: 0,
  documentsQueryStrict: 0,
};

/**
 * Statuses the document does not give: an appointment create answered 200 (only patient create and upload are
 * 201), a started extraction 202 ("Its status codes for success and for failure: not shown").
 */
function otherSuccessStatus(res: ProxyResponse, req: ProxyRequest): void {
  if (req.method !== 'POST') return;
  if (apiPath(req) === '/appointments' && res.status === 201) res.status = 200;
  else if (apiPath(req).endsWith('/extract') && res.status === 200) res.status = 202;
  else return;
  readingsMet.otherSuccessStatus++;
}

/** What a request carried that the proxy rewrote before the mock saw it, to answer as the other reading would. */
const sent = new WeakMap<ProxyRequest, { address?: Obj; page?: number; limit?: number }>();
/** Documents whose upload answered processing: never seen pending afterwards (extraction had begun). */
const begun = new Set<string>();

/**
 * "Inner structure of address: not shown": any JSON object is stored and returned as sent, e.g. { line1: 12345 }.
 * The mock keeps string fields only, so the proxy sends it an empty address and answers with the one sent.
 */
function anyAddress(req: ProxyRequest, b: Obj): void {
  if (!isObj(b.address) || Object.values(b.address).every((v) => typeof v === 'string' || v === null)) return;
  sent.set(req, { ...sent.get(req), address: b.address });
  b.address = {};
}

/**
 * No list order is documented: patients newest first. The proxy reads up to 100 and cuts the requested page from
 * the reversed list (enough for the test mock's patients), so a create between two page reads shifts the pages.
 */
function newestFirst(req: ProxyRequest): void {
  const u = new URL(req.url, 'http://proxy');
  if (req.method !== 'GET' || apiPath(req) !== '/patients' || u.searchParams.has('external_id')) return;
  const page = Number(u.searchParams.get('page') ?? 1);
  const limit = Number(u.searchParams.get('limit') ?? 20);
  if (!Number.isInteger(page) || !Number.isInteger(limit) || page < 1 || limit < 1 || limit > 100) return;
  sent.set(req, { ...sent.get(req), page, limit });
  readingsMet.newestFirst++;
  u.searchParams.set('page', '1');
  u.searchParams.set('limit', '100');
  req.url = u.pathname + u.search;
}

function cutPage(body: Obj, page: number, limit: number): void {
  const all = (Array.isArray(body.data) ? body.data : []).slice().reverse();
  body.data = all.slice((page - 1) * limit, page * limit);
  body.meta = { page, limit, total_pages: Math.max(1, Math.ceil(all.length / limit)) };
}

/** The upload may answer processing (extraction began before the answer was built, DOC-014). */
function uploadAnswersProcessing(body: Obj, req: ProxyRequest, status: number): void {
  if (status !== 201 || req.method !== 'POST' || !/^\/patients\/\d+\/documents$/.test(apiPath(req)) || !isObj(body.data)) return;
  if (body.data.status !== 'pending' || !/extraction/i.test(String(body.message))) return;
  body.data.status = 'processing';
  begun.add(String(body.data.id));
  readingsMet.uploadAnswersProcessing++;
}

function laterThanPending(body: Obj): void {
  const items = Array.isArray(body.data) ? body.data : isObj(body.data) ? [body.data] : [];
  for (const d of items) if (isObj(d) && begun.has(String(d.id)) && d.status === 'pending') d.status = 'processing';
}

/** The extract answer "may also carry" success and message: this one carries the document alone. */
function extractDataOnly(body: Obj, req: ProxyRequest, status: number): void {
  if (req.method !== 'POST' || !apiPath(req).endsWith('/extract') || status >= 300) return;
  delete body.success;
  delete body.message;
  readingsMet.extractDataOnly++;
}

/**
 * "Which appointment create fields are mandatory: not shown": this server also requires appointment_type and
 * visit_type (the proxy refuses a create without them, past the key checks, as its validation would). Not counted
 * in readingsMet: the documented profile sends every create with them (the fullest body every reading takes), so
 * this refusal is never met there; the mock's appointment-types-required reading plays it (spec/readings.yaml).
 */
function appointmentNeedsTypes(res: ProxyResponse, req: ProxyRequest): boolean {
  if (req.method !== 'POST' || apiPath(req) !== '/appointments' || res.status >= 500 || res.status === 401 || res.status === 403)
    return false;
  const b = jsonOf(req.body) as Obj | undefined;
  const missing = ['appointment_type', 'visit_type'].filter((f) => !isObj(b) || !(f in b));
  if (!missing.length) return false;
  answer(res, 400, { error: 'Validation failed', details: Object.fromEntries(missing.map((f) => [f, 'required'])) });
  return true;
}

/**
 * "Further parameters and response layout of /notes/export: not shown", and the document names formats, not media
 * types: the json export a bare array of notes, the ndjson one labelled application/ndjson.
 */
function exportOtherLayout(res: ProxyResponse, req: ProxyRequest): void {
  if (res.status !== 200 || req.method !== 'GET' || apiPath(req) !== '/notes/export') return;
  const type = res.headers['content-type'] ?? '';
  if (type.startsWith('application/x-ndjson')) res.headers['content-type'] = 'application/ndjson';
  else if (type.startsWith('application/json')) {
    const b = jsonOf(res.body) as Obj | undefined;
    if (!isObj(b) || !Array.isArray(b.data)) return;
    setJson(res, b.data);
  } else return;
  readingsMet.exportOtherLayout++;
}

/** The started wording is not quoted (DOC-026): this server says it its own way. */
function startedInOtherWords(body: Obj, req: ProxyRequest, status: number): void {
  if (status !== 201 || req.method !== 'POST' || !/^\/patients\/\d+\/documents$/.test(apiPath(req))) return;
  if (!/extraction started/i.test(String(body.message))) return;
  body.message = 'Document uploaded. Started text extraction.';
  readingsMet.startedInOtherWords++;
}

/**
 * The documents list takes `external_id` only (it has no page, limit or meta): this server refuses any other query
 * parameter as a validation failure, as it refuses an unknown body field.
 */
function documentsQueryStrict(res: ProxyResponse, req: ProxyRequest): boolean {
  if (req.method !== 'GET' || !/^\/patients\/\d+\/documents$/.test(apiPath(req)) || res.status >= 500) return false;
  readingsMet.documentsQueryStrict++;
  const unknown = [...new URL(req.url, 'http://proxy').searchParams.keys()].filter((k) => k !== 'external_id');
  if (!unknown.length) return false;
  answer(res, 400, { error: 'Unknown query parameter', details: Object.fromEntries(unknown.map((k) => [k, 'not a parameter'])) });
  return true;
}

/** /notes/export has no documented default format: without one (and past the key checks) it is a validation failure. */
function exportNeedsFormat(res: ProxyResponse, req: ProxyRequest): boolean {
  if (res.status !== 200 || req.method !== 'GET' || apiPath(req) !== '/notes/export') return false;
  if (new URL(req.url, 'http://proxy').searchParams.has('format')) return false;
  answer(res, 400, { error: 'Validation failed', details: { format: 'required: json, csv or ndjson' } });
  readingsMet.exportNeedsFormat++;
  return true;
}

export const allowedVariant: Variant = {
  name: 'what the document allows',
  area: '',
  rule: '',
  request(req) {
    newestFirst(req);
    const u = new URL(req.url, 'http://proxy');
    // A search value of any length is a search (its bounds are not shown): one that matches nothing.
    const search = u.searchParams.get('search');
    if (search !== null && (search.length === 0 || search.length > 255)) {
      u.searchParams.set('search', 'crc-nothing-matches-this');
      req.url = u.pathname + u.search;
    }
    const b = jsonOf(req.body) as Obj | undefined;
    if (!isObj(b)) return;
    // external_id sent on PATCH is silently ignored, whatever its length (XID-005): the server never looks at it.
    if (req.method === 'PATCH' && typeof b.external_id === 'string') b.external_id = 'crc-ignored';
    // The display name has no documented length: an empty one is taken as given (here: named by the proxy).
    if (/^\/patients(\/\d+)?$/.test(apiPath(req)) && b.name === '') b.name = 'Conformance empty name';
    if (/^\/patients(\/\d+)?$/.test(apiPath(req))) anyAddress(req, b);
    req.body = Buffer.from(JSON.stringify(b));
  },
  response(res: ProxyResponse, req) {
    if (exportNeedsFormat(res, req) || appointmentNeedsTypes(res, req) || documentsQueryStrict(res, req)) return;
    otherSuccessStatus(res, req);
    const type = res.headers['content-type'] ?? '';
    if (type.startsWith('application/json')) {
      res.headers['content-type'] = 'application/json; charset=utf-8';
      const body = jsonOf(res.body) as unknown;
      if (isObj(body)) {
        const was = sent.get(req);
        if (was?.page && res.status === 200) cutPage(body, was.page, was.limit!);
        if (was?.address && isObj(body.data) && res.status < 300) body.data.address = was.address;
        uploadAnswersProcessing(body, req, res.status);
        startedInOtherWords(body, req, res.status);
        extractDataOnly(body, req, res.status);
        laterThanPending(body);
        addFields(body, res.status);
        setJson(res, body);
      }
    }
    exportOtherLayout(res, req);
    // Retry-After as an HTTP date (RFC 9110 allows it; the document names the header only), and the reset likewise.
    const ra = res.headers['retry-after'];
    if (ra !== undefined && /^\d+$/.test(ra)) res.headers['retry-after'] = new Date(Date.now() + Number(ra) * 1000).toUTCString();
    const reset = res.headers['x-ratelimit-reset'];
    if (reset !== undefined && /^\d+$/.test(reset)) res.headers['x-ratelimit-reset'] = new Date(Number(reset) * 1000).toUTCString();
  },
};
