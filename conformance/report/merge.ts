// `clinical-records-conformance merge <report.json …>`: the report.json files of the shards of one run (--shard k/n)
// joined into one report, as one job would have written it: a check's result over every shard (its worst outcome,
// every failure, its assertions summed), an explored check and operation with the first failing case of the plan
// (the lowest case index, as the whole run would have shrunk it), a rule unchecked only where no shard checked it.
import { mergedRuleCoverage } from './rule-coverage.ts';
import { readFileSync } from 'node:fs';
import { causesOf } from './causes.ts';
import { allChecks } from '../checks/index.ts';
import { responseChecks } from '../../judge/checks/index.ts';
import { Contract } from '../../spec/runtime/contract.ts';
import { coverage } from './coverage.ts';
import { Register } from '../../spec/runtime/register.ts';
import type { CheckResult, ExplorationSummary, Failure, Outcome, RunReport } from '../run/model.ts';

export class MergeError extends Error {}

/** Worst first: a check failed in one shard failed in the run. */
const RANK: Outcome[] = ['failed', 'timed-out', 'blocked', 'passed', 'skipped'];

export function readReport(file: string): RunReport {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new MergeError(`cannot read ${file} as JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  const r = doc as Partial<RunReport> | null;
  if (!r || typeof r !== 'object' || typeof r.target !== 'string' || !Array.isArray(r.results) || !Array.isArray(r.notChecked))
    throw new MergeError(`${file} is not a report.json of clinical-records-conformance (no target, results or notChecked)`);
  return r as RunReport;
}

const keyOf = (r: CheckResult) => `${r.name}\u0000${r.explored?.operation ?? ''}`;
/** The plan index of an explored failure's case (from its replay id: <seed>-<case>[-<shrinks>]). */
const caseIndex = (f: Failure) => Number(f.explored?.replay.split('-')[1] ?? Number.MAX_SAFE_INTEGER);

function mergeResult(a: CheckResult, b: CheckResult): CheckResult {
  const worst = RANK.indexOf(a.outcome) <= RANK.indexOf(b.outcome) ? a : b;
  let failures = [...a.failures, ...b.failures];
  if (a.explored && b.explored && failures.length > 1) {
    // One shrunk case per explored check and operation: the plan's first; the others count as alike.
    const [first, ...others] = failures.sort((x, y) => caseIndex(x) - caseIndex(y));
    const alike = failures.reduce((n, f) => n + (f.explored?.alike ?? 0), 0) + others.length;
    failures = [{ ...first!, explored: { ...first!.explored!, alike } }];
  }
  return {
    ...worst,
    failures,
    assertions: a.assertions + b.assertions,
    ms: a.ms + b.ms,
    known: a.known && b.known ? true : undefined,
    explored: a.explored && { operation: a.explored.operation, cases: a.explored.cases + (b.explored?.cases ?? 0) },
  };
}

function mergeExploration(all: ExplorationSummary[]): ExplorationSummary | undefined {
  if (!all.length) return undefined;
  const sum = (f: (e: ExplorationSummary) => number) => all.reduce((n, e) => n + f(e), 0);
  const kinds: Record<string, number> = {};
  for (const e of all) for (const [k, n] of Object.entries(e.kinds)) kinds[k] = (kinds[k] ?? 0) + n;
  const firsts = all.map((e) => e.firstFailureMs).filter((x): x is number => x !== undefined);
  return {
    seed: all[0]!.seed,
    budget: all[0]!.budget,
    cases: sum((e) => e.cases),
    requests: sum((e) => e.requests),
    shrinkRequests: sum((e) => e.shrinkRequests),
    incomplete: sum((e) => e.incomplete),
    errors: [...new Set(all.flatMap((e) => e.errors ?? []))].slice(0, 5),
    seconds: Math.max(...all.map((e) => e.seconds)),
    firstFailureMs: firsts.length ? Math.min(...firsts) : undefined,
    kinds,
  };
}

/** One report from the shards' reports (which must be of one target, profile, seed and budget, each shard once). */
export function mergeReports(reports: RunReport[]): RunReport {
  if (!reports.length) throw new MergeError('merge needs at least one report.json');
  const first = reports[0]!;
  for (const r of reports) {
    if (r.target !== first.target || r.profile !== first.profile)
      throw new MergeError(`the reports are of different runs: ${first.target} (${first.profile}) and ${r.target} (${r.profile})`);
    const [e, f] = [r.exploration, first.exploration];
    if (!!e !== !!f || (e && f && (e.seed !== f.seed || e.budget !== f.budget)))
      throw new MergeError(
        'the reports explored differently (one without --explore, or another --seed or --explore-budget): merge shards of one run',
      );
  }
  const shards = reports.map((r) => r.shard ?? 'whole');
  const twice = shards.find((s, i) => shards.indexOf(s) !== i);
  if (twice) throw new MergeError(`shard ${twice} is given twice`);
  const results = new Map<string, CheckResult>();
  for (const r of reports.flatMap((x) => x.results))
    results.set(keyOf(r), results.has(keyOf(r)) ? mergeResult(results.get(keyOf(r))!, r) : r);
  const merged = [...results.values()];
  const checkedSomewhere = (id: string) => reports.some((r) => !r.notChecked.some((n) => n.ruleId === id));
  const seen = new Set<string>();
  // Rules checked through the schema checks or not at all, as one run over the merged results would count them: a
  // shard's own list counts the rules of checks that ran in another shard as schema-checked (or unchecked).
  const recounted = first.recorded ? undefined : coverageOf(merged, first.profile);
  return {
    target: first.target,
    runId: [...new Set(reports.map((r) => r.runId))].join('+'),
    profile: first.profile,
    startedAt: reports.map((r) => r.startedAt).sort()[0]!,
    seconds: Math.max(...reports.map((r) => r.seconds)),
    results: merged,
    causes: causesOf(merged),
    notChecked: recounted?.notChecked ?? first.notChecked.filter((n) => !checkedSomewhere(n.ruleId)),
    coveredBySchemas:
      recounted?.coveredBySchemas ??
      reports.flatMap((r) => r.coveredBySchemas).filter((c) => !seen.has(c.ruleId + c.check) && seen.add(c.ruleId + c.check)),
    cleanup: {
      created: reports.reduce((n, r) => n + r.cleanup.created, 0),
      removed: reports.reduce((n, r) => n + r.cleanup.removed, 0),
      leftovers: reports.flatMap((r) => r.cleanup.leftovers),
    },
    ...(reports.every((r) => r.recorded) ? { recorded: true } : {}),
    interrupted: reports.some((r) => r.interrupted),
    pacing: { pauses: reports.reduce((n, r) => n + r.pacing.pauses, 0), seconds: reports.reduce((n, r) => n + r.pacing.seconds, 0) },
    variables: reports.flatMap((r) => r.variables ?? []).filter((v, i, all) => all.findIndex((w) => w.name === v.name) === i),
    exploration: mergeExploration(reports.flatMap((r) => (r.exploration ? [r.exploration] : []))),
    ruleCoverage: mergedRuleCoverage(reports.map((r) => r.ruleCoverage)),
    ...(reports.some((r) => r.timings?.length) && { timings: reports.flatMap((r) => r.timings ?? []) }),
    ...mergeStopped(reports),
    ...(first.rerun ? { rerun: first.rerun } : {}),
  };
}

/** The coverage of the merged rule checks' results (explored results aside, as in a run), from the register. */
function coverageOf(merged: CheckResult[], profile: RunReport['profile']) {
  const results = merged.filter((r) => !r.explored);
  const names = new Set(results.map((r) => r.name));
  const selected = allChecks.filter((c) => names.has(c.name));
  return coverage({ register: Register.load(), contract: new Contract(), checks: allChecks, responseChecks, selected, results, profile });
}

/** Shards cut short (--max-time, a silent target): the merged run was too, with their counts summed. */
function mergeStopped(reports: RunReport[]): Pick<RunReport, 'stopped'> {
  const cut = reports.flatMap((r) => (r.stopped ? [r.stopped] : []));
  if (!cut.length) return {};
  return {
    stopped: {
      why: [...new Set(cut.map((c) => c.why))].join('; '),
      maxSeconds: Math.max(...cut.map((c) => c.maxSeconds)),
      notRun: cut.reduce((n, c) => n + c.notRun, 0),
      cutShort: cut.reduce((n, c) => n + c.cutShort, 0),
      explorationCut: cut.some((c) => c.explorationCut),
    },
  };
}
