// The figures of one report, counted once, so the console, the HTML report and JUnit say the same numbers: checks by
// outcome, failures (pieces of evidence) and the causes they group into, rules checked through the schema checks and
// rules not checked. A skipped check is neither passed nor failed: "passed" counts over the checks that ran.
import { causeGroups } from './causes.ts';
import type { CheckResult, Outcome, RunReport } from '../run/model.ts';

export interface Figures {
  checks: number;
  passed: number;
  failed: number;
  skipped: number;
  blocked: number;
  timedOut: number;
  /** Checks that ran (every outcome but skipped). */
  ran: number;
  /** Pieces of evidence of the failed checks, as the causes group them. */
  failures: number;
  causes: number;
  coveredBySchemas: number;
  notChecked: number;
}

const count = (rs: CheckResult[], o: Outcome) => rs.filter((r) => r.outcome === o).length;

/** The counts of some results (an area's, or the whole report's). */
export function outcomeCounts(
  rs: CheckResult[],
): Pick<Figures, 'checks' | 'passed' | 'failed' | 'skipped' | 'blocked' | 'timedOut' | 'ran'> {
  const skipped = count(rs, 'skipped');
  return {
    checks: rs.length,
    passed: count(rs, 'passed'),
    failed: count(rs, 'failed'),
    skipped,
    blocked: count(rs, 'blocked'),
    timedOut: count(rs, 'timed-out'),
    ran: rs.length - skipped,
  };
}

export function figures(report: RunReport): Figures {
  const groups = causeGroups(report.results);
  return {
    ...outcomeCounts(report.results),
    failures: groups.reduce((n, g) => n + g.cause.failures, 0),
    causes: groups.length,
    coveredBySchemas: report.coveredBySchemas.length,
    notChecked: report.notChecked.length,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The causes' heading, one wording everywhere: "2 checks failed with 19 failures from 1 cause". */
export function failedHeading(f: Pick<Figures, 'failed' | 'failures' | 'causes'>): string {
  return `${plural(f.failed, 'check')} failed with ${plural(f.failures, 'failure')} from ${plural(f.causes, 'cause')}`;
}
