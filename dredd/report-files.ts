// Dredd's file reporters write into the run's private folder; what reaches --out is read from there, with every
// key replaced by its placeholder, control characters escaped, and in the markdown report no `<` left (a viewer
// that renders HTML in markdown would run a server's `<script>`). A report Dredd did not write (the process
// ended early) is named, not invented.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT_FILES, type ReporterName } from './args.ts';
import { writeInto } from './out-dir.ts';
import { escapeControls, markdownSafe } from './sanitize.ts';
import type { Secrets } from './secrets.ts';

/** Copies the reports of `reporters` from `workDir` into `outDir`; returns the names of those Dredd did not write. */
export function publishReports(workDir: string, outDir: string, reporters: ReporterName[], secrets: Secrets): string[] {
  const missing: string[] = [];
  for (const r of reporters) {
    const name = REPORT_FILES[r];
    if (!name) continue;
    const from = join(workDir, name);
    if (!existsSync(from)) {
      missing.push(name);
      continue;
    }
    const text = secrets.redact(readFileSync(from, 'utf8'));
    writeInto(outDir, name, r === 'markdown' ? markdownSafe(text) : escapeControls(text));
  }
  return missing;
}
