// One run of the suite's CLI as its own process (node --import tsx conformance/cli.ts) against a hostile target,
// measured from outside: exit code, seconds, peak RSS (GNU time's maximum resident set where /usr/bin/time exists, else
// VmHWM polled from /proc), and every place the key shows up
// (console output, report files, the redirect target). hostile.test.ts asserts the bounds; bench/hostile.ts prints
// them. The key travels in the environment only, as a user's would. Test-only.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { postHuge, startHostileServer, type HostileMode, type HugePost, type Seen } from './hostile-server.ts';
import { keyTraceIn } from './key-trace.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TIME = '/usr/bin/time';

export interface CliRun {
  /** null when the run had to be killed (past `timeoutMs`). */
  exit: number | null;
  signal: NodeJS.Signals | null;
  seconds: number;
  /** Peak resident memory of the suite's process, MB. */
  peakRssMb: number;
  stdout: string;
  stderr: string;
  /** The report files written (name → content). */
  files: Map<string, string>;
}

/** A key shaped like a real one (36 characters), random so that any 12 of its characters in a row betray it. */
export const hostileKey = () => `crk_${randomBytes(16).toString('hex')}`;

/** Where `key` shows up among `places` (name → text), in any form key-trace.ts knows: the names. */
function keySeenIn(key: string, places: Iterable<[string, string]>): string[] {
  return [...places].filter(([, text]) => keyTraceIn(text, key)).map(([name]) => name);
}

/** Peak resident set of `pid` so far (VmHWM), in KB; 0 once the process is gone. */
function vmHwm(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The first child of `pid` (the suite's node under GNU time), or `pid` itself when it has none yet. */
function suitePid(pid: number, timed: boolean): number {
  if (!timed) return pid;
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]) || pid;
  } catch {
    return pid;
  }
}

/**
 * Runs the CLI with `args` (reporters console, junit, json and html into a fresh folder are added), the key in
 * $CLINICAL_RECORDS_KEY; kills it after `timeoutMs`. The folder is removed afterwards; its files come back.
 */
export async function runCli(args: string[], key: string, timeoutMs = 180_000): Promise<CliRun> {
  const out = mkdtempSync(join(tmpdir(), 'crc-hostile-'));
  const rssFile = join(out, '.maxrss');
  const timed = existsSync(TIME);
  const suite = [process.execPath, '--import', 'tsx', 'conformance/cli.ts', ...args, '--reporter', 'console,junit,json,html', '--out', out];
  const argv = timed ? [TIME, '-f', '%M', '-o', rssFile, ...suite] : suite;
  const t0 = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: ROOT,
    env: { ...process.env, CLINICAL_RECORDS_KEY: key, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => void (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, vmHwm(suitePid(child.pid!, timed)))), 50);
  // Past the bound, the suite itself is killed (GNU time then reports and exits).
  const kill = setTimeout(() => process.kill(suitePid(child.pid!, timed), 'SIGKILL'), timeoutMs);
  const [exit, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.on('exit', (code, sig) => resolve([code, sig]));
  });
  clearInterval(poll);
  clearTimeout(kill);
  const seconds = (performance.now() - t0) / 1000;
  if (timed) peak = Math.max(peak, Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) || 0);
  const files = new Map<string, string>();
  for (const f of readdirSync(out, { recursive: true, withFileTypes: true }))
    if (f.isFile() && f.name !== '.maxrss') files.set(f.name, readFileSync(join(f.parentPath, f.name), 'utf8'));
  rmSync(out, { recursive: true, force: true });
  await new Promise((r) => setImmediate(r));
  return { exit, signal, seconds, peakRssMb: Math.round(peak / 1024), stdout, stderr, files };
}

export interface HostileCase {
  /** What the bench prints (the mode, or the mode and a variant). */
  label: string;
  mode: HostileMode;
  /** More flags for the suite (e.g. --mock, --timeout). */
  args?: string[];
  /** The mock to spare requests to: the control API and the first `spareApi` API requests go there untouched. */
  upstream?: string;
  spareApi?: number;
  /** Seconds of Retry-After in `rate-limited` mode. */
  retryAfter?: number;
}

export interface HostileResult extends CliRun {
  label: string;
  seen: Seen;
  /** Where a key (or 12 characters of it) showed up: 'stdout', 'stderr', a report file, 'redirect target'. */
  keySeen: string[];
}

/** Runs the suite against a hostile server playing `c`, looking for `keys` everywhere it could have gone. */
export async function runHostile(c: HostileCase, keys: string[], timeoutMs?: number): Promise<HostileResult> {
  let api = 0;
  const spare = (req: IncomingMessage) => !!req.url?.startsWith('/__mock') || api++ < (c.spareApi ?? 0);
  const server = await startHostileServer(c.mode, {
    upstream: c.upstream,
    spare: c.upstream ? spare : undefined,
    retryAfter: c.retryAfter,
  });
  try {
    const run = await runCli(['--url', `${server.origin}/ext-api/v1`, ...(c.args ?? [])], keys[0]!, timeoutMs);
    // With --mock the suite writes the mock's own (public, test) keys to keys.env on purpose, for the curl lines.
    const reports = [...run.files].filter(([name]) => !(c.args?.includes('--mock') && name === 'keys.env'));
    const places: Array<[string, string]> = [
      ['stdout', run.stdout],
      ['stderr', run.stderr],
      ...reports,
      ['redirect target', server.seen.keys.join('\n')],
    ];
    const keySeen = [...new Set(keys.flatMap((k) => keySeenIn(k, places)))];
    return { ...run, label: c.label, seen: { ...server.seen, keys: [...server.seen.keys] }, keySeen };
  } finally {
    await server.close();
  }
}

export interface FloodResult extends CliRun {
  /** How the suite's receiver answered the flood. */
  post: HugePost;
}

/** A free loopback port (bound, then let go). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** Waits until something listens on `port` (the suite's receiver, once the run has started), up to `timeoutMs`. */
async function listening(port: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const up = await new Promise<boolean>((resolve) => {
      const c = connect(port, '127.0.0.1', () => (c.destroy(), resolve(true)));
      c.on('error', () => resolve(false));
    });
    if (up) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * The webhook checks of a --mock run against `mockUrl`, with the receiver on a known port, and a POST of `bytes`
 * (600 MB, chunked: the receiver must count) sent to that receiver once it listens.
 */
export async function runReceiverFlood(mockUrl: string, key: string, bytes?: number, timeoutMs?: number): Promise<FloodResult> {
  const port = await freePort();
  const args = ['--url', mockUrl, '--mock', '--only', 'evt', '--webhook-receiver', `http://127.0.0.1:${port}/hook`];
  const run = runCli([...args, '--webhook-port', String(port)], key, timeoutMs);
  const post = (await listening(port, 60_000))
    ? await postHuge(`http://127.0.0.1:${port}/hook`, bytes, 60_000, true)
    : { sent: 0, error: 'the receiver never listened', ms: 0 };
  return { ...(await run), post };
}
