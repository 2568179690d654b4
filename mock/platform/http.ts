// The HTTP helpers every feature shares: the caller's organization, validated query parameters, pages in the
// documented `{ data, meta }` shape (also joined from rows already serialized, mock/platform/json-cache.ts), and the
// 400 for a reference to a row the organization does not have.
import type { Context } from 'hono';
import type { Collection, EngineContext, EngineDeps } from './deps.ts';

export interface PageQuery {
  page: number;
  limit: number;
  /** The newest-first reading: rows in reverse creation order. */
  newestFirst?: boolean;
  /** What an empty list reports as total_pages (1, the kit's reading, unless a reading says 0). */
  emptyPages?: number;
}

/** The caller's organization (set by authenticate). */
export const orgOf = (c: EngineContext): string => c.get('auth').organization_id;

/** `{ data, meta }` for one page of `total` rows; an empty list reports total_pages 1 (the spec's assumption). */
export function pageBody<T>(data: readonly T[], q: PageQuery, total: number) {
  const pages = total === 0 ? (q.emptyPages ?? 1) : Math.ceil(total / q.limit);
  return { data, meta: { page: q.page, limit: q.limit, total_pages: pages } };
}

/** pageBody's JSON text from items already serialized (json-cache.ts): the same bytes c.json would send. */
export function pageJson(items: readonly string[], q: PageQuery, total: number): string {
  return `{"data":[${items.join(',')}],"meta":${JSON.stringify(pageBody([], q, total).meta)}}`;
}

/** `{ data }` around one row's JSON text. */
export const dataJson = (row: string) => `{"data":${row}}`;

/** An answer whose JSON text is already written: what c.json answers for the parsed text. */
export function jsonText(c: Context, text: string, status = 200, headers?: Record<string, string>): Response {
  return c.body(text, status as 200, { 'Content-Type': 'application/json', ...headers });
}

/** The page `q` asks for out of rows already matched. */
export function pageOf<T>(matched: readonly T[], q: PageQuery) {
  const offset = (q.page - 1) * q.limit;
  const ordered = q.newestFirst ? [...matched].reverse() : matched;
  return { rows: ordered.slice(offset, offset + q.limit), total: matched.length };
}

/** A page of rows, filtered or not: unfiltered pages are sliced from the store without scanning it. */
export function listPage<T extends { id: string }>(coll: Collection<T>, org: string, q: PageQuery, filter?: (row: T) => boolean) {
  if (!filter && !q.newestFirst) return { rows: coll.page(org, (q.page - 1) * q.limit, q.limit), total: coll.count(org) };
  return pageOf(filter ? coll.all(org).filter(filter) : coll.all(org), q);
}

/** The operation's query parameters, validated, coerced and defaulted, or the 400 Response. */
export function queryOf<T>(c: EngineContext, deps: EngineDeps): T | Response {
  const operationId = c.get('operationId');
  const read = deps.readings.query(operationId, c.req.query());
  if ('refused' in read) return deps.responses.validation(c, read.refused);
  const q = deps.validator.query(operationId, read.query);
  if (!q.ok) return deps.responses.validation(c, q.details);
  // Lists ordered newest first, an empty list's total_pages: readings of what the document leaves open.
  if (deps.readings.has('newest-first')) q.value.newestFirst = true;
  if (deps.readings.has('empty-list-zero-pages')) q.value.emptyPages = 0;
  return q.value as T;
}

/**
 * 400 `{ field: "is not a <what> of the organization" }` when `id` names no row of `collection` in the caller's
 * organization (a row of another organization is indistinguishable from a missing one); undefined when it does.
 */
export function checkReference(
  c: EngineContext,
  deps: EngineDeps,
  collection: string,
  field: string,
  id: string,
  what: string,
): Response | undefined {
  if (deps.store.collection(collection).get(orgOf(c), id)) return undefined;
  return deps.responses.validation(c, { [field]: `is not a ${what} of the organization` });
}
