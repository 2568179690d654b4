// A replay id names one case exactly: the seed, the case's index in the run's plan, and the shrink steps taken (each
// the index of the candidate kept). `7-42` is case 42 of seed 7 as generated; `7-42-3.0.1` the same case shrunk.
export interface ReplayId {
  seed: number;
  index: number;
  shrinks: number[];
}

export class BadReplayId extends Error {}

export const formatReplayId = (id: ReplayId): string => [id.seed, id.index, ...(id.shrinks.length ? [id.shrinks.join('.')] : [])].join('-');

export function parseReplayId(text: string): ReplayId {
  const m = /^(\d{1,10})-(\d{1,7})(?:-(\d{1,4}(?:\.\d{1,4}){0,199}))?$/.exec(text.trim());
  if (!m) throw new BadReplayId(`--replay must look like <seed>-<case>[-<shrink>.<shrink>...], e.g. 1-42-3.0, got "${text}"`);
  return { seed: Number(m[1]), index: Number(m[2]), shrinks: m[3] ? m[3].split('.').map(Number) : [] };
}
