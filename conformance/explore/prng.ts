// A small seeded PRNG (mulberry32): every case draws from its own stream, derived from the run's seed and the case's
// index, so a case is the same whatever ran before it (replay by index, shards, shrinking re-runs).
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

function mulberry32(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The stream of case `index` of a run seeded with `seed`. */
export function caseRng(seed: number, index: number): Rng {
  // Two rounds of mixing so that neighbouring seeds and indexes give unrelated streams.
  const mix = mulberry32((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
  const next = mulberry32(Math.floor(mix() * 4294967296));
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}
