// Rules one exchange shows beyond the response checks of every suite run (checks/, which judge status, media type, schema,
// error shape and rate-limit headers of every answer): what the answer must say about the request it answers.
// Judged on traffic made by others, where the request is not the suite's own.
import type { Finding, InspectEnv, InspectedExchange, ResponseCheckDef } from './define.ts';
import { responseCheck } from './define.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const queryOf = (ex: InspectedExchange) => new URL(ex.request.url, 'http://judge.invalid').searchParams;
const requestJson = (ex: InspectedExchange): unknown => {
  try {
    return ex.request.bodyText ? JSON.parse(ex.request.bodyText) : undefined;
  } catch {
    return undefined;
  }
};

/** LIM-005: a list answered without page and limit in the query says the defaults the contract gives them in meta. */
function meta_shows_default_page_and_limit(ex: InspectedExchange, { contract }: InspectEnv): Finding | undefined {
  const q = queryOf(ex);
  const body = ex.response.json;
  const page = contract.paramDefault(ex.operation, 'page');
  const limit = contract.paramDefault(ex.operation, 'limit');
  // A lookup bypasses pagination (XID-009); its meta is the kit's reading (XID-014), judged elsewhere.
  if (ex.response.status !== 200 || page === undefined || limit === undefined) return;
  if (q.has('page') || q.has('limit') || q.has('external_id') || q.has('npi') || !isObj(body) || !isObj(body.meta)) return;
  if (body.meta.page === page && body.meta.limit === limit) return;
  return {
    expected: `meta.page ${page} and meta.limit ${limit} (no page or limit asked)`,
    actual: `page ${String(body.meta.page)}, limit ${String(body.meta.limit)}`,
    where: 'response.body/meta',
  };
}

/** A positive integer query value, or undefined (absent, or a value the contract may refuse: judged elsewhere). */
const positive = (raw: string | null) => (raw !== null && /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : undefined);

/** PAG-001: a list page asked for by `page` says that page in meta (a page past total_pages is the kit's reading, PAG-008). */
function meta_page_matches_query(ex: InspectedExchange): Finding | undefined {
  const asked = positive(queryOf(ex).get('page'));
  const body = ex.response.json;
  if (asked === undefined || ex.response.status !== 200 || !isObj(body) || !isObj(body.meta)) return;
  const { page, total_pages } = body.meta;
  if (typeof total_pages !== 'number' || asked > total_pages || page === asked) return;
  return { expected: `meta.page ${asked} (the page asked for)`, actual: `meta.page ${String(page)}`, where: 'response.body/meta/page' };
}

/** PAG-002: a page holds at most the limit asked for (or the contract's default when none was). */
function page_within_limit(ex: InspectedExchange, { contract }: InspectEnv): Finding | undefined {
  const q = queryOf(ex);
  const body = ex.response.json;
  const limit = positive(q.get('limit')) ?? (contract.paramDefault(ex.operation, 'limit') as number | undefined);
  if (limit === undefined || q.has('external_id') || q.has('npi') || ex.response.status !== 200) return;
  if (!isObj(body) || !isObj(body.meta) || !Array.isArray(body.data) || body.data.length <= limit) return;
  return { expected: `at most ${limit} items (limit)`, actual: `${body.data.length} items`, where: 'response.body/data' };
}

/** XID-008: an external_id lookup that hits answers one item, the one with that external_id. */
function external_id_lookup_one_item(ex: InspectedExchange): Finding | undefined {
  const wanted = queryOf(ex).get('external_id');
  const body = ex.response.json;
  if (ex.request.method !== 'GET' || wanted === null || ex.response.status !== 200 || !isObj(body) || !Array.isArray(body.data)) return;
  // An empty list is a miss answered 200: the lookup's 404 rule, judged by lookup_miss_status.
  if (!body.data.length) return;
  const [item] = body.data as unknown[];
  if (body.data.length === 1 && isObj(item) && item.external_id === wanted) return;
  return {
    expected: `a one-item data array holding external_id ${JSON.stringify(wanted)}`,
    actual: `${body.data.length} item(s)${isObj(item) ? `, the first with external_id ${JSON.stringify(item.external_id)}` : ''}`,
    where: 'response.body/data',
  };
}

/** XID-006: a create refused 409 for its external_id names the record that holds it, `existing: {id, external_id}`. */
function conflict_names_existing(ex: InspectedExchange): Finding | undefined {
  const sent = requestJson(ex);
  const body = ex.response.json;
  if (ex.request.method !== 'POST' || ex.response.status !== 409 || !isObj(sent) || typeof sent.external_id !== 'string') return;
  const existing = isObj(body) ? body.existing : undefined;
  if (isObj(existing) && existing.external_id === sent.external_id && (typeof existing.id === 'string' || typeof existing.id === 'number'))
    return;
  return {
    expected: `existing: {id, external_id: ${JSON.stringify(sent.external_id)}}`,
    actual: JSON.stringify(existing ?? null).slice(0, 200),
    where: 'response.body/existing',
  };
}

