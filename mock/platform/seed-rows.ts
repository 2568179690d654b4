// Seed sections whose rows carry `organization_id`, loaded into the store and checked against a component schema.
import type { EngineDeps, FieldErrors, SeedFile } from './deps.ts';
import { isOwnedSeed, SeedError, seedSection } from '../seed/check.ts';

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
    if (!r.ok) throw new SeedError(`seed: ${section}[${i}] does not match ${schema}: ${describeDetails(r.details)}`);
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

/** A 400's details as one line of a seed error: "field message; field message". */
export function describeDetails(d: FieldErrors): string {
  return Object.entries(d)
    .map(([k, v]) => `${k} ${v}`)
    .join('; ');
}
