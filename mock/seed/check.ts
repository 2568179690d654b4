// Checks a seed (the default one, a user's --seed or createMock's `seed`) for the part the platform owns: organizations
// and keys. Each feature checks its own sections when it seeds. Every problem is a SeedError with a clear message.
// Reads no file (load.ts does), so a page can use it.
import type { SeedFile } from '../platform/deps.ts';

export class SeedError extends Error {}

const owned = new WeakSet<SeedFile>();
/** Marks a seed its reader parsed and hands to nobody else (load.ts). */
export const markOwned = (seed: SeedFile) => void owned.add(seed);
/**
 * True for a seed this module parsed (nobody else holds it): seeding may then drop each row of it once the row is in
 * the store, so a large seed is never held twice, once parsed and once as rows.
 */
export const isOwnedSeed = (seed: SeedFile) => owned.has(seed);

const STATES = ['active', 'expired', 'revoked'];

export function checkSeed(json: unknown, where = 'seed'): SeedFile {
  const fail = (msg: string): never => {
    throw new SeedError(`${where}: ${msg}`);
  };
  if (!json || typeof json !== 'object' || Array.isArray(json)) fail('must be a JSON object');
  const seed = json as SeedFile;
  if (!Array.isArray(seed.organizations) || seed.organizations.length === 0) fail('`organizations` must be a non-empty array');
  const orgs = new Set<string>();
  seed.organizations.forEach((o, i) => {
    if (!o || typeof o.id !== 'string' || !o.id || typeof o.name !== 'string') fail(`organizations[${i}] needs string \`id\` and \`name\``);
    orgs.add(o.id);
  });
  if (!Array.isArray(seed.keys)) fail('`keys` must be an array');
  const seen = new Set<string>();
  seed.keys.forEach((k, i) => {
    const at = `keys[${i}]`;
    if (!k || typeof k.key !== 'string' || k.key.length < 8) fail(`${at}.key must be a string of at least 8 characters`);
    if (seen.has(k.key)) fail(`${at}.key is a duplicate`);
    seen.add(k.key);
    if (!orgs.has(k.organization_id)) fail(`${at}.organization_id ${JSON.stringify(k.organization_id)} is not an organization of the seed`);
    if (typeof k.provider_id !== 'string' || !k.provider_id) fail(`${at}.provider_id must be a string`);
    if (!Array.isArray(k.scopes) || k.scopes.some((s) => typeof s !== 'string')) fail(`${at}.scopes must be an array of strings`);
    if (!STATES.includes(k.state)) fail(`${at}.state must be one of ${STATES.join(', ')}`);
  });
  return seed;
}

/** A feature's section as an array of objects, or a SeedError naming the section. */
export function seedSection<T>(seed: SeedFile, name: string): T[] {
  const s = seed[name];
  if (s === undefined) return [];
  if (!Array.isArray(s)) throw new SeedError(`seed: \`${name}\` must be an array`);
  return s as T[];
}