/** PAT-003: a create giving first_name and/or last_name but no name answers a name built from them (holding one). */
function name_built_from_parts(ex: InspectedExchange): Finding | undefined {
  const sent = requestJson(ex);
  const data = isObj(ex.response.json) ? ex.response.json.data : undefined;
  if (ex.request.method !== 'POST' || ex.operation.template !== '/patients' || ex.response.status < 200 || ex.response.status > 299) return;
  if (!isObj(sent) || sent.name !== undefined || !isObj(data) || typeof data.name !== 'string') return;
  const parts = [sent.first_name, sent.last_name].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  const name = data.name.toLowerCase();
  if (!parts.length || parts.some((p) => name.includes(p.trim().toLowerCase()))) return;
  return {
    expected: `a name built from ${parts.map((p) => JSON.stringify(p)).join(' and ')}`,
    actual: JSON.stringify(data.name),
    where: 'response.body/data/name',
  };
}

/** The embedded objects of a note detail `include` asks for (NOTE-017: both when absent; NOTE-018: none when empty). */
const EMBEDDED = ['transcript', 'patient'];
const includeOf = (ex: InspectedExchange) => queryOf(ex).get('include');
const noteDetail = (ex: InspectedExchange) => {
  const data = isObj(ex.response.json) ? ex.response.json.data : undefined;
  return ex.request.method === 'GET' && ex.operation.template === '/notes/{noteId}' && ex.response.status === 200 && isObj(data)
    ? data
    : undefined;
};

/**
 * NOTE-017, NOTE-018: a note detail embeds exactly the objects `include` names (both without it, none for an empty
 * value). One embedded as null counts as there when asked for (a note may lack one) and as left out otherwise.
 */
function embeds_what_include_asks(ex: InspectedExchange): Finding | undefined {
  const data = noteDetail(ex);
  const include = includeOf(ex);
  const asked = include === null ? EMBEDDED : include.split(',').filter(Boolean);
  // A value outside the documented list is a request the server may refuse: not judged here.
  if (!data || asked.some((a) => !EMBEDDED.includes(a))) return;
  const wrong = EMBEDDED.filter((k) => (asked.includes(k) ? !(k in data) : data[k] !== undefined && data[k] !== null));
  if (!wrong.length) return;
  return {
    ruleId: include === '' ? 'NOTE-018' : 'NOTE-017',
    expected: `embedded: ${asked.join(', ') || 'none'} (include ${include === null ? 'absent' : JSON.stringify(include)})`,
    actual: `embedded: ${EMBEDDED.filter((k) => data[k] !== undefined && data[k] !== null).join(', ') || 'none'}`,
    where: 'response.body/data',
  };
}

/** NOTE-019: whatever include says, the body and codes come back (the fields the contract marks x-documented-required). */
function body_and_codes_always(ex: InspectedExchange, { contract }: InspectEnv): Finding | undefined {
  const data = noteDetail(ex);
  if (!data) return;
  const schema = contract.resolve('#/components/schemas/NoteDetail') as { 'x-documented-required'?: string[] } | undefined;
  const missing = (schema?.['x-documented-required'] ?? []).filter((k) => data[k] === undefined);
  if (!missing.length) return;
  return {
    expected: `${missing.join(', ')} whatever include says`,
    actual: `missing (include ${includeOf(ex) === null ? 'absent' : JSON.stringify(includeOf(ex))})`,
    where: 'response.body/data',
  };
}

export const answerChecks: ResponseCheckDef[] = [
  responseCheck(meta_shows_default_page_and_limit, { rule: 'LIM-005', reads: ['response.body'] }),
  responseCheck(meta_page_matches_query, { rule: 'PAG-001', reads: ['response.body'] }),
  responseCheck(page_within_limit, { rule: 'PAG-002', reads: ['response.body'] }),
  responseCheck(external_id_lookup_one_item, { rule: 'XID-008', reads: ['response.body'] }),
  responseCheck(conflict_names_existing, { rule: 'XID-006', reads: ['request.body', 'response.body'] }),
  responseCheck(name_built_from_parts, { rule: 'PAT-003', reads: ['request.body', 'response.body'] }),
  responseCheck(embeds_what_include_asks, { rule: 'NOTE-017', covers: ['NOTE-018'], reads: ['response.body'] }),
  responseCheck(body_and_codes_always, { rule: 'NOTE-019', reads: ['response.body'] }),
];
