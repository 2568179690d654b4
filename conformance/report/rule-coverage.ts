// The share of the register's rules a run exercised, for every report and for --min-coverage (a CI gate): a live run
// counts the documented rules testable from outside that a check which ran claims (coverage.ts's notChecked are the
// others); recorded traffic counts the documented exchange rules its exchanges gave the judge something to judge.
import type { NotChecked, RuleCoverage } from '../run/model.ts';
import type { Register, Rule } from '../../spec/runtime/register.ts';

function share(of: string, counted: Rule[], exercised: (r: Rule) => boolean): RuleCoverage {
  const missed = counted.filter((r) => !exercised(r)).map((r) => r.id);
  const done = counted.length - missed.length;
  return {
    of,
    total: counted.length,
    exercised: done,
    percent: counted.length ? Math.round((done / counted.length) * 1000) / 10 : 0,
    missed,
  };
}

/** A live run: the documented rules testable from outside, less those it did not check. */
export function liveRuleCoverage(register: Register, notChecked: readonly NotChecked[]): RuleCoverage {
  const not = new Set(notChecked.map((n) => n.ruleId));
  const counted = register.rules.filter((r) => r.provenance === 'documented' && r.testable !== 'not-from-outside');
  return share('documented testable rules', counted, (r) => !not.has(r.id));
}

/** Recorded traffic: the documented exchange rules, those its exchanges exercised. */
export function trafficRuleCoverage(register: Register, exercised: ReadonlySet<string>): RuleCoverage {
  const counted = register.rules.filter((r) => r.provenance === 'documented' && r.seen === 'exchange');
  return share('documented exchange rules', counted, (r) => exercised.has(r.id));
}

/** The console's and the HTML's line. */
export const coverageLine = (c: RuleCoverage) => `rule coverage: ${c.exercised} of ${c.total} ${c.of} exercised (${c.percent} %)`;

/** Shards of one run: a rule any shard exercised is exercised (undefined when a shard reported none). */
export function mergedRuleCoverage(list: ReadonlyArray<RuleCoverage | undefined>): RuleCoverage | undefined {
  const [first] = list;
  if (!first || list.some((c) => !c || c.of !== first.of || c.total !== first.total)) return undefined;
  const missed = first.missed.filter((id) => list.every((c) => c!.missed.includes(id)));
  const exercised = first.total - missed.length;
  return { ...first, exercised, missed, percent: first.total ? Math.round((exercised / first.total) * 1000) / 10 : 0 };
}
