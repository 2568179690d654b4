// Seed sections whose rows carry `organization_id`, loaded into the store and checked against a component schema.
import type { EngineDeps, FieldErrors, SeedFile } from './deps.ts';
import { isOwnedSeed, SeedError, seedSection } from '../seed/check.ts';
import { createInterner } from '../seed/intern.ts';

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
  // A seed the loader parsed was interned as it was read (mock/seed/load.ts); one given as an object is interned here.
  const intern = release ? <V>(v: V) => v : createInterner();
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

/** A 400's details as one line of a seed error: "field message; field message". */
export function describeDetails(d: FieldErrors): string {
  return Object.entries(d)
    .map(([k, v]) => `${k} ${v}`)
    .join('; ');
}
