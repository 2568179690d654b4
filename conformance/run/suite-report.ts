// A run's report once it is over: its times, its results in the register's order, the blocked checks' blockers named,
// and the causes the results share.
import { responseChecks } from '../../judge/checks/index.ts';
import type { Register } from '../../spec/runtime/register.ts';
import { causesOf } from '../report/causes.ts';
import { liveRuleCoverage } from '../report/rule-coverage.ts';
import { areaOf, type CheckDef, type CheckResult, type RunReport } from './model.ts';

/** A run's report once it is over: its times, its results in the register's order and their causes. */
export function finishedReport(
  parts: Omit<RunReport, 'startedAt' | 'seconds' | 'results' | 'causes'>,
  run: { started: number; results: CheckResult[]; register: Register },
): RunReport {
  return {
    ruleCoverage: liveRuleCoverage(run.register, parts.notChecked),
    ...parts,
    startedAt: new Date(run.started).toISOString(),
    seconds: (Date.now() - run.started) / 1000,
    results: sortResults(run.results, run.register),
    causes: causesOf(run.results),
  };
}

/** A blocked check names the checks that judge the rule it waited on, and whether they failed in this run. */
export function nameBlockers(results: CheckResult[], all: CheckDef[]): void {
  const judges = (id: string) => [
    ...all.filter((c) => c.rule === id || c.covers?.includes(id)).map((c) => c.name),
    ...responseChecks.filter((c) => c.rule === id).map((c) => c.name),
  ];
  for (const r of results) {
    if (r.outcome !== 'blocked' || !r.blockedBy) continue;
    const checks = judges(r.blockedBy.ruleId);
    const states = checks.map((n) => `${n} ${results.find((x) => x.name === n)?.outcome ?? 'not run'}`);
    r.blockedBy.checks = checks;
    r.reason = `waited for ${r.blockedBy.waitedFor}; ${r.blockedBy.ruleId} is judged by ${states.join(', ') || 'no check'}`;
  }
}

/** Areas in the register's order, checks by name within an area. */
function sortResults(results: CheckResult[], register: Register): CheckResult[] {
  const order = [...new Set(register.rules.map((r) => areaOf(r.id)))];
  const rank = (a: string) => (order.includes(a) ? order.indexOf(a) : order.length);
  return results.slice().sort((a, b) => rank(a.area) - rank(b.area) || a.area.localeCompare(b.area) || a.name.localeCompare(b.name));
}
