// The flags of --explore and --shard: what they parse to, and a usage error (exit 2) for every bad value or mix.
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPLORE_BUDGET, parseCli, USAGE } from '../run/args.ts';
import { main } from '../cli.ts';
import { formatReplayId, parseReplayId } from './replay-id.ts';
import { shareOf } from './shard.ts';

const BASE = ['--url', 'https://staging.example.test/ext-api/v1', '--key', 'k'];

describe('--explore flags', () => {
  it('parse to the seed, the budget, the replayed case and the shard', () => {
    expect(parseCli([...BASE, '--explore', '--seed', '7', '--explore-budget', '50']).explore).toEqual({
      seed: 7,
      budget: 50,
      replay: undefined,
    });
    expect(parseCli([...BASE, '--explore']).explore!.budget).toBe(DEFAULT_EXPLORE_BUDGET);
    // --replay implies --explore and names its own seed.
    expect(parseCli([...BASE, '--replay', '7-42-3.0.1']).explore).toMatchObject({
      seed: 7,
      replay: { seed: 7, index: 42, shrinks: [3, 0, 1] },
    });
    expect(parseCli([...BASE, '--shard', '2/3']).shard).toEqual({ k: 2, of: 3 });
    expect(parseCli(BASE).explore).toBeUndefined();
  });

  it('a random seed when none is given (the report prints it, so the run replays)', () => {
    const seeds = new Set(Array.from({ length: 5 }, () => parseCli([...BASE, '--explore']).explore!.seed));
    expect(seeds.size).toBeGreaterThan(1);
  });

  it('anything else is a usage error (exit 2) that names the flag', async () => {
    const bad: Array<[string[], RegExp]> = [
      [['--seed', '1'], /--seed and --explore-budget go with --explore/],
      [['--explore', '--seed', 'one'], /--seed must be an integer/],
      [['--explore', '--seed', '99999999999'], /--seed must be an integer/],
      [['--explore', '--explore-budget', '0'], /--explore-budget must be a positive integer/],
      [['--explore', '--explore-budget', '5000000'], /at most 1000000/],
      [['--replay', '42'], /--replay must look like <seed>-<case>/],
      [['--replay', '1-2', '--seed', '1'], /--replay <id> names its seed/],
      [['--replay', '1-2', '--shard', '1/2'], /--replay <id> sends one case/],
      [['--shard', '3/2'], /--shard must be k\/n with 1 ≤ k ≤ n/],
      [['--shard', '0/2'], /--shard must be k\/n/],
      [['--shard', 'half'], /--shard must be k\/n/],
    ];
    for (const [args, why] of bad) {
      const err: string[] = [];
      expect(
        await main(
          [...BASE, ...args],
          () => undefined,
          (s) => err.push(s),
        ),
      ).toBe(2);
      expect(err.join('\n')).toMatch(why);
    }
  });

  it('--help documents them and the merge command', () => {
    for (const flag of ['--explore', '--seed <n>', '--explore-budget <requests>', '--replay <id>', '--shard <k>/<n>', 'merge <files>'])
      expect(USAGE).toContain(flag);
  });
});

describe('replay ids', () => {
  it('read back what they write, a position kept several times running written once with its count', () => {
    const id = { seed: 7, index: 42, shrinks: [0, 0, 0, 2, 1, 1] };
    expect(formatReplayId(id)).toBe('7-42-0_3.2.1_2');
    expect(parseReplayId('7-42-0_3.2.1_2')).toEqual(id);
    expect(parseReplayId(formatReplayId({ seed: 1, index: 0, shrinks: [] }))).toEqual({ seed: 1, index: 0, shrinks: [] });
  });
});

describe('--shard k/n', () => {
  it('shares are disjoint, every item in one of them, in the suite’s order', () => {
    const items = ['a', 'b', 'c', 'd', 'e'];
    const shares = [1, 2, 3].map((k) => shareOf(items, { k, of: 3 }));
    expect(shares).toEqual([['a', 'd'], ['b', 'e'], ['c']]);
    expect(shares.flat().sort()).toEqual(items);
    expect(shareOf(items)).toEqual(items);
  });
});
