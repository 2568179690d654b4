// The mock's resident memory (issue 42, item 9: at 1k patients <= 100 MB, at 100k <= 200 MB, with margin over the
// run-to-run spread): the built binary, engine-only, with a generated seed of each size, measured as bench/run.ts's
// RSS row is (a 1 s warm-up, then 5 s of list pages, then VmRSS), on two processes of each size started alike (an A/A
// pair: their difference is the spread the target's margin must cover), one after the other.
// Usage: npm run build && npx tsx bench/rss.ts [--repeat <n>] [-- <node flags for the servers>]
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSeed } from '../mock/seed/generate.ts';
import { run, startProcess, stop } from './load.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const DIST_CLI = join(ROOT, 'dist/mock/cli.js');
const TARGETS: Record<number, number> = { 1000: 100, 100000: 200 };

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const nodeFlags = dash < 0 ? [] : argv.slice(dash + 1);
const repeatAt = argv.indexOf('--repeat');
const repeat = repeatAt < 0 ? 1 : Number(argv[repeatAt + 1]);
if (!Number.isInteger(repeat) || repeat < 1) throw new Error('--repeat takes a whole number of at least 1');

/** VmRSS of one server, in MB, after the warm-up and the list pages. */
async function rssOf(seedFile: string, key: string): Promise<number> {
  const s = await startProcess(
    [...nodeFlags, DIST_CLI, '--engine-only', '--port', '0', '--rate-limit', '1000000000/1', '--seed', seedFile],
    /API\s+(http:\/\/\S+)/,
    { built: true },
  );
  try {
    const page = `${s.url}/patients?page=3`;
    await run(page, { headers: { 'x-api-key': key } }, 1, 20);
    await run(page, { headers: { 'x-api-key': key } }, 5, 20);
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.proc.pid}/status`, 'utf8'))![1]) / 1024;
  } finally {
    await stop(s);
  }
}

console.log(
  `RSS of the built engine-only mock (MB), node flags: ${nodeFlags.join(' ') || 'none'}; load average at start ${loadavg()[0]!.toFixed(1)}`,
);
console.log('patients | A | A again | |A - A| | target | met');
for (const n of [1_000, 100_000]) {
  const generated = await generateSeed({ patients: n });
  const file = join(tmpdir(), `crc-rss-seed-${n}.json`);
  writeFileSync(file, JSON.stringify(generated));
  for (let r = 0; r < repeat; r++) {
    const a = await rssOf(file, generated.keys[0]!.key);
    const b = await rssOf(file, generated.keys[0]!.key);
    const worst = Math.max(a, b);
    console.log(
      `${n} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${Math.abs(a - b).toFixed(0)} | <= ${TARGETS[n]} | ${worst <= TARGETS[n]! ? 'yes' : 'NO'}`,
    );
  }
}
