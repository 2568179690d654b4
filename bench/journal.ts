// The request journal's cost per request: engine-only with the journal (default size 500) and without it
// (--journal-size 0), in the same run, route by route. Target: the two within 5 %. Separate from bench/run.ts on
// purpose (one question, one script).
//
// How: the two servers (the built mock, each its own process) are pinned to one and the same CPU and loaded at the
// same time, each by its own autocannon run. The kernel gives the two processes equal shares of that CPU, so the
// ratio of their request counts is the inverse ratio of their CPU cost per request, and a slow spell of this shared
// host slows both at once. (Measured one after the other, the same two servers with no journal in either differed by up
// to 10 % from measure to measure: twice the target.) Each pair's ratio is its request counts over all its measures,
// and a route's ratio the median of its `--pairs` pairs' ratios: one pair of the same two builds differs from the next
// by ±5 % (each process optimizes its code its own way) while a pair's own measures stay closer together, so many short
// pairs resolve more than a few long ones: 20 by default, where 12 left a run's median about 0.8 points from the next
// run's, as much as the worst row's margin; each row also prints a 95 % interval for its median. The warm-up is 5 s:
// after 3 s, the first measure of a pair read 2.4 points lower than the measures after it (12 pairs × 6 measures of GET
// by id). `--with 0` runs an A/A check: both sides without the journal, the method's own noise. Each route runs on
// pairs of its own, started from the seed: run after the POST row (which stores some 40,000 patients in each process),
// the refused POST read 0.86 to 0.92 where it read 0.94 to 0.96 on pairs of its own, so a row measured what the rows
// before it left behind.
// Beside req/s, each side's CPU time a request (all its threads, from /proc/<pid>/task/*/schedstat): the journal's
// cost in microseconds.
// Usage: below (USAGE). `--route` measures the routes whose name holds that text (`--route "POST 400"`).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
// @ts-expect-error autocannon ships no type declarations
import autocannon from 'autocannon';
import { MAX_JOURNAL_SIZE } from '../mock/platform/request-journal.ts';
import { readFlags } from './flags.ts';
import { median, medianInterval } from './median.ts';
import { cpuNs } from './load.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const USAGE =
  "Usage: npm run build && npx tsx bench/journal.ts [--duration <s per measure>] [--rounds <measures per pair>] [--pairs <n>] [--with <journal size>] [--route <part of a route's name>]";
const opts = readFlags(
  USAGE,
  {
    duration: { fallback: 1, min: 0.1 },
    rounds: { fallback: 2, min: 1, whole: true },
    pairs: { fallback: 20, min: 1, whole: true },
    with: { fallback: 500, min: 0, max: MAX_JOURNAL_SIZE, whole: true },
  },
  ['route'],
);
const { duration: DURATION, rounds: ROUNDS, pairs: PAIRS, with: WITH } = opts;
/** Seconds of load on both servers before a route's measures: a fresh server serves about half its steady rate at first (JIT). */
const WARM_UP = 5;
const CONNECTIONS = 10;
/** The built mock, what `npm run mock` runs (under tsx the servers would also carry its loader's cost per request). */
const DIST_CLI = `${ROOT}dist/mock/cli.js`;
if (!existsSync(DIST_CLI)) {
  console.error('bench/journal.ts measures the built mock: run `npm run build` first');
  process.exit(2);
}
if (spawnSync('taskset', ['-c', '0', 'true']).status !== 0) {
  console.error('bench/journal.ts pins both servers to one CPU with taskset (util-linux), which is missing here');
  process.exit(2);
}
/** The last CPU is the servers'; this process (autocannon's load) runs on the others, re-started there once. */
const SERVER_CPU = process.env.JOURNAL_BENCH_SERVER_CPU ?? String(availableParallelism() - 1);
if (!process.env.JOURNAL_BENCH_SERVER_CPU) {
  if (availableParallelism() < 2) {
    console.error('bench/journal.ts needs 2 CPUs: one for the two servers, one for the load');
    process.exit(2);
  }
  const args = [`0-${Number(SERVER_CPU) - 1}`, process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  const pinned = spawnSync('taskset', ['-c', ...args], { stdio: 'inherit', env: { ...process.env, JOURNAL_BENCH_SERVER_CPU: SERVER_CPU } });
  process.exit(pinned.status ?? 1);
}

function start(journalSize: number): Promise<{ url: string; proc: ChildProcess }> {
  const flags = ['--engine-only', '--port', '0', '--rate-limit', '1000000000/1', '--journal-size', String(journalSize)];
  const proc = spawn('taskset', ['-c', SERVER_CPU, process.execPath, DIST_CLI, ...flags], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (proc.kill('SIGKILL'), reject(new Error(`not ready: ${out}`))), 60_000);
    proc.stdout!.on('data', (d: Buffer) => {
      const m = (out += d).match(/API\s+(http:\/\/\S+)/);
      if (m) clearTimeout(timer), resolve({ url: m[1]!, proc });
    });
    proc.once('exit', () => (clearTimeout(timer), reject(new Error(`exited: ${out}`))));
  });
}

