#!/usr/bin/env -S npx tsx
// clinical-records-conformance: parse flags, run the suite, print and write the reports, exit 0/1/2.
// Ctrl-C stops the checks, still removes what the run created, writes what it has and exits 130.
import { parseCli, UsageError, USAGE } from './args.ts';
import { runSuite, UnreachableTarget, BadInput, KeyRefused, knownSelectors } from './runner.ts';
import { allChecks } from './checks/index.ts';
import { areaLine, renderConsole } from './reporters/console.ts';
import { writeReports } from './reporters/write.ts';
import { applyBaseline, BaselineError, baselineLines, failsRun, loadBaseline, type Baseline } from './baseline.ts';

export async function main(
  argv: string[],
  out: (s: string) => void = (s) => process.stdout.write(`${s}\n`),
  err: (s: string) => void = (s) => process.stderr.write(`${s}\n`),
): Promise<number> {
  let opts;
  try {
    opts = parseCli(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`clinical-records-conformance: ${e.message}\nRun with --help for usage.`);
      return 2;
    }
    throw e;
  }
  if (opts.help) {
    out(USAGE);
    return 0;
  }
  const known = knownSelectors(allChecks);
  const unknown = opts.only.filter((o) => !known.has(o.toLowerCase()));
  if (unknown.length) {
    err(
      `clinical-records-conformance: --only: unknown area, rule id or check "${unknown.join(', ')}" (areas: ${[...new Set(allChecks.map((c) => c.area))].join(', ')})`,
    );
    return 2;
  }
  let baseline: Baseline | undefined;
  try {
    if (opts.baseline !== undefined) baseline = loadBaseline(opts.baseline);
  } catch (e) {
    if (!(e instanceof BaselineError)) throw e;
    err(`clinical-records-conformance: ${e.message}`);
    return 2;
  }
  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(130);
    err('\ninterrupted: stopping checks and removing what this run created (Ctrl-C again to quit at once)');
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  const consoleOn = opts.reporters.includes('console');
  try {
    if (consoleOn)
      out(
        `clinical-records-conformance → ${opts.url} (profile ${opts.profile}${opts.readOnly ? ', read-only' : ''}${opts.mock ? ', mock' : ''})`,
      );
    const run = await runSuite({ ...opts, signal: abort.signal, onArea: consoleOn ? (a, rs) => out(areaLine(a, rs)) : undefined });
    const report = baseline ? applyBaseline(run.report, baseline) : run.report;
    if (consoleOn) out([renderConsole(report), ...baselineLines(report)].join('\n'));
    const { files, errors } = writeReports(report, opts.reporters, opts.out);
    if (files.length && consoleOn) out(`reports: ${files.join(', ')}`);
    for (const e of errors) err(`clinical-records-conformance: ${e}`);
    if (report.interrupted) return 130;
    return failsRun(report) || errors.length ? 1 : 0;
  } catch (e) {
    if (e instanceof UnreachableTarget || e instanceof BadInput || e instanceof KeyRefused) {
      err(`clinical-records-conformance: ${e.message}`);
      return 2;
    }
    err(`clinical-records-conformance: ${(e as Error).message}`);
    return 2;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
