// The --upstream proxy in front of a hostile upstream (issue 40's targets: the mock's RSS under 500 MB and its health
// answering within 100 ms throughout), each in a process of its own as users run them: the mock (`mock/cli.ts
// --upstream <hostile>/ext-api/v1 --port 0` through tsx, its memory flags its own) and the hostile upstream
// (mock/testing/hostile-upstream.ts). A third process (bench/health-poller.ts) polls /__mock/health every 50 ms, so the
// poller's event loop is not what is measured; it polls, at the same ticks, a second mock started alike that gets no
// traffic: the control, what this host's scheduler alone costs a poll. Each case runs --seconds, one exchange after
// another from the bench process (the client), in --rounds rounds that take the cases in turn (a slow spell of the host
// falls on every case alike); a case's polls are those answered from its start to 300 ms after its end. Per case: the
// polls' p50, p99 and max of both mocks, each mock's worst event-loop delay (perf_hooks.monitorEventLoopDelay, 10 ms
// resolution, preloaded by the bench only: the mock's own share, whatever the scheduler did) and its peak RSS (VmHWM,
// reset through /proc/<pid>/clear_refs before each case); and the mock's CPU time over the case's windows (100 % is one
// core: on a loaded host, the more CPU a case takes, the longer the scheduler stretches each of its event-loop turns).
// Usage: npx tsx bench/upstream-hostile.ts [--rounds <rounds>] [--seconds <seconds per case and round>]
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readFlags } from './flags.ts';
import type { Polled } from './health-poller.ts';
import { cpuNs, loadAverage, type Server, startProcess, stop } from './load.ts';
import { median, percentile } from './median.ts';

const USAGE = 'Usage: npx tsx bench/upstream-hostile.ts [--rounds <rounds>] [--seconds <seconds per case and round>]';
const { rounds: ROUNDS, seconds: SECONDS } = readFlags(USAGE, {
  rounds: { fallback: 3, min: 1, whole: true },
  seconds: { fallback: 3, min: 0.5, max: 60 },
});
const ROOT = new URL('..', import.meta.url).pathname;
const POLL_MS = 50;
/** After a case, before its polls are taken: a poll the case held answers within its window. */
const SETTLE_MS = 300;
const HEALTH_TARGET_MS = 100;
const RSS_TARGET_MB = 500;

interface Case {
  name: string;
  /** Under the upstream's base; none: no traffic (the mocks polled only). */
  path?: string;
  headers?: Record<string, string>;
  /** The client goes after this long (the exchange is not awaited to its end). */
  goAfterMs?: number;
}
const CASES: Case[] = [
  { name: 'no traffic' },
  { name: 'endless answer (cut at 32 MB)', path: '/endless' },
  { name: '31 MB answer (under the cap)', path: '/huge' },
  { name: '31 MB error answer (a 500)', path: '/huge-error' },
  { name: '64 MB declared (past the cap)', path: '/declared' },
  { name: '1.9 MB list page, judged', path: '/patients' },
  { name: '1.9 MB list page, gzip, judged', path: '/patients', headers: { 'accept-encoding': 'gzip' } },
  { name: '1.9 MB list page, a violation a record', path: '/patients?invalid' },
  ...(['gzip', 'br', 'deflate'] as const).map((kind) => ({
    name: `${kind} bomb (64 MB decoded)`,
    path: `/bomb-${kind}`,
    headers: { 'accept-encoding': kind },
  })),
  { name: 'one byte a tick (client goes at the end)', path: '/drip', goAfterMs: SECONDS * 1000 },
  { name: "the upstream's X-Mock-Fault", path: '/providers' },
  { name: 'escape sequences', path: '/patients/%1b%5b2J%07' },
  { name: 'a client that goes after 200 ms', path: '/hang', goAfterMs: 200 },
];

/**
 * Preloaded into each mock (a data: URL, so that the command runs unchanged): its event loop's delay, written to
 * <dir>/loop-<pid>.json and reset on SIGUSR2.
 */
const loopDelayPreload = (dir: string) =>
  `data:text/javascript,${encodeURIComponent(`
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { renameSync, writeFileSync } from 'node:fs';
const h = monitorEventLoopDelay({ resolution: 10 });
h.enable();
process.on('SIGUSR2', () => {
  const file = ${JSON.stringify(dir)} + '/loop-' + process.pid + '.json';
  writeFileSync(file + '.part', JSON.stringify({ maxMs: h.max / 1e6 }));
  renameSync(file + '.part', file);
  h.reset();
});`)}`;

