// Writes the chosen file reports into --out.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunReport } from '../model.ts';
import type { ReporterName } from '../args.ts';
import { renderJunit } from './junit.ts';
import { renderHtml } from './html.ts';

export function writeReports(report: RunReport, reporters: ReporterName[], dir: string): string[] {
  const files: Array<[ReporterName, string, () => string]> = [
    ['junit', 'junit.xml', () => renderJunit(report)],
    ['json', 'report.json', () => JSON.stringify(report, null, 2)],
    ['html', 'report.html', () => renderHtml(report)],
  ];
  const written: string[] = [];
  for (const [name, file, render] of files) {
    if (!reporters.includes(name)) continue;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, file), render());
    written.push(join(dir, file));
  }
  return written;
}
