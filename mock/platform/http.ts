// Helpers the resource modules share: pagination in the documented shape, seed rows scoped by organization,
// and ids.
import { randomBytes } from 'node:crypto';
import type { Collection, EngineContext, EngineDeps, FieldErrors } from './deps.ts';
import { isOwnedSeed, SeedError, seedSection } from '../seed/load.ts';
import type { SeedFile } from './deps.ts';

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
  const rows = seedSection<Record<string, unknown> | undefined>(seed, section);
  const release = isOwnedSeed(seed);
  const intern = interner();
  rows.forEach((raw, i) => {
    if (release) rows[i] = undefined;
    const { organization_id, row } = withoutOrganization(intern(raw ?? {}) as Record<string, unknown>, release);
    if (typeof organization_id !== 'string' || !orgs.has(organization_id))
      throw new SeedError(`seed: ${section}[${i}].organization_id must name an organization of the seed`);
    const r = check(row);
    if (!r.ok) throw new SeedError(`seed: ${section}[${i}] does not match ${schema}: ${describe(r.details)}`);
    insert(organization_id, row as unknown as T);
  });
}

/**
 * Splits a seed row into its organization and the row proper. A parsed row nobody else holds, whose
 * `organization_id` is its last key (as the generator writes it), loses that key in place: V8 keeps such an object
 * fast, and no copy is made, so a large seed leaves no second set of rows behind as old-generation garbage.
 */
function withoutOrganization(raw: Record<string, unknown>, owned: boolean): { organization_id: unknown; row: Record<string, unknown> } {
  if (owned) {
    let last: string | undefined;
    for (const k in raw) last = k;
    if (last === 'organization_id') {
      const organization_id = raw.organization_id;
      delete raw.organization_id;
      return { organization_id, row: raw };
    }
  }
  const { organization_id, ...row } = raw;
  return { organization_id, row };
}

/**
 * Shares equal strings across the rows of one seed section (provider ids, names, cities repeat thousands of times in
 * a large seed; each parsed copy would cost its own bytes). The table is bounded (values that repeat show up early)
 * and lives only while the section is seeded.
 */
function interner(): <T>(value: T) => T {
  const seen = new Map<string, string>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (v.length > 64) return v;
      const s = seen.get(v);
      if (s !== undefined) return s;
      if (seen.size < 8192) seen.set(v, v);
      return v;
    }
    if (v && typeof v === 'object')
      if (Array.isArray(v)) for (let i = 0; i < v.length; i++) v[i] = walk(v[i]);
      else for (const k in v) (v as Record<string, unknown>)[k] = walk((v as Record<string, unknown>)[k]);
    return v;
  };
  return walk as <T>(value: T) => T;
}

function describe(d: FieldErrors): string {
  return Object.entries(d)
    .map(([k, v]) => `${k} ${v}`)
    .join('; ');
}
