// --baseline <report.json>: the failures of an earlier run (its JSON report) are known. A check that fails again
// the same way is reported as a known failure and does not fail the run; a known failure that now passes is
// reported as fixed. A check is identified by its name and rule id.
import { readFileSync } from 'node:fs';
import type { CheckResult, RunReport } from './model.ts';

export class BaselineError extends Error {}

/** Outcomes that are neither a pass nor a skip: what a baseline can make known. */
const notPassing = (outcome: string) => outcome !== 'passed' && outcome !== 'skipped';
const keyOf = (r: { name: string; ruleId: string }) => `${r.name} [${r.ruleId}]`;

export interface Baseline {
  file: string;
  /** `check [rule]` → the outcome it had in the baseline run (failed, or another non-passing outcome). */
  failing: Map<string, string>;
}

export function loadBaseline(file: string): Baseline {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new BaselineError(`--baseline: cannot read ${file} as JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  const results = (parsed as { results?: unknown } | null)?.results;
  if (
    !Array.isArray(results) ||
    results.some((r) => !r || typeof r.name !== 'string' || typeof r.ruleId !== 'string' || typeof r.outcome !== 'string')
  )
    throw new BaselineError(
      `--baseline: ${file} is not a report.json of clinical-records-conformance (it needs results with name, ruleId and outcome)`,
    );
  const failing = new Map<string, string>();
  for (const r of results as CheckResult[]) if (notPassing(r.outcome)) failing.set(keyOf(r), r.outcome);
  return { file, failing };
}

/** Marks the results the baseline already had (`known`), and records what it knew and what is now fixed. */
export function applyBaseline(report: RunReport, baseline: Baseline): RunReport {
  const results = report.results.map((r) =>
    notPassing(r.outcome) && baseline.failing.get(keyOf(r)) === r.outcome ? { ...r, known: true } : r,
  );
  const passedNow = new Set(results.filter((r) => r.outcome === 'passed').map(keyOf));
  return {
    ...report,
    results,
    baseline: {
      file: baseline.file,
      known: results.filter((r) => r.known).map(keyOf),
      fixed: [...baseline.failing.keys()].filter((k) => passedNow.has(k)),
    },
  };
}

/**
 * A run fails on a failure the baseline did not have: a failed or timed-out check, or a blocked one (a setup step
 * it needs did not work; its own check then fails too, or did not run).
 */
export const failsRun = (report: RunReport) =>
  report.results.some((r) => (r.outcome === 'failed' || r.outcome === 'timed-out' || r.outcome === 'blocked') && !r.known);

/** Console lines: what the baseline made known, and which of its failures are fixed. */
export function baselineLines(report: RunReport): string[] {
  const b = report.baseline;
  if (!b) return [];
  return [
    `baseline ${b.file}: ${b.known.length} known failure(s) reported but not failing the run${b.known.length ? ` (${b.known.join(', ')})` : ''}`,
    b.fixed.length ? `fixed since the baseline: ${b.fixed.join(', ')}` : 'fixed since the baseline: none',
  ];
}
