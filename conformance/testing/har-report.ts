// `conformance --har` run as its CLI runs it, for tests that judge a HAR they recorded: its exit code and the JSON
// report it wrote. Test-only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main as conformance } from '../cli.ts';
import type { RunReport } from '../run/model.ts';

export async function harReport(har: string, out: string, extra: string[] = []): Promise<{ code: number; report: RunReport; err: string }> {
  const err: string[] = [];
  const code = await conformance(
    ['--har', har, '--reporter', 'json', '--out', out, ...extra],
    () => {},
    (line) => err.push(line),
  );
  return { code, report: JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport, err: err.join('\n') };
}

/** The rule ids of the report's failed results, sorted. */
export const failedRules = (report: RunReport) =>
  report.results
    .filter((r) => r.outcome === 'failed')
    .map((r) => r.ruleId)
    .sort();