/**
 * The mock's worst event-loop delay (ms) and peak RSS (MB) since the last call, both reset; and the CPU time it has
 * used since it started (ns, all its threads).
 */
async function takePeaks(s: Server, dir: string): Promise<{ loopMs: number; rssMb: number; cpuNs: number }> {
  const pid = s.proc.pid!;
  const file = join(dir, `loop-${pid}.json`);
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let t = 0; !existsSync(file); t++) {
    if (t > 500) throw new Error(`mock ${pid} did not report its event-loop delay within 10 s`);
    await sleep(20);
  }
  const { maxMs } = JSON.parse(readFileSync(file, 'utf8')) as { maxMs: number };
  const rssMb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
  writeFileSync(`/proc/${pid}/clear_refs`, '5'); // VmHWM back to the current RSS
  return { loopMs: maxMs, rssMb, cpuNs: cpuNs(pid) };
}

/** One exchange of a case, its outcome: the status, or `went` (the client went), or the error's code. */
function exchange(api: string, c: Case): Promise<string> {
  return new Promise((resolve) => {
    let status: string | undefined;
    let went = false;
    const done = (outcome: string) => {
      clearTimeout(going);
      resolve(outcome);
    };
    const req = http.get(`${api}${c.path}`, { headers: { 'x-api-key': 'bench-key', ...c.headers } }, (res) => {
      res.on('end', () => (status = String(res.statusCode)));
      res.on('close', () => done(status ?? (went ? 'went' : 'cut')));
      res.on('error', () => undefined); // told by 'close'
      res.resume();
    });
    req.on('error', (e: NodeJS.ErrnoException) => done(went ? 'went' : (e.code ?? e.message)));
    const going = c.goAfterMs === undefined ? undefined : setTimeout(() => ((went = true), req.destroy()), c.goAfterMs);
  });
}

/** A case for SECONDS s: its exchanges one after another; its outcomes counted. */
async function runCase(api: string, c: Case, outcomes: Map<string, number>): Promise<void> {
  if (c.path === undefined) return void (await sleep(SECONDS * 1000));
  const until = performance.now() + SECONDS * 1000;
  do {
    const o = await exchange(api, c);
    outcomes.set(o, (outcomes.get(o) ?? 0) + 1);
  } while (performance.now() < until);
}

/** The poller (bench/health-poller.ts), forked with an IPC channel; take(): the polls of each URL since the last take. */
function startPoller(urls: string[]): { proc: ChildProcess; take(): Promise<Polled[]> } {
  const proc = fork(join(ROOT, 'bench/health-poller.ts'), [String(POLL_MS), ...urls], { execArgv: ['--import', 'tsx'], cwd: ROOT });
  const take = () =>
    new Promise<Polled[]>((resolve) => {
      proc.once('message', (m) => resolve(m as Polled[]));
      proc.send('take');
    });
  return { proc, take };
}