const stop = (proc: ChildProcess) => new Promise<void>((r) => (proc.once('exit', () => r()), proc.kill('SIGKILL')));

type Load = { method?: string; body?: string; headers: Record<string, string> };
type Result = { requests: { total: number; average: number }; non2xx: number };
const run = (url: string, o: Load, duration: number): Promise<Result> =>
  autocannon({ url, connections: CONNECTIONS, duration, method: o.method ?? 'GET', body: o.body, headers: o.headers });

const seed = JSON.parse(readFileSync(`${ROOT}mock/seed/default.json`, 'utf8'));
const h = { 'x-api-key': seed.keys[0].key as string };
const json = { ...h, 'content-type': 'application/json' };
const allRoutes: Array<[string, string, Load]> = [
  ['GET list', '/patients', { headers: h }],
  ['GET by id', `/patients/${seed.patients[0].id}`, { headers: h }],
  ['POST patient', '/patients', { method: 'POST', headers: json, body: JSON.stringify({ first_name: 'Bench', last_name: 'Mark' }) }],
  // A refusal: the journal keeps the error body with its details.
  ['POST 400 (unknown field)', '/patients', { method: 'POST', headers: json, body: JSON.stringify({ first_name: 'B', nickname: 'x' }) }],
];
const routes = allRoutes.filter(([label]) => opts.route === undefined || label.toLowerCase().includes(opts.route.toLowerCase()));
if (routes.length === 0) {
  console.error(`--route ${JSON.stringify(opts.route)} names no route; the routes: ${allRoutes.map(([label]) => label).join(', ')}`);
  process.exit(2);
}

const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
const measures = routes.map(() => ({
  a: [] as number[],
  b: [] as number[],
  ratio: [] as number[],
  cpuA: [] as number[],
  cpuB: [] as number[],
}));
for (const [i, [label, path, o]] of routes.entries()) {
  for (let p = 0; p < PAIRS; p++) {
    const [withJ, without] = await Promise.all([start(WITH), start(0)]);
    try {
      const both = (seconds: number) => Promise.all([run(`${withJ.url}${path}`, o, seconds), run(`${without.url}${path}`, o, seconds)]);
      await both(WARM_UP);
      const before = [cpuNs(withJ.proc.pid!), cpuNs(without.proc.pid!)];
      const count = { a: 0, b: 0 };
      for (let r = 0; r < ROUNDS; r++) {
        const [a, b] = await both(DURATION);
        const wanted = label.includes('400') ? a.non2xx === a.requests.total : a.non2xx === 0;
        if (!wanted) throw new Error(`${label}: unexpected statuses (${a.non2xx} of ${a.requests.total} not 2xx)`);
        count.a += a.requests.total;
        count.b += b.requests.total;
      }
      const m = measures[i]!;
      m.a.push(count.a / (ROUNDS * DURATION));
      m.b.push(count.b / (ROUNDS * DURATION));
      m.ratio.push(count.a / count.b);
      m.cpuA.push((cpuNs(withJ.proc.pid!) - before[0]!) / 1000 / count.a);
      m.cpuB.push((cpuNs(without.proc.pid!) - before[1]!) / 1000 / count.b);
    } finally {
      await Promise.all([stop(withJ.proc), stop(without.proc)]);
    }
  }
}

const lines = [
  "| route | with journal req/s | without req/s | with / without (95 % interval; pairs' range) | CPU µs a request, with / without | within 5 % |",
  '| --- | --- | --- | --- | --- | --- |',
];
let worst = Infinity;
for (const [i, [label]] of routes.entries()) {
  const m = measures[i]!;
  const ratio = median(m.ratio);
  worst = Math.min(worst, ratio);
  const [lo, hi] = medianInterval(m.ratio);
  const range = `${lo.toFixed(3)}-${hi.toFixed(3)}; ${Math.min(...m.ratio).toFixed(2)}-${Math.max(...m.ratio).toFixed(2)}`;
  lines.push(
    `| ${label} | ${median(m.a).toFixed(0)} | ${median(m.b).toFixed(0)} | ${ratio.toFixed(3)} (${range}) | ${median(m.cpuA).toFixed(1)} / ${median(m.cpuB).toFixed(1)} | ${ratio >= 0.95 ? 'yes' : 'NO'} |`,
  );
}
console.log(lines.join('\n'));
console.log(
  `\n"with" is --journal-size ${WITH}; engine-only, both servers pinned to CPU ${SERVER_CPU} and loaded at once (${CONNECTIONS} connections each), each route on ${PAIRS} fresh pair(s) of processes of its own, ${WARM_UP} s of warm-up then ${ROUNDS} measures of ${DURATION} s; req/s: each side's median over the pairs (both share one CPU); with / without: the median of the pairs' ratios (95 % interval: a distribution-free interval for that median; range: the pairs'); CPU µs a request: each side's median over the pairs (all its threads). Load average at start ${load}. Worst ratio ${worst.toFixed(3)}.`,
);
