// Reads a seed file (the default one or the user's --seed) and checks the part the platform owns: organizations
// and keys. Each module checks its own sections when it seeds. Every problem is a SeedError with a clear message.
import type { SeedFile } from '../engine/deps.ts';
import { readJsonFile } from './read-json.ts';

export class SeedError extends Error {}

const DEFAULT_SEED_URL = new URL('./default.json', import.meta.url);

export function readSeedFile(path: string | URL = DEFAULT_SEED_URL): SeedFile {
  let json: unknown;
  try {
    json = readJsonFile(path);
  } catch (e) {
    if (e instanceof SyntaxError) throw new SeedError(`Seed file ${String(path)} is not valid JSON: ${e.message}`);
    throw new SeedError(`Cannot read seed file ${String(path)}: ${(e as Error).message}`);
  }
  const seed = checkSeed(json, String(path));
  owned.add(seed);
  return seed;
}

const owned = new WeakSet<SeedFile>();
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

/** A module's section as an array of objects, or a SeedError naming the section. */
export function seedSection<T>(seed: SeedFile, name: string): T[] {
  const s = seed[name];
  if (s === undefined) return [];
  if (!Array.isArray(s)) throw new SeedError(`seed: \`${name}\` must be an array`);
  return s as T[];
}
