// Reads a seed file (the default one or the user's --seed), Node only, and checks it (check.ts).
import type { SeedFile } from '../platform/deps.ts';
import { checkSeed, markOwned, SeedError } from './check.ts';
import { createInterner } from './intern.ts';
import { readJsonFile } from './read-json.ts';

export { checkSeed, SeedError } from './check.ts';

const DEFAULT_SEED_URL = new URL('./default.json', import.meta.url);

export function readSeedFile(path: string | URL = DEFAULT_SEED_URL): SeedFile {
  let json: unknown;
  try {
    // Rows are interned as they are read (a seed this module parsed is not interned again when seeded).
    json = readJsonFile(path, undefined, createInterner());
  } catch (e) {
    if (e instanceof SyntaxError) throw new SeedError(`Seed file ${String(path)} is not valid JSON: ${e.message}`);
    throw new SeedError(`Cannot read seed file ${String(path)}: ${(e as Error).message}`);
  }
  const seed = checkSeed(json, String(path));
  markOwned(seed);
  return seed;
}
