// What the load benches share: a server in a process of its own (started, read ready from its banner, killed), an
// autocannon run, runs combined into one row, and targets measured in rounds that take them in turn (so a slow spell of
// this shared host falls on every target alike).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
// @ts-expect-error autocannon ships no type declarations
import autocannon from 'autocannon';
import { median } from './median.ts';

const ROOT = new URL('..', import.meta.url).pathname;

export interface Server {
  url: string;
  proc: ChildProcess;
  startedMs: number;
}

/** Starts `node [--import tsx] <args>` in the repository; ready when its output matches `ready` (group 1: its URL). */
export function startProcess(args: string[], ready: RegExp, opts: { built?: boolean } = {}): Promise<Server> {
  const t0 = performance.now();
  const argv = opts.built ? args : ['--import', 'tsx', ...args];
  const proc = spawn(process.execPath, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready: ${out}`)), 120_000);
    // Once ready, the output is drained unread, as a terminal would take it: kept and searched, a server that prints a
    // line per exchange (--upstream) made the bench quadratic in its output and slowed the load it measured.
    const onData = (d: Buffer) => {
      out += d;
      const m = out.match(ready);
      if (!m) return;
      clearTimeout(timer);
      for (const s of [proc.stdout!, proc.stderr!]) s.off('data', onData).resume(); // flowing, read by no one
      out = '';
      resolve({ url: m[1]!, proc, startedMs: performance.now() - t0 });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', () => (clearTimeout(timer), reject(new Error(`exited: ${out}`))));
  });
}

export function stop(s: Server): Promise<void> {
  return new Promise((r) => {
    s.proc.once('exit', () => r());
    s.proc.kill('SIGKILL');
  });
}

export type LoadOptions = { method?: string; body?: string; headers?: Record<string, string> };
interface Run {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number };
  duration: number;
  '2xx': number;
}
export const run = (url: string, opts: LoadOptions, duration: number, connections: number): Promise<Run> =>
  autocannon({ url, connections, duration, method: (opts.method ?? 'GET') as 'GET', body: opts.body, headers: opts.headers });

/** Runs of one server and route as one figure: req/s over all of them (and each run's), the median round's p50 and p99, the worst p99. */
function combine(runs: Run[]) {
  const total = runs.reduce((n, r) => n + r.requests.total, 0);
  return {
    rps: total / runs.reduce((t, r) => t + r.duration, 0),
    rounds: runs.map((r) => r.requests.total / r.duration),
    p50: median(runs.map((r) => r.latency.p50)),
    p99: median(runs.map((r) => r.latency.p99)),
    worstP99: Math.max(...runs.map((r) => r.latency.p99)),
    ok: runs.reduce((n, r) => n + r['2xx'], 0) / Math.max(1, total),
  };
}
export type Measured = ReturnType<typeof combine>;

export interface Rounds {
  /** Seconds of load on each target before its rounds (JIT warm-up, not counted). */
  warmUp: number;
  rounds: number;
  /** Seconds of one round of one target. */
  seconds: number;
  connections: number;
}

/** Each target warmed, then measured in `rounds` rounds that take the targets in turn. */
export async function measureInTurn(targets: Array<[string, LoadOptions]>, r: Rounds): Promise<Measured[]> {
  for (const [url, opts] of targets) await run(url, opts, r.warmUp, r.connections);
  const runs: Run[][] = targets.map(() => []);
  for (let round = 0; round < r.rounds; round++)
    for (const [i, [url, opts]] of targets.entries()) runs[i]!.push(await run(url, opts, r.seconds, r.connections));
  return runs.map(combine);
}

/** `a` over `b`: the median of the ratios of their rounds (each pair measured one after the other). */
export const paired = (a: Measured, b: Measured) => median(a.rounds.map((x, i) => x / b.rounds[i]!));

export const POST_BODY = JSON.stringify({ first_name: 'Bench', last_name: 'Mark' });

/** The routes the load benches measure. */
export const ROUTES = [
  ['list', 'GET list'],
  ['byId', 'GET by id'],
  ['post', 'POST patient'],
] as const;
export type RouteKey = (typeof ROUTES)[number][0];

/** One route of one server: its URL and request. */
export function target(route: RouteKey, s: Server, key: string, patient: string): [string, LoadOptions] {
  const h = { 'x-api-key': key };
  if (route === 'list') return [`${s.url}/patients`, { headers: h }];
  if (route === 'byId') return [`${s.url}/patients/${patient}`, { headers: h }];
  return [`${s.url}/patients`, { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: POST_BODY }];
}

/** Nanoseconds the process has run on a CPU, all its threads (taskset execs node: the pid is the server's). */
export const cpuNs = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).reduce((sum, t) => {
    try {
      return sum + Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      return sum; // a thread that ended between the listing and the read
    }
  }, 0);

/** The host's load averages (1, 5, 15 minutes), as every bench prints them beside its figures. */
export const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
