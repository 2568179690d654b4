// A replay id names one case exactly: the seed, the case's index in the run's plan, and the shrink steps taken (each
// the position of the candidate kept). `7-42` is case 42 of seed 7 as generated; `7-42-3.0.1` the same case shrunk;
// a position kept several times running is written once with its count: `7-42-0_6.2` is 0.0.0.0.0.0.2.
export interface ReplayId {
  seed: number;
  index: number;
  shrinks: number[];
}

export class BadReplayId extends Error {}

export function formatReplayId(id: ReplayId): string {
  const runs: Array<[number, number]> = [];
  for (const k of id.shrinks) {
    const last = runs.at(-1);
    if (last && last[0] === k) last[1]++;
    else runs.push([k, 1]);
  }
  const shrinks = runs.map(([k, n]) => (n > 1 ? `${k}_${n}` : String(k))).join('.');
  return [id.seed, id.index, ...(shrinks ? [shrinks] : [])].join('-');
}

export function parseReplayId(text: string): ReplayId {
  const m = /^(\d{1,10})-(\d{1,7})(?:-(\d{1,4}(?:_\d{1,3})?(?:\.\d{1,4}(?:_\d{1,3})?){0,199}))?$/.exec(text.trim());
  if (!m) throw new BadReplayId(`--replay must look like <seed>-<case>[-<shrink>.<shrink>...], e.g. 1-42-3.0_2, got "${text}"`);
  const shrinks = (m[3] ?? '')
    .split('.')
    .filter(Boolean)
    .flatMap((part) => {
      const [k, n] = part.split('_').map(Number);
      return Array<number>(n ?? 1).fill(k!);
    });
  return { seed: Number(m[1]), index: Number(m[2]), shrinks };
}
