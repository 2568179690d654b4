// `clinical-records-conformance merge <report.json …> [--reporter …] [--out <dir>]`: one report, in every reporter,
// from the report.json files the shards of a run wrote (--shard k/n --reporter json). Exit codes as a run's.
import { parseArgs } from 'node:util';
import { failsRun } from './baseline.ts';
import { renderConsole } from './console.ts';
import { MergeError, mergeReports, readReport } from './merge.ts';
import { OutDirError, prepareOutDir } from './out-dir.ts';
import { printable } from './printable.ts';
import { writeReports } from './write.ts';
import { parseReporters, UsageError } from '../run/args.ts';

const MERGE_USAGE = `Usage: clinical-records-conformance merge <report.json> <report.json> ... [--reporter console,junit,json,html] [--out <dir>]

Joins the report.json files of the shards of one run (--shard k/n, each with --reporter json) into one report.
Exit codes: 0 every check passed in every shard, 1 a check failed somewhere, 2 bad usage or an unreadable report.`;

export function mergeMain(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  const fail = (m: string) => {
    err(printable(`clinical-records-conformance merge: ${m}`));
    return 2;
  };
  let files: string[];
  let reporters;
  let dir: string;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { reporter: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      out(MERGE_USAGE);
      return 0;
    }
    files = positionals;
    if (!files.length) throw new UsageError('name the report.json files to merge');
    reporters = parseReporters(values.reporter);
    dir = values.out ?? 'conformance-report';
  } catch (e) {
    return fail(`${(e as Error).message.split('\n')[0]}\n${MERGE_USAGE}`);
  }
  try {
    const report = mergeReports(files.map(readReport));
    const outDir = reporters.some((r) => r !== 'console') ? prepareOutDir(dir) : undefined;
    const written = outDir ? writeReports(report, reporters, outDir) : { files: [], errors: [] };
    if (reporters.includes('console')) out(renderConsole(report, written.files));
    for (const e of written.errors) err(printable(`clinical-records-conformance merge: ${e}`));
    return failsRun(report) || written.errors.length ? 1 : 0;
  } catch (e) {
    if (e instanceof MergeError || e instanceof OutDirError) return fail(e.message);
    throw e;
  }
}
