// `npm run dredd` (tsx dredd/cli.ts, in its own process) against one mode of the loopback hostile server, the key in
// the environment as a user would pass it: exit code, seconds, peak RSS of the whole process tree, and every place
// a trace of the key turned up (console, each report file, the redirect target). Shared by dredd/hostile.test.ts
// and bench/dredd-hostile.ts. Test and bench helper; loopback only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HostileMode, type Seen, startHostileServer } from '../../conformance/testing/hostile-server.ts';
import { keyTraceIn } from '../../conformance/testing/key-trace.ts';
import { watchTreeRss } from './tree-rss.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

export interface HostileRunOptions {
  /** The mock the first `spare` requests go to, so the run meets the hostility past its start. */
  upstream: string;
  /** The run's key, looked for everywhere afterwards. */
  key: string;
  /** --mock without --key or $CLINICAL_RECORDS_KEY: the run reads `key` from the mock's /__mock/keys itself. */
  keyFromMock?: boolean;
  /** Requests answered by the mock before the hostility starts (default 20; 0: hostile from the first). */
  spare?: number;
  /** --timeout (ms); the run's own default when absent. */
  timeoutMs?: number;
  hugeBytes?: number;
  /** The run is killed (code null) if it has not ended by then. */
  deadlineMs?: number;
}

export interface HostileRun {
  mode: HostileMode;
  code: number | null;
  seconds: number;
  peakMb: number;
  /** Where a trace of the key was found: `console`, a report file's name, `redirect target`. Must stay empty. */
  keySeenIn: string[];
  output: string;
  files: Record<string, string>;
  seen: Seen;
}

export async function runDreddAgainst(mode: HostileMode, opts: HostileRunOptions): Promise<HostileRun> {
  const spare = opts.spare ?? 20;
  const hostile = await startHostileServer(mode, { upstream: opts.upstream, spare: (_req, n) => n < spare, hugeBytes: opts.hugeBytes });
  const dir = mkdtempSync(join(tmpdir(), `dredd-hostile-${mode}-`));
  try {
    const args = ['--url', `${hostile.origin}/ext-api/v1`, '--out', dir, '--reporter', 'cli,xunit,html,markdown'];
    if (opts.timeoutMs) args.push('--timeout', String(opts.timeoutMs));
    if (opts.keyFromMock) args.push('--mock');
    const env = { ...process.env, CLINICAL_RECORDS_KEY: opts.keyFromMock ? '' : opts.key };
    const t0 = performance.now();
    // Its own process group, so a run past its deadline can be stopped whole.
    const child = spawn(process.execPath, ['--import', 'tsx', 'dredd/cli.ts', ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const rss = watchTreeRss(child.pid!, { includeRoot: true });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        process.kill(-child.pid!, 'SIGKILL');
        resolve(null);
      }, opts.deadlineMs ?? 300_000);
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    const seconds = (performance.now() - t0) / 1000;
    const peakMb = rss.stop();
    const output = Buffer.concat(chunks).toString('utf8');
    const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
    const keySeenIn = [
      ...(keyTraceIn(output, opts.key) ? ['console'] : []),
      ...Object.entries(files)
        .filter(([, text]) => keyTraceIn(text, opts.key))
        .map(([name]) => name),
      ...(hostile.seen.keys.length ? ['redirect target'] : []),
    ];
    return { mode, code, seconds, peakMb, keySeenIn, output, files, seen: { ...hostile.seen } };
  } finally {
    await hostile.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
