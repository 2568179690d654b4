// The Dredd process (started by runner.ts, key in $CLINICAL_RECORDS_KEY): runs Dredd 14 on the prepared copy with
// the project's hooks, every request through one Guard (dredd-transport.ts), prints the summary (counts, time, every
// skipped transaction with its reason, cleanup) and the verdict, and exits 0 when every transaction passed, 1
// otherwise. Its output reaches the user only through the runner's redactor; its report files, written into the
// run's private folder, only through report-files.ts.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Contract } from '../spec/runtime/contract.ts';
import { loadBundle } from '../spec/runtime/bundle.ts';
import { KEY_ENV, REPORT_FILES, type ReporterName } from './args.ts';
import { installInDredd } from './dredd-transport.ts';
import { exitWhenFlushed } from './exit.ts';
import { Guard } from './guard.ts';
import { registerHooks, type DreddHooks, type HookRecord } from './hooks.ts';
import { type ProcessInput, VERDICT_PREFIX } from './process-input.ts';

interface DreddStats {
  tests: number;
  failures: number;
  errors: number;
  passes: number;
  skipped: number;
  duration: number;
}

/** Dredd maps --output paths to its file reporters in its own order (xunit, html, markdown). */
const FILE_REPORTERS: ReporterName[] = ['xunit', 'html', 'markdown'];

const BRIDGE_SYMBOL = Symbol.for('clinical-records-api/dredd-hooks');

function dreddConfig(input: ProcessInput): Record<string, unknown> {
  const files = FILE_REPORTERS.filter((r) => input.reporters.includes(r));
  return {
    endpoint: input.url,
    path: [input.bundle],
    hookfiles: [fileURLToPath(new URL('./hooks-bridge.cjs', import.meta.url))],
    language: 'nodejs',
    reporter: [...input.reporters.filter((r) => r !== 'cli' && !files.includes(r)), ...files],
    output: files.map((r) => `${input.workDir}/${REPORT_FILES[r]}`),
    // Parser warnings (the 3.1 keywords Dredd does not know) would bury the results; errors still show.
    loglevel: 'error',
    color: !!process.stdout.isTTY,
  };
}

function summary(stats: DreddStats, record: HookRecord | undefined): string[] {
  const lines = [
    `dredd: ${stats.tests} transactions in ${(stats.duration / 1000).toFixed(1)} s: ${stats.passes} passed, ${stats.failures} failed, ${stats.errors} errors, ${stats.skipped} skipped`,
  ];
  if (!record) return [...lines, 'dredd: the project hooks did not load (dredd/hooks-bridge.cjs): no transaction ran as intended'];
  if (record.notRun)
    lines.push(
      record.interrupted
        ? `interrupted: ${record.notRun} transactions not sent`
        : `not sent: ${record.notRun} transactions: ${record.stopped}`,
    );
  if (record.skipped.length)
    lines.push(`skipped (${record.skipped.length}), each with its reason:`, ...record.skipped.map((s) => `  - ${s.name}: ${s.reason}`));
  const c = record.cleanup;
  if (c)
    lines.push(`cleanup: ${c.removed} resources this run created removed${c.leftovers.map((l) => `\n  - left behind: ${l}`).join('')}`);
  return lines;
}

/**
 * Warnings Dredd's own dependencies trip on every run, ours to leave alone: its logger's (winston 2) circular import,
 * and on Node 22 and 24 the deprecated util._extend (DEP0060) its request code still calls. Others still show.
 */
const DREDDS_OWN = [/non-existent property 'padLevels'/, /util\._extend/];

function quietDreddWarnings(): void {
  process.removeAllListeners('warning');
  process.on('warning', (w) => {
    if (!DREDDS_OWN.some((re) => re.test(w.message))) console.error(`${w.name}: ${w.message}`);
  });
}

async function main(): Promise<number> {
  quietDreddWarnings();
  const input = JSON.parse(process.argv[2] ?? '') as ProcessInput;
  const key = process.env[KEY_ENV];
  if (!key) throw new Error(`$${KEY_ENV} is not set`);
  const guard = new Guard({ timeoutMs: input.timeoutMs });
  installInDredd(guard);
  let record: HookRecord | undefined;
  (globalThis as Record<symbol, unknown>)[BRIDGE_SYMBOL] = (hooks: DreddHooks) => {
    record = registerHooks(hooks, { url: input.url, key, mock: input.mock, contract: new Contract(loadBundle()), guard });
  };
  // Ctrl-C reaches this process too (same process group): the transactions left are not sent, the cleanup runs,
  // the summary says so, exit 130. A second Ctrl-C quits at once.
  process.once('SIGINT', () => {
    console.error('\ninterrupted: removing what this run created (Ctrl-C again to quit at once)');
    if (record) record.interrupt();
    else process.exit(130);
  });
  const Dredd = createRequire(import.meta.url)('dredd') as new (
    c: unknown,
  ) => { run(cb: (err: Error | null, stats: DreddStats) => void): void };
  const { error, stats } = await new Promise<{ error: Error | null; stats: DreddStats }>((resolve) =>
    new Dredd(dreddConfig(input)).run((error, stats) => resolve({ error, stats })),
  );
  for (const line of summary(stats, record)) console.log(line);
  if (error) console.error(`dredd: ${error.message}`);
  const allSkippedExplained = record !== undefined && stats.skipped === record.skipped.length + record.notRun;
  if (!allSkippedExplained)
    console.error(`dredd: ${stats.skipped} transactions skipped, ${record?.skipped.length ?? 0} with a reason from the hooks`);
  return verdict(stats, record, !error && allSkippedExplained);
}

/** Prints the verdict line and returns the exit code. */
function verdict(stats: DreddStats, record: HookRecord | undefined, clean: boolean): number {
  const say = (code: number, text: string) => (console.log(`${VERDICT_PREFIX}${text} (exit ${code})`), code);
  if (record?.interrupted) return say(130, 'interrupted');
  if (record?.stopped) return say(1, `failed: the server stopped answering, ${record.notRun} transactions not sent`);
  if (clean && record && stats.tests > 0 && stats.failures === 0 && stats.errors === 0) return say(0, 'passed');
  return say(1, `failed: ${stats.failures} failed, ${stats.errors} errors of ${stats.tests} transactions`);
}

main().then(exitWhenFlushed, (err: unknown) => {
  console.error(`dredd: ${(err as Error).message}`);
  console.log(`${VERDICT_PREFIX}failed: ${(err as Error).message} (exit 1)`);
  exitWhenFlushed(1);
});
