// Writes the chosen file reports into --out (a folder prepareOutDir made): junit.xml, report.html, and with json
// report.json and baseline.json (this run's failures as baseline entries, to commit and pass to --baseline).
import type { Baseline } from './baseline.ts';
import { baselineFile } from './baseline.ts';
import type { RunReport } from '../run/model.ts';
import type { ReporterName } from '../run/args.ts';
import { renderJunit } from './junit.ts';
import { renderHtml } from './html.ts';
import { writeInto } from './out-dir.ts';
import { printable } from './printable.ts';

/** JSON with control characters spelled out in every string: a report shown in a terminal stays inert. */
const json = (v: unknown) => `${JSON.stringify(v, (_k, x) => (typeof x === 'string' ? printable(x) : x), 2)}\n`;

/** Writes each chosen report; one that cannot be written is named in `errors`, the others are still written. */
export function writeReports(
  report: RunReport,
  reporters: ReporterName[],
  dir: string,
  previous?: Baseline,
): { files: string[]; errors: string[] } {
  const files: Array<[ReporterName, string, () => string]> = [
    ['junit', 'junit.xml', () => renderJunit(report)],
    ['json', 'report.json', () => json(report)],
    ['json', 'baseline.json', () => baselineFile(report, previous)],
    ['html', 'report.html', () => renderHtml(report)],
  ];
  const written: string[] = [];
  const errors: string[] = [];
  for (const [name, file, render] of files) {
    if (!reporters.includes(name)) continue;
    try {
      written.push(writeInto(dir, file, render()));
    } catch (err) {
      errors.push(`could not write ${file} into ${dir}: ${(err as Error).message}`);
    }
  }
  return { files: written, errors };
}
