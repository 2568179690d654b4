// Writes the chosen file reports into --out.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunReport } from '../model.ts';
import type { ReporterName } from '../args.ts';
import { renderJunit } from './junit.ts';
import { renderHtml } from './html.ts';

/** Writes each chosen report; one that cannot be written is named in `errors`, the others are still written. */
export function writeReports(report: RunReport, reporters: ReporterName[], dir: string): { files: string[]; errors: string[] } {
  const files: Array<[ReporterName, string, () => string]> = [
    ['junit', 'junit.xml', () => renderJunit(report)],
    ['json', 'report.json', () => JSON.stringify(report, null, 2)],
    ['html', 'report.html', () => renderHtml(report)],
  ];
  const written: string[] = [];
  const errors: string[] = [];
  for (const [name, file, render] of files) {
    if (!reporters.includes(name)) continue;
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, file), render());
      written.push(join(dir, file));
    } catch (err) {
      errors.push(`could not write ${join(dir, file)}: ${(err as Error).message}`);
    }
  }
  return { files: written, errors };
}
