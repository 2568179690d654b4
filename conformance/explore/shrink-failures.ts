// The first failing case of every check and operation, made small and confirmed: shrunk within shrinking's share of
// the requests, sent once more to fail the same way again, and reported with its curl lines and the replay id that
// sends it again.
import type { Http } from '../target/http.ts';
import { toCurl } from '../report/curl.ts';
import type { Failure } from '../run/model.ts';
import type { Case } from './case.ts';
import type { CaseRun } from './execute.ts';
import type { Found } from './judge-run.ts';
import { formatReplayId, type ReplayId } from './replay-id.ts';
import type { CaseJudge, CaseSender } from './send-cases.ts';
import { shrink, type BodyGuard } from './shrink.ts';
import type { FirstFailure, Tally } from './tally.ts';

/** Candidates one failure's shrinking may try. */
const SHRINK_ATTEMPTS = 40;
/** Requests shrinking may make in all, at least (half the budget when that is more). */
const MIN_SHRINK_REQUESTS = 200;

export interface ShrinkEnv {
  settings: { seed: number; budget: number; replay?: ReplayId };
  sender: CaseSender;
  judge: CaseJudge;
  guard: BodyGuard;
  http: Http;
  signal?: AbortSignal;
}

/** What a run of a case showed of one failure: the run, unless the failure is kept as first found without it. */
interface Seen {
  run?: CaseRun;
  found: Found;
}

/** The failure of each check and operation that failed, by its key. */
export async function shrinkFailures({ firstOf, alike }: Pick<Tally, 'firstOf' | 'alike'>, env: ShrinkEnv): Promise<Map<string, Failure>> {
  const { settings, sender, judge } = env;
  const generated = sender.requests;
  const shrinkCap = Math.max(Math.floor(settings.budget / 2), MIN_SHRINK_REQUESTS);
  /** Sends a case and returns what it found; `capped` sends nothing once shrinking has spent its share. */
  const attempt = async (cand: Case, capped: boolean): Promise<{ run: CaseRun; found: Found[] } | undefined> => {
    if (capped && sender.requests - generated >= shrinkCap) return undefined;
    const run = await sender.send(cand).catch(() => undefined);
    return run && { run, found: judge(cand, run).found };
  };
  const failures = new Map<string, Failure>();
  const record = (key: string, c: Case, shrinks: number[], seen: Seen, steps: number, rechecked: boolean) =>
    failures.set(key, failureOf(c, shrinks, seen, { steps, rechecked, alike: alike.get(key) ?? 0 }, settings));
  for (const group of groupsOf(firstOf)) {
    // A run stopped (Ctrl-C, --max-time, a silent target) keeps each failure as first found, neither shrunk nor re-checked.
    if (env.signal?.aborted || env.http.silence) {
      for (const m of group) record(m.key, m.c, [], { run: m.run, found: m.found }, m.c.steps.length, false);
      continue;
    }
    const { key, c } = group[0]!;
    const stillFails = async (cand: Case) => !!(await attempt(cand, true))?.found.some((x) => x.key === key);
    const { shrunk, shrinks } = settings.replay
      ? { shrunk: c, shrinks: [] as number[] }
      : await shrink(c, stillFails, env.guard, SHRINK_ATTEMPTS);
    // Re-checked: the shrunk case is sent once more and must fail the same way again (each check of the group); one
    // it no longer shows is re-checked on the case as generated.
    const again = await attempt(shrunk, false);
    for (const m of group) {
      const f = again?.found.find((x) => x.key === m.key);
      if (f) {
        record(m.key, c, shrinks, { run: again!.run, found: f }, shrunk.steps.length, true);
        continue;
      }
      const whole = shrunk === c ? again : await attempt(c, false);
      const g = whole?.found.find((x) => x.key === m.key);
      record(m.key, c, [], g ? { run: whole!.run, found: g } : { found: m.found }, c.steps.length, !!g);
    }
  }
  return failures;
}

/**
 * Failures of one request (several checks on the same answer) are shrunk once, for the first of them; the smaller
 * cases first, so a budget spent on a long sequence never leaves a one-request failure unshrunk.
 */
function groupsOf(firstOf: Map<string, FirstFailure>): Array<Array<FirstFailure & { key: string }>> {
  const groups = new Map<string, Array<FirstFailure & { key: string }>>();
  for (const [key, v] of firstOf)
    groups.set(`${v.c.index}:${v.found.step}`, [...(groups.get(`${v.c.index}:${v.found.step}`) ?? []), { key, ...v }]);
  return [...groups.values()].sort((x, y) => x[0]!.c.steps.length - y[0]!.c.steps.length || x[0]!.c.index - y[0]!.c.index);
}

/** The failure as reported: what the case found, its curl lines, and the replay id of the case as shrunk by `shrinks`. */
function failureOf(
  c: Case,
  shrinks: number[],
  seen: Seen,
  how: { steps: number; rechecked: boolean; alike: number },
  settings: ShrinkEnv['settings'],
): Failure {
  const id = formatReplayId({
    seed: settings.replay?.seed ?? settings.seed,
    index: c.index,
    shrinks: [...(settings.replay?.shrinks ?? []), ...shrinks],
  });
  return {
    ruleId: seen.found.ruleId,
    message: `${c.label} (${c.kind} case; replay: --explore --replay ${id})`,
    expected: seen.found.expected,
    actual: seen.found.actual,
    curl:
      seen.run &&
      [...seen.run.exchanges, ...(seen.run.unanswered?.request ? [{ request: seen.run.unanswered.request }] : [])]
        .map((e) => toCurl(e.request))
        .join('\n'),
    operation: seen.found.operation,
    status: seen.run?.exchanges[seen.found.step]?.response.status,
    explored: {
      replay: id,
      kind: c.kind,
      label: c.label,
      steps: how.steps,
      generatedSteps: c.steps.length,
      rechecked: how.rechecked,
      alike: how.alike,
    },
  };
}
