// The mock's resident memory (issue 42, item 9: at 1k patients <= 100 MB, at 100k <= 200 MB, with margin over the
// run-to-run spread): the built binary, engine-only, with a generated seed of each size, measured as bench/run.ts's
// RSS row is (a 1 s warm-up, then 5 s of list pages, then VmRSS), on two processes of each size started alike (an A/A
// pair: their difference is the spread the target's margin must cover), one after the other. Beside it, the server's
// CPU time a request over those 5 s (all its threads): what the command's memory flags (mock/memory-flags.ts) cost.
// Without them, for comparison: `-- --semi-space-growth-factor=2 --heap-growing-percent=0` (a flag given wins).
// Usage: npm run build && npx tsx bench/rss.ts [--repeat <n>] [-- <node flags for the servers>]
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSeed } from '../mock/seed/generate.ts';
import { cpuNs, run, startProcess, stop } from './load.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const DIST_CLI = join(ROOT, 'dist/mock/cli.js');
const TARGETS: Record<number, number> = { 1000: 100, 100000: 200 };

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const nodeFlags = dash < 0 ? [] : argv.slice(dash + 1);
const repeatAt = argv.indexOf('--repeat');
const repeat = repeatAt < 0 ? 1 : Number(argv[repeatAt + 1]);
if (!Number.isInteger(repeat) || repeat < 1) throw new Error('--repeat takes a whole number of at least 1');

/** VmRSS of one server, in MB, after the warm-up and the list pages; its CPU time a list page, in microseconds. */
async function rssOf(seedFile: string, key: string): Promise<{ rss: number; cpuUs: number }> {
  const s = await startProcess(
    [...nodeFlags, DIST_CLI, '--engine-only', '--port', '0', '--rate-limit', '1000000000/1', '--seed', seedFile],
    /API\s+(http:\/\/\S+)/,
    { built: true },
  );
  try {
    const page = `${s.url}/patients?page=3`;
    await run(page, { headers: { 'x-api-key': key } }, 1, 20);
    const cpu0 = cpuNs(s.proc.pid!);
    const pages = await run(page, { headers: { 'x-api-key': key } }, 5, 20);
    const cpuUs = (cpuNs(s.proc.pid!) - cpu0) / 1000 / pages.requests.total;
    return { rss: Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.proc.pid}/status`, 'utf8'))![1]) / 1024, cpuUs };
  } finally {
    await stop(s);
  }
}

console.log(
  `RSS of the built engine-only mock (MB), node flags: ${nodeFlags.join(' ') || 'none'}; load average at start ${loadavg()[0]!.toFixed(1)}`,
);
console.log('patients | A | A again | |A - A| | target | met | CPU µs a page (A, A again)');
for (const n of [1_000, 100_000]) {
  const generated = await generateSeed({ patients: n });
  const file = join(tmpdir(), `crc-rss-seed-${n}.json`);
  writeFileSync(file, JSON.stringify(generated));
  for (let r = 0; r < repeat; r++) {
    const a = await rssOf(file, generated.keys[0]!.key);
    const b = await rssOf(file, generated.keys[0]!.key);
    const worst = Math.max(a.rss, b.rss);
    console.log(
      `${n} | ${a.rss.toFixed(0)} | ${b.rss.toFixed(0)} | ${Math.abs(a.rss - b.rss).toFixed(0)} | <= ${TARGETS[n]} | ${worst <= TARGETS[n]! ? 'yes' : 'NO'} | ${a.cpuUs.toFixed(0)}, ${b.cpuUs.toFixed(0)}`,
    );
  }
}
