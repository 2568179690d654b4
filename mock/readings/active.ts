// Which readings of the document this engine plays (spec/readings.yaml, through generated/readings.ts): chosen by id,
// `all` (every reading the engine plays that combines with the others), or `random` with a seed. A bad choice is an
// error that names the ids, never a silent default.
import { readingsCatalogue } from '../../generated/readings.ts';
import { mulberry32 } from '../../spec/runtime/prng.ts';
import type { ReadingId } from '../platform/deps.ts';

type CatalogueEntry = (typeof readingsCatalogue)[number];

/** What a user may ask for: reading ids, every reading that combines, or a seeded draw of them. */
export type ReadingsChoice = readonly string[] | 'all' | { random: number };

export interface ActiveReadings {
  /** The readings played, in the catalogue's order. */
  readonly ids: readonly ReadingId[];
  has(id: ReadingId): boolean;
  /** Any reading at all (the kit's reading everywhere otherwise). */
  readonly any: boolean;
}

class ReadingsError extends Error {
  override name = 'ReadingsError';
}

const engineReadings = (): CatalogueEntry[] => readingsCatalogue.filter((r) => r.plays === 'engine');
const sharePlace = (a: CatalogueEntry, b: CatalogueEntry) => a.places.some((p) => (b.places as readonly string[]).includes(p));

function pick(choice: ReadingsChoice): CatalogueEntry[] {
  const playable = engineReadings();
  if (choice === 'all') return playable.filter((r) => r.combines);
  if (!Array.isArray(choice)) {
    const seed = (choice as { random: number }).random;
    if (!Number.isSafeInteger(seed)) throw new ReadingsError(`readings random needs an integer seed, got ${String(seed)}`);
    const draw = mulberry32(seed);
    return playable.filter((r) => r.combines && draw() < 0.5);
  }
  const byId = new Map<string, CatalogueEntry>(readingsCatalogue.map((r) => [r.id, r]));
  const unknown = choice.filter((id) => !byId.has(id));
  if (unknown.length)
    throw new ReadingsError(
      `unknown reading ${unknown.join(', ')}; the mock plays: ${playable.map((r) => r.id).join(', ')} (GET /__mock/readings)`,
    );
  const outside = choice.map((id) => byId.get(id)!).filter((r) => r.plays !== 'engine');
  if (outside.length)
    throw new ReadingsError(`reading ${outside.map((r) => r.id).join(', ')} is not observable through the API: ${outside[0]!.why}`);
  return playable.filter((r) => choice.includes(r.id));
}

/** The readings a choice plays; an error for an unknown id, one played outside the API, or two that exclude each other. */
export function activeReadings(choice: ReadingsChoice = []): ActiveReadings {
  const chosen = pick(choice);
  for (const a of chosen)
    for (const b of chosen)
      if (a !== b && (!a.combines || !b.combines) && sharePlace(a, b))
        throw new ReadingsError(`readings ${a.id} and ${b.id} read the same place and cannot be played together: pick one`);
  const set = new Set<string>(chosen.map((r) => r.id));
  return { ids: chosen.map((r) => r.id), has: (id) => set.has(id), any: set.size > 0 };
}

/** The catalogue as GET /__mock/readings lists it: every reading, whether it is played here, and why it may be. */
export function readingsListing(active: ActiveReadings) {
  return readingsCatalogue.map((r) => ({
    id: r.id,
    says: r.says,
    plays: r.plays,
    ...('why' in r ? { why: r.why } : {}),
    combines: r.combines,
    active: active.has(r.id as ReadingId),
    places: r.places,
    rules: r.rules,
    words: r.words,
  }));
}
