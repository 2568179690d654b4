// The proof that the suite's checks of time do not flake: README step 5 (the documented run against
// `npm run mock -- --time-scale 0.01 --allow-private-webhooks`, then `npm run conformance -- --url … --mock`) repeated
// --runs times while --hogs CPU-bound processes run beside it on this machine, --parallel runs at a time (each beside
// the hogs and the other runs: more load than the hogs alone, never less). Each run starts a fresh mock, as a user
// does, from the built commands in dist/ (`npm run build` first). Prints each run's verdict and the checks that did
// not pass, then `n/N runs passed`; exit 0 only when every run passed.
//   npx tsx bench/time-stress.ts [--runs 20] [--hogs 2] [--parallel 1] [--max-minutes 40]
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFlags } from './flags.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE = 'Usage: npx tsx bench/time-stress.ts [--runs 20] [--hogs 2] [--parallel 1] [--max-minutes 40]';
const flags = readFlags(USAGE, {
  runs: { fallback: 20, min: 1, max: 200, whole: true },
  hogs: { fallback: 2, min: 0, max: 16, whole: true },
  parallel: { fallback: 1, min: 1, max: 8, whole: true },
  'max-minutes': { fallback: 40, min: 1, max: 600 },
});

/** A CPU-bound process: a busy loop, nothing else. */
const hog = () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });

/** `npm run mock -- --time-scale 0.01 --allow-private-webhooks` on a free port; its API URL from the banner (60 s at most). */
async function startMock(): Promise<{ proc: ChildProcess; api: string }> {
  const args = ['dist/mock/cli.js', '--port', '0', '--time-scale', '0.01', '--allow-private-webhooks'];
  const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  for (const end = Date.now() + 60_000; Date.now() < end && proc.exitCode === null; await new Promise((r) => setTimeout(r, 100))) {
    const api = out.match(/API\s+(http:\/\/127\.0\.0\.1:\d+\S*)/)?.[1];
    if (api) return { proc, api };
  }
  proc.kill('SIGKILL');
  throw new Error(`the mock did not start within 60 s:\n${out}`);
}

/** One documented run with --mock; its exit code and the checks that neither passed nor were skipped. */
function conform(api: string, out: string, timeoutMs: number): Promise<{ code: number | null; bad: string[]; seconds: number }> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, ['dist/conformance/cli.js', '--url', api, '--mock', '--reporter', 'json', '--out', out], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    proc.on('exit', (code) => {
      clearTimeout(timer);
      let bad: string[] = [];
      try {
        const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
          results?: Array<{ name: string; ruleId: string; outcome: string; failures?: Array<{ actual?: string }> }>;
        };
        bad = (report.results ?? [])
          .filter((r) => r.outcome !== 'passed' && r.outcome !== 'skipped')
          .map((r) => `${r.name} [${r.ruleId}] ${r.outcome}: ${String(r.failures?.[0]?.actual ?? '').slice(0, 160)}`);
      } catch (e) {
        bad = [`no report.json (${(e as Error).message})`];
      }
      resolve({ code, bad, seconds: (performance.now() - t0) / 1000 });
    }),
  );
}

const hogs = Array.from({ length: flags.hogs }, hog);
const work = mkdtempSync(join(tmpdir(), 'crc-time-stress-'));
const deadline = Date.now() + flags['max-minutes'] * 60_000;
let passed = 0;
let done = 0;
let next = 1;

/** One fresh mock and one documented run against it; its verdict printed. */
async function stressRun(i: number): Promise<void> {
  const mock = await startMock();
  try {
    const r = await conform(mock.api, join(work, `run-${i}`), Math.max(10_000, deadline - Date.now()));
    done++;
    if (r.code === 0) passed++;
    console.log(`run ${i}: exit ${r.code} in ${r.seconds.toFixed(1)} s${r.bad.length ? `\n  ${r.bad.join('\n  ')}` : ''}`);
  } finally {
    mock.proc.kill('SIGKILL');
  }
}

try {
  // --parallel lanes, each taking the next run until all are taken or the bound has passed.
  const lane = async () => {
    while (next <= flags.runs && Date.now() < deadline) await stressRun(next++);
  };
  await Promise.all(Array.from({ length: flags.parallel }, lane));
} finally {
  for (const h of hogs) h.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
console.log(
  `${passed}/${flags.runs} runs passed (${done} ran before the ${flags['max-minutes']}-minute bound), ${flags.parallel} at a time, ${flags.hogs} CPU-bound processes beside them`,
);
process.exitCode = passed === flags.runs ? 0 : 1;
