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

export const answerChecks: ResponseCheckDef[] = [
  responseCheck(meta_shows_default_page_and_limit, { rule: 'LIM-005', reads: ['response.body'] }),
  responseCheck(meta_page_matches_query, { rule: 'PAG-001', reads: ['response.body'] }),
  responseCheck(page_within_limit, { rule: 'PAG-002', reads: ['response.body'] }),
  responseCheck(external_id_lookup_one_item, { rule: 'XID-008', reads: ['response.body'] }),
  responseCheck(conflict_names_existing, { rule: 'XID-006', reads: ['request.body', 'response.body'] }),
];
