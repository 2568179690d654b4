// The request journal's cost per request: engine-only with the journal (default size 500) and without it
// (--journal-size 0), in the same run, route by route, in ABBA order repeated (with, without, without, with, ...) so
// that a drift of the shared machine's load falls on both alike; each side's figure is the median of its measures. Target: the two within 5 %. Separate from bench/run.ts on purpose
// (one question, one script). Usage: npm run build && npx tsx bench/journal.ts [--duration <seconds per measure>] [--rounds <ABBA rounds>] [--with <journal size; 0 for an A/A run>]
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
// @ts-expect-error autocannon ships no type declarations
import autocannon from 'autocannon';

const ROOT = new URL('..', import.meta.url).pathname;
const DURATION = Number(process.argv[process.argv.indexOf('--duration') + 1]) || 2;
/**
 * The built binary, what `npm run mock` runs: under tsx the servers also carry its loader (module hooks answering on
 * a worker), whose cost per request differs between two processes and swamped the journal's.
 */
const DIST_CLI = `${ROOT}dist/mock/cli.js`;
if (!existsSync(DIST_CLI)) {
  console.error('bench/journal.ts measures the built mock: run `npm run build` first');
  process.exit(2);
}
const CONNECTIONS = 20;
/**
 * Seconds of load before each measure. A fresh server serves about half its steady rate in its first seconds (JIT),
 * and after 1 s the side with more code on its path (the journal's) was still warming: a side-by-side profile showed
 * +2.5 % CPU per POST in steady state where 1 s warm-ups reported +21 %. Same for both sides.
 */
const WARM_UP = 3;
/** `--with 0` runs both sides without the journal: the machine's noise floor for the same comparison (an A/A run). */
const WITH = process.argv.includes('--with') ? Number(process.argv[process.argv.indexOf('--with') + 1]) : 500;
const ROUNDS = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 2;
const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
};

function start(journalSize: number): Promise<{ url: string; proc: ChildProcess }> {
  const flags = ['--engine-only', '--port', '0', '--rate-limit', '1000000000/1', '--journal-size', String(journalSize)];
  const proc = spawn(process.execPath, [DIST_CLI, ...flags], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** The server's CPU time so far (user + system, in clock ticks of 10 ms), from /proc. */
const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

/**
 * req/s, and the server's CPU per request: on a shared machine throughput swings with the neighbours' load, while the
 * CPU the server spends on each request does much less (it is what the journal adds).
 */
async function measure(url: string, o: { method?: string; body?: string; headers: Record<string, string> }, pid: number) {
  const run = (duration: number) =>
    autocannon({ url, connections: CONNECTIONS, duration, method: o.method ?? 'GET', body: o.body, headers: o.headers });
  await run(WARM_UP); // warm-up, not counted
  const before = cpuTicks(pid);
  const r = await run(DURATION);
  return { rps: r.requests.average as number, cpuUs: ((cpuTicks(pid) - before) * 10_000) / Math.max(1, r.requests.total as number) };
}

const seed = JSON.parse(readFileSync(`${ROOT}mock/seed/default.json`, 'utf8'));
const h = { 'x-api-key': seed.keys[0].key as string };
const routes: Array<[string, string, Parameters<typeof measure>[1]]> = [
  ['GET list', '/patients', { headers: h }],
  ['GET by id', `/patients/${seed.patients[0].id}`, { headers: h }],
  [
    'POST patient',
    '/patients',
    {
      method: 'POST',
      headers: { ...h, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Bench', last_name: 'Mark' }),
    },
  ],
  // A refusal: the journal reads the error body back (the costlier path).
  [
    'POST 400 (unknown field)',
    '/patients',
    { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify({ first_name: 'B', nickname: 'x' }) },
  ],
];

const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
const withJ = await start(WITH);
const without = await start(0);
const lines = [
  '| route | with journal req/s | without req/s | with / without | within 5 % | server CPU µs/req with / without |',
  '| --- | --- | --- | --- | --- | --- |',
];
let worst = 1;
try {
  for (const [label, path, o] of routes) {
    const a: Array<Awaited<ReturnType<typeof measure>>> = [];
    const b: typeof a = [];
    const A = () => measure(`${withJ.url}${path}`, o, withJ.proc.pid!);
    const B = () => measure(`${without.url}${path}`, o, without.proc.pid!);
    for (let i = 0; i < ROUNDS; i++) {
      a.push(await A());
      b.push(await B());
      b.push(await B());
      a.push(await A());
    }
    const [ma, mb] = [median(a.map((x) => x.rps)), median(b.map((x) => x.rps))];
    const [ca, cb] = [median(a.map((x) => x.cpuUs)), median(b.map((x) => x.cpuUs))];
    const ratio = ma / mb;
    worst = Math.min(worst, ratio);
    lines.push(
      `| ${label} | ${ma.toFixed(0)} | ${mb.toFixed(0)} | ${ratio.toFixed(3)} | ${ratio >= 0.95 ? 'yes' : 'NO'} | ${ca.toFixed(0)} / ${cb.toFixed(0)} (${(((ca - cb) / cb) * 100).toFixed(1)} %) |`,
    );
  }
} finally {
  await stop(withJ.proc);
  await stop(without.proc);
}
console.log(lines.join('\n'));
console.log(
  `\n"with" is --journal-size ${WITH}; engine-only, ${CONNECTIONS} connections, ${DURATION} s per measure after a ${WARM_UP} s warm-up, each route measured ${ROUNDS * 2} times per server (ABBA x ${ROUNDS}, medians), both servers up for the whole run; load average at start ${load}. Worst ratio ${worst.toFixed(3)}.`,
);