interface Tally {
  outcomes: Map<string, number>;
  polls: Polled[]; // [mock, control]
  loopMs: number[]; // worst of the rounds, [mock, control]
  rssMb: number[];
  /** The mock's CPU time and the wall time of the case's windows, ns. */
  cpuNs: number;
  wallNs: number;
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const pollCells = (p: Polled) =>
  p.ms.length
    ? `${p.ms.length}${p.failed ? ` (+${p.failed} failed)` : ''} | ${ms(median(p.ms))} | ${ms(percentile(p.ms, 99))} | ${ms(Math.max(...p.ms))}`
    : `0${p.failed ? ` (+${p.failed} failed)` : ''} | - | - | -`;

function table(tallies: Map<Case, Tally>): string[] {
  const lines = [
    '| case | exchanges (outcome x count) | mock: polls | p50 ms | p99 ms | max ms | control: polls | p50 ms | p99 ms | max ms | event-loop delay max ms, mock / control | peak RSS MB, mock / control | mock CPU |',
    `|${' --- |'.repeat(13)}`,
  ];
  for (const [c, t] of tallies) {
    const outcomes = [...t.outcomes].map(([o, n]) => `${o} x${n}`).join(', ') || '-';
    lines.push(
      `| ${c.name} | ${outcomes} | ${pollCells(t.polls[0]!)} | ${pollCells(t.polls[1]!)} | ${ms(t.loopMs[0]!)} / ${ms(t.loopMs[1]!)} | ${t.rssMb[0]!.toFixed(0)} / ${t.rssMb[1]!.toFixed(0)} | ${((100 * t.cpuNs) / t.wallNs).toFixed(0)} % |`,
    );
  }
  return lines;
}

/** The worst of one figure over the cases, and the case it fell in. */
function worst(tallies: Map<Case, Tally>, of: (t: Tally) => number): { value: number; name: string } {
  let best = { value: -Infinity, name: '-' };
  for (const [c, t] of tallies) if (of(t) > best.value) best = { value: of(t), name: c.name };
  return best;
}

function verdicts(tallies: Map<Case, Tally>): string[] {
  const maxOf = (i: number) => (t: Tally) => (t.polls[i]!.ms.length ? Math.max(...t.polls[i]!.ms) : 0);
  const [mock, control] = [worst(tallies, maxOf(0)), worst(tallies, maxOf(1))];
  const loop = worst(tallies, (t) => t.loopMs[0]!);
  const failed = [...tallies.values()].reduce((n, t) => n + t.polls[0]!.failed, 0);
  const rss = worst(tallies, (t) => t.rssMb[0]!);
  const yes = (met: boolean) => (met ? 'yes' : 'NO');
  return [
    `Health within ${HEALTH_TARGET_MS} ms, every poll: ${yes(mock.value <= HEALTH_TARGET_MS && !failed)} — the mock's worst poll ${ms(mock.value)} ms (${mock.name})${failed ? `, ${failed} failed` : ''}; the idle control's worst at the same ticks ${ms(control.value)} ms (${control.name}); the mock's own worst event-loop delay ${ms(loop.value)} ms (${loop.name}).`,
    `RSS under ${RSS_TARGET_MB} MB: ${yes(rss.value < RSS_TARGET_MB)} — peak ${rss.value.toFixed(0)} MB (${rss.name}).`,
  ];
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'upstream-hostile-'));
  const servers: Server[] = [];
  let poller: ReturnType<typeof startPoller> | undefined;
  const loadAtStart = loadAverage();
  const t0 = performance.now();
  try {
    const upstream = await startProcess(['mock/testing/hostile-upstream.ts'], /(http:\/\/\S+)/);
    servers.push(upstream);
    const mockArgs = ['--import', loopDelayPreload(dir), 'mock/cli.ts', '--upstream', `${upstream.url}/ext-api/v1`, '--port', '0'];
    const mocks = [await startProcess(mockArgs, /API\s+(http:\/\/\S+)/), await startProcess(mockArgs, /API\s+(http:\/\/\S+)/)];
    servers.push(...mocks);
    poller = startPoller(mocks.map((m) => `${new URL(m.url).origin}/__mock/health`));
    const tallies = new Map<Case, Tally>(
      CASES.map((c) => [
        c,
        { outcomes: new Map(), polls: mocks.map(() => ({ ms: [], failed: 0 })), loopMs: [0, 0], rssMb: [0, 0], cpuNs: 0, wallNs: 0 },
      ]),
    );
    await sleep(1000); // the poller's first polls (its connections, JIT) are not counted
    await poller.take();
    let cpu = (await takePeaks(mocks[0]!, dir)).cpuNs;
    await takePeaks(mocks[1]!, dir);
    for (let round = 0; round < ROUNDS; round++)
      for (const c of CASES) {
        const t = tallies.get(c)!;
        const started = process.hrtime.bigint();
        await runCase(mocks[0]!.url, c, t.outcomes);
        await sleep(SETTLE_MS);
        for (const [i, p] of (await poller.take()).entries()) {
          t.polls[i]!.ms.push(...p.ms);
          t.polls[i]!.failed += p.failed;
        }
        t.wallNs += Number(process.hrtime.bigint() - started);
        for (const [i, m] of mocks.entries()) {
          const peaks = await takePeaks(m, dir);
          t.loopMs[i] = Math.max(t.loopMs[i]!, peaks.loopMs);
          t.rssMb[i] = Math.max(t.rssMb[i]!, peaks.rssMb);
          if (i > 0) continue;
          t.cpuNs += peaks.cpuNs - cpu;
          cpu = peaks.cpuNs;
        }
      }
    console.log(
      [
        ...table(tallies),
        '',
        ...verdicts(tallies),
        '',
        `${ROUNDS} rounds of ${SECONDS} s a case, cases in turn; health polled every ${POLL_MS} ms from a process of its own; ${((performance.now() - t0) / 1000).toFixed(0)} s in all. Load average at start ${loadAtStart}, at the end ${loadAverage()}.`,
      ].join('\n'),
    );
  } finally {
    poller?.proc.disconnect();
    for (const s of servers) await stop(s);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
