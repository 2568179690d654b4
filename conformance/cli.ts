#!/usr/bin/env -S npx tsx
// clinical-records-conformance: parse flags, run the suite, print and write the reports, exit 0/1/2.
// Ctrl-C stops the checks, still removes what the run created, writes what it has and exits 130.
import { parseCli, UsageError, USAGE, type CliOptions } from './run/args.ts';
import { runSuite, UnreachableTarget, BadInput, KeyRefused } from './run/runner.ts';
import { knownSelectors } from './run/select.ts';
import { allChecks } from './checks/index.ts';
import { progressCounter, renderConsole } from './report/console.ts';
import { writeReports } from './report/write.ts';
import { writeNotStarted } from './report/not-started.ts';
import { OutDirError, prepareOutDir, writeInto } from './report/out-dir.ts';
import { printable } from './report/printable.ts';
import { applyBaseline, BaselineError, failsRun, loadBaseline, type Baseline } from './report/baseline.ts';
import { howToSet, keyFileText, variablesIn } from './report/curl.ts';
import type { RunReport } from './run/model.ts';
import { Redactor } from './report/redact.ts';
import { HarError } from './har/read.ts';
import { runHar } from './har/run.ts';
import { isMainModule } from '../spec/runtime/main-module.ts';
import { mergeMain } from './report/merge-command.ts';

/** The variables the report's curl lines read, how to set them; with --mock, the mock's keys in <out>/keys.env (0600). */
function withVariables(report: RunReport, redactor: Redactor, keyDir: string | undefined): RunReport {
  const names = variablesIn(report.results.flatMap((r) => r.failures.map((f) => f.curl)));
  if (!names.length) return report;
  const keyFile = keyDir && writeInto(keyDir, 'keys.env', keyFileText(redactor.variables(), names), 0o600);
  return { ...report, variables: howToSet(names, keyFile) };
}

export async function main(
  argv: string[],
  out: (s: string) => void = (s) => process.stdout.write(`${s}\n`),
  err: (s: string) => void = (s) => process.stderr.write(`${s}\n`),
): Promise<number> {
  const fail = (message: string) => {
    err(printable(`clinical-records-conformance: ${message}`));
    return 2;
  };
  if (argv[0] === 'merge') return mergeMain(argv.slice(1), out, err);
  let opts: CliOptions;
  try {
    opts = parseCli(argv);
  } catch (e) {
    if (e instanceof UsageError) return fail(`${e.message}\nRun with --help for usage.`);
    throw e;
  }
  if (opts.help) {
    out(USAGE);
    return 0;
  }
  const known = knownSelectors(allChecks);
  const unknown = opts.only.filter((o) => !known.has(o.toLowerCase()));
  if (unknown.length)
    return fail(
      `--only: unknown area, rule id or check "${unknown.join(', ')}" (areas: ${[...new Set(allChecks.map((c) => c.area))].join(', ')})`,
    );
  let files: Files;
  try {
    files = prepareFiles(opts);
  } catch (e) {
    if (e instanceof BaselineError || e instanceof OutDirError) return fail(e.message);
    throw e;
  }
  const abort = new AbortController();
  const onSigint = stopOnCtrlC(abort, err);
  process.on('SIGINT', onSigint);
  const consoleOn = opts.reporters.includes('console');
  try {
    if (consoleOn) out(printable(heading(opts)));
    const run = await runOrRead(opts, abort.signal, consoleOn ? out : undefined);
    return finish(run, opts, files, consoleOn ? out : undefined, err);
  } catch (e) {
    // Nothing ran: the chosen reports still say why, so CI shows the reason rather than a missing file.
    if (files.outDir) {
      const { errors } = writeNotStarted(files.outDir, opts.reporters, { target: opts.har ?? opts.url, reason: (e as Error).message });
      for (const m of errors) err(printable(`clinical-records-conformance: ${m}`));
    }
    if (e instanceof UnreachableTarget || e instanceof BadInput || e instanceof KeyRefused || e instanceof HarError) return fail(e.message);
    return fail((e as Error).message);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** The baseline to compare with, and where the files go. */
interface Files {
  baseline?: Baseline;
  outDir?: string;
}

/** Files go to --out: the reports, and with --mock the key file the curl lines need. Checked before anything is sent. */
function prepareFiles(opts: CliOptions): Files {
  const files: Files = {};
  if (opts.baseline !== undefined) files.baseline = loadBaseline(opts.baseline);
  if (opts.mock || opts.reporters.some((r) => r !== 'console')) files.outDir = prepareOutDir(opts.out);
  return files;
}

/** Ctrl-C stops the checks and lets the run clean up and report; a second one quits at once. */
function stopOnCtrlC(abort: AbortController, err: (s: string) => void): () => void {
  return () => {
    if (abort.signal.aborted) process.exit(130);
    err('\ninterrupted: stopping checks and removing what this run created (Ctrl-C again to quit at once)');
    abort.abort();
  };
}

/** The console's first line: the target (or the recorded traffic) and what shapes the run. */
function heading(opts: CliOptions): string {
  if (opts.har) return `clinical-records-conformance → recorded traffic ${opts.har} (profile ${opts.profile})`;
  return `clinical-records-conformance → ${opts.url} (profile ${opts.profile}${opts.readOnly ? ', read-only' : ''}${opts.mock ? ', mock' : ''}${opts.explore ? `, explore seed ${opts.explore.seed}` : ''}${opts.shard ? `, shard ${opts.shard.k}/${opts.shard.of}` : ''})`;
}

/** The suite run against the target, or, with --har, the recorded traffic judged; `out`: the console, when it is on. */
async function runOrRead(
  opts: CliOptions,
  signal: AbortSignal,
  out: ((s: string) => void) | undefined,
): Promise<{ report: RunReport; redactor: Redactor }> {
  if (opts.har) return { report: runHar({ har: opts.har, profile: opts.profile }), redactor: new Redactor() };
  const progress = progressCounter();
  return runSuite({
    ...opts,
    signal,
    onArea: out ? (_a, rs) => out(progress(rs)) : undefined,
    onStill: out ? (line) => out(printable(line)) : undefined,
    onNotice: out ? (s) => out(printable(s)) : undefined,
  });
}

/** The report compared with the baseline, written and printed; the exit code: 130 interrupted, 1 failed, else 0. */
function finish(
  run: { report: RunReport; redactor: Redactor },
  opts: CliOptions,
  { baseline, outDir }: Files,
  out: ((s: string) => void) | undefined,
  err: (s: string) => void,
): number {
  const errors: string[] = [];
  let report = baseline ? applyBaseline(run.report, baseline) : run.report;
  try {
    report = withVariables(report, run.redactor, opts.mock ? outDir : undefined);
  } catch (e) {
    errors.push(`could not write keys.env into ${outDir}: ${(e as Error).message}`);
  }
  const written = outDir ? writeReports(report, opts.reporters, outDir, baseline) : { files: [], errors: [] };
  errors.push(...written.errors);
  out?.(renderConsole(report, written.files));
  const cov = report.ruleCoverage;
  if (opts.minCoverage !== undefined && cov && cov.percent < opts.minCoverage)
    errors.push(
      `rule coverage ${cov.percent} % is below --min-coverage ${opts.minCoverage} % (${cov.exercised} of ${cov.total} ${cov.of})`,
    );
  for (const e of errors) err(printable(`clinical-records-conformance: ${e}`));
  if (report.interrupted) return 130;
  return failsRun(report) || errors.length ? 1 : 0;
}

if (isMainModule(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
