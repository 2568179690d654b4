// The benches' flags: defaults when absent, every number checked against its range, unknown flags refused; a bench
// given a bad flag stops with the reason and its usage, exit 2, before it measures anything.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseFlags } from './flags.ts';

const numbers = { rounds: { fallback: 3, min: 1, whole: true }, duration: { fallback: 1, min: 0.1, max: 60 } };

describe('parseFlags', () => {
  it('reads numbers and texts, with defaults for the absent', () => {
    expect(parseFlags([], numbers, ['route'])).toEqual({ rounds: 3, duration: 1, route: undefined });
    expect(parseFlags(['--rounds', '5', '--duration', '0.5', '--route', 'POST'], numbers, ['route'])).toEqual({
      rounds: 5,
      duration: 0.5,
      route: 'POST',
    });
  });

  it('names what is wrong with a bad value or an unknown flag', () => {
    expect(() => parseFlags(['--rounds', 'x'], numbers)).toThrow('--rounds must be a whole number from 1 up, not "x"');
    expect(() => parseFlags(['--rounds', '1.5'], numbers)).toThrow('--rounds must be a whole number');
    expect(() => parseFlags(['--rounds', '0'], numbers)).toThrow('from 1 up');
    expect(() => parseFlags(['--duration', '61'], numbers)).toThrow('--duration must be a number from 0.1 to 60, not "61"');
    expect(() => parseFlags(['--duration=-1'], numbers)).toThrow('--duration must be a number from 0.1 to 60, not "-1"');
    expect(() => parseFlags(['--duration', '-1'], numbers)).toThrow("Option '--duration' argument is ambiguous");
    expect(() => parseFlags(['--secs', '2'], numbers)).toThrow("Unknown option '--secs'");
    expect(() => parseFlags(['5'], numbers)).toThrow('Unexpected argument');
  });
});

describe('a bench given a bad flag', () => {
  it.each([
    ['bench/in-process.ts', ['--rounds', 'many'], '--rounds must be a whole number from 1 up, not "many"'],
    ['bench/upstream-hostile.ts', ['--seconds', '0.1'], '--seconds must be a number from 0.5 to 60, not "0.1"'],
  ])('stops before measuring: the reason and its usage, exit 2 (%s)', (bench, args, reason) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', bench, ...args], {
      cwd: new URL('..', import.meta.url).pathname,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(reason);
    expect(r.stderr).toContain(`Usage: npx tsx ${bench}`);
    expect(r.stdout).toBe('');
  });
});
