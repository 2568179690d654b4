// The command's own V8 settings, for a small resident set (issue 42, item 9: RSS at 1k patients <= 100 MB, at 100k
// <= 200 MB). The mock's live heap is small (about 13 MB at 1k patients, bench/rss.ts) but under load V8 grew the
// young generation to 32 MB and let the old one fill with promoted garbage up to twice the live size before collecting
// it. Set by clinical-records-mock itself at start (cli.ts), so they hold however it is launched (npm run mock, npx, the
// bin, node dist/mock/cli.js; a `#!/usr/bin/env -S node …` line fails where env has no -S, e.g. BusyBox); never by
// startMock() or createMock(), whose process is their caller's. A flag given on the command line or in NODE_OPTIONS
// wins. mock/memory-flags.test.ts checks that this Node honours them; bench/rss.ts shows the effect.
import { setFlagsFromString } from 'node:v8';

/**
 * The young generation keeps the size it has when the command starts (1 MB built, 4 MB through tsx; it grew to 32 MB
 * under load; `--max-semi-space-size` does the same from the command line); the old one is collected once it holds a
 * quarter more than the last collection left (V8 lets it grow up to fourfold). V8 reads both each time it would grow a
 * space, so they take effect when set after start. They cost more scavenges: 14 to 25 % more CPU a GET by id
 * (docs/mock.md, "Speed and memory"; bench/rss.ts prints the CPU a list page beside the RSS).
 */
export const MEMORY_FLAGS: readonly string[] = ['--semi-space-growth-factor=1', '--heap-growing-percent=25'];

/** The flags of MEMORY_FLAGS the process was not started with a value for (`given`: its command line and NODE_OPTIONS). */
export function memoryFlagsFor(given: readonly string[]): string[] {
  const names = new Set(given.map((a) => a.replace(/^--/, '').split('=')[0]!.replace(/_/g, '-')));
  // --max-semi-space-size given: the young generation's size is the caller's choice, not frozen at its start.
  return MEMORY_FLAGS.filter((f) => {
    const name = f.slice(2).split('=')[0]!;
    return !names.has(name) && !(name === 'semi-space-growth-factor' && names.has('max-semi-space-size'));
  });
}

/** Sets them in this process (the command's only, at its start). */
export function applyMemoryFlags(): void {
  for (const f of memoryFlagsFor([...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)])) setFlagsFromString(f);
}
