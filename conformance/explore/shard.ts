// --shard k/n: this job's deterministic share of a run (rule checks by their position in the suite, exploration cases
// by their index in the plan), so n jobs of a CI matrix run one suite between them and `merge` joins their reports.
export interface Shard {
  k: number;
  of: number;
}

export class BadShard extends Error {}

export function parseShard(text: string): Shard {
  const m = /^(\d{1,4})\/(\d{1,4})$/.exec(text.trim());
  const k = Number(m?.[1]);
  const of = Number(m?.[2]);
  if (!m || of < 1 || k < 1 || k > of) throw new BadShard(`--shard must be k/n with 1 ≤ k ≤ n, e.g. 2/3, got "${text}"`);
  return { k, of };
}

/** The items of shard k of n: every n-th, starting with the k-th. */
export const shareOf = <T>(items: readonly T[], shard?: Shard): T[] =>
  shard ? items.filter((_, i) => i % shard.of === shard.k - 1) : [...items];
