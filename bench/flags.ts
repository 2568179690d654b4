// The benches' flags, read with node's parseArgs (an unknown flag or a positional is an error) and every number
// checked against its range: a bad value stops the bench with the reason and its usage (exit 2), where falling back
// to the default would measure something other than what was asked.
import { parseArgs } from 'node:util';

/** A numeric flag: its default, its smallest and largest values, and whether it must be whole. */
export interface NumberFlag {
  fallback: number;
  min: number;
  max?: number;
  whole?: boolean;
}

/** `text` as the flag `--name` allows it; throws the reason otherwise. */
function numberFlag(name: string, text: string | undefined, f: NumberFlag): number {
  if (text === undefined) return f.fallback;
  const n = Number(text);
  const max = f.max ?? Infinity;
  if (!/^\d+(\.\d+)?$/.test(text) || n < f.min || n > max || (f.whole && !Number.isInteger(n)))
    throw new Error(
      `--${name} must be ${f.whole ? 'a whole number' : 'a number'} from ${f.min}${max < Infinity ? ` to ${max}` : ' up'}, not ${JSON.stringify(text)}`,
    );
  return n;
}

type Flags<N extends string, T extends string> = Record<N, number> & Partial<Record<T, string>>;

/** `argv`'s `numbers` (each checked, its default when absent) and `texts` (as given); throws the reason of a bad one. */
export function parseFlags<N extends string, T extends string = never>(
  argv: string[],
  numbers: Record<N, NumberFlag>,
  texts: readonly T[] = [],
): Flags<N, T> {
  const names = [...Object.keys(numbers), ...texts];
  const { values } = parseArgs({ args: argv, options: Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])) });
  const read: Record<string, number | string | undefined> = {};
  for (const [name, f] of Object.entries<NumberFlag>(numbers)) read[name] = numberFlag(name, values[name] as string | undefined, f);
  for (const name of texts) read[name] = values[name] as string | undefined;
  return read as Flags<N, T>;
}

/** The command line's flags (parseFlags); on a bad one, the reason and `usage` on stderr, exit 2. */
export function readFlags<N extends string, T extends string = never>(
  usage: string,
  numbers: Record<N, NumberFlag>,
  texts: readonly T[] = [],
): Flags<N, T> {
  try {
    return parseFlags(process.argv.slice(2), numbers, texts);
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    process.exit(2);
  }
}
