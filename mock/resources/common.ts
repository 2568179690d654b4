// Helpers the resource modules share: pagination in the documented shape, seed rows scoped by organization,
// and ids.
import { randomBytes } from 'node:crypto';
import type { Collection, EngineContext, EngineDeps, FieldErrors } from '../engine/deps.ts';
import { SeedError, seedSection } from '../seed/load.ts';
import type { SeedFile } from '../engine/deps.ts';

export interface PageQuery {
  page: number;
  limit: number;
}

/** `{ data, meta }` for one page of `total` rows; an empty list reports total_pages 1 (the spec's assumption). */
export function pageBody<T>(data: readonly T[], q: PageQuery, total: number) {
  return { data, meta: { page: q.page, limit: q.limit, total_pages: Math.max(1, Math.ceil(total / q.limit)) } };
}

/** A page of rows, filtered or not: unfiltered pages are sliced from the store without scanning it. */
export function listPage<T extends { id: string }>(coll: Collection<T>, org: string, q: PageQuery, filter?: (row: T) => boolean) {
  const offset = (q.page - 1) * q.limit;
  if (!filter) return { rows: coll.page(org, offset, q.limit), total: coll.count(org) };
  const matched = coll.all(org).filter(filter);
  return { rows: matched.slice(offset, offset + q.limit), total: matched.length };
}

/** Validated query parameters, or the 400 Response. */
export function queryOf<T>(c: EngineContext, deps: EngineDeps): T | Response {
  const q = deps.validator.query(c.get('operationId'), c.req.query());
  return q.ok ? (q.value as T) : deps.responses.validation(c, q.details);
}

/** A patient id: a 19-digit string (very large integer), never starting with 0. */
export function newPatientId(): string {
  const n = randomBytes(8).readBigUInt64BE() % 9_000_000_000_000_000_000n;
  return String(1_000_000_000_000_000_000n + n);
}

/** Loads a seed section whose rows carry `organization_id`, checking each against a component schema. */
export function seedRows<T extends { id: string }>(
  seed: SeedFile,
  section: string,
  schema: string,
  deps: EngineDeps,
  insert: (org: string, row: T) => void,
): void {
  const orgs = new Set(seed.organizations.map((o) => o.id));
  const check = deps.validator.schema(schema);
  seedSection<Record<string, unknown>>(seed, section).forEach((raw, i) => {
    const { organization_id, ...row } = raw ?? {};
    if (typeof organization_id !== 'string' || !orgs.has(organization_id))
      throw new SeedError(`seed: ${section}[${i}].organization_id must name an organization of the seed`);
    const r = check(row);
    if (!r.ok) throw new SeedError(`seed: ${section}[${i}] does not match ${schema}: ${describe(r.details)}`);
    insert(organization_id, row as unknown as T);
  });
}

function describe(d: FieldErrors): string {
  return Object.entries(d)
    .map(([k, v]) => `${k} ${v}`)
    .join('; ');
}
