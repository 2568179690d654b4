// The reports of a run that ended before any check (exit 2: the target is unreachable, is not the API, or refused the
// main key): CI still finds a junit.xml with one errored test case and a report.json saying why, not a missing file.
import type { ReporterName } from '../run/args.ts';
import { writeInto } from './out-dir.ts';
import { x } from './junit.ts';
import { printable } from './printable.ts';

/** Writes junit.xml and report.json (the ones chosen) into `dir`; returns the files written and what could not be. */
export function writeNotStarted(
  dir: string,
  reporters: ReporterName[],
  run: { target: string; reason: string },
): { files: string[]; errors: string[] } {
  const files: string[] = [];
  const errors: string[] = [];
  const junit = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="clinical-records-conformance" tests="1" failures="0" errors="1">`,
    `  <testsuite name="run" tests="1" failures="0" errors="1" skipped="0">`,
    `    <testcase classname="run" name="the run could start against ${x(run.target)}">`,
    `      <error message="${x(run.reason)}">${x(run.reason)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
  const report = `${JSON.stringify({ target: printable(run.target), started: false, exitCode: 2, reason: printable(run.reason) }, null, 2)}\n`;
  for (const [name, file, text] of [
    ['junit', 'junit.xml', junit],
    ['json', 'report.json', report],
  ] as const) {
    if (!reporters.includes(name)) continue;
    try {
      files.push(writeInto(dir, file, text));
    } catch (err) {
      errors.push(`could not write ${file} into ${dir}: ${(err as Error).message}`);
    }
  }
  return { files, errors };
}
