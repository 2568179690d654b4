// Seeded draws (mulberry32): every case draws from its own stream, derived from the run's seed and the case's
// index, so a case is the same whatever ran before it (replay by index, shards, shrinking re-runs).
import { mulberry32 } from '../../spec/runtime/prng.ts';

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
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
