// Exploration against one target: the plan's cases (this shard's share) sent with a few in flight, every exchange
// judged by the one judge (judgeExchange: the response checks) and each judged step by the exploration check of its
// intent; the first failing case of every check and operation is shrunk, re-checked, and reported with its curl lines
// and replay id. Results are one per check and operation reached, so reports show what was explored.
import type { Contract } from '../../spec/runtime/contract.ts';
import { BodyGenerator } from '../data/datagen.ts';
import { toCurl } from '../report/curl.ts';
import type { Http } from '../target/http.ts';
import type { Register } from '../../spec/runtime/register.ts';
import type { Profile, SchemaValidator } from '../../spec/runtime/schemas.ts';
import { areaOf, type CheckResult, type ExplorationSummary, type Failure, type Keys } from '../run/model.ts';
import { concrete, type Case } from './case.ts';
import { runCase, type CaseRun } from './execute.ts';
import { caseJudge, type Found, type Reach } from './judge-run.ts';
import { Plan } from './plan.ts';
import { formatReplayId, type ReplayId } from './replay-id.ts';
import { applyShrinks, shrink, type BodyGuard } from './shrink.ts';
import type { Shard } from './shard.ts';

export interface ExploreEnv {
  contract: Contract;
  register: Register;
  schemas: SchemaValidator;
  profile: Profile;
  http: Http;
  keys: Keys;
  /** The run prefix: every external_id exploration sends starts with it. */
  prefix: string;
  concurrency: number;
  /** --read-only: only cases that read (no setup writes either). */
  readOnly: boolean;
  signal?: AbortSignal;
}

export interface ExploreSettings {
  seed: number;
  /** Requests the generated cases may make (shrinking and re-checks may make half as many more). */
  budget: number;
  shard?: Shard;
  /** Send this one case (as shrunk) instead of the plan. */
  replay?: ReplayId;
}

/** Candidates one failure's shrinking may try. */
const SHRINK_ATTEMPTS = 40;
/** Requests shrinking may make in all, at least (half the budget when that is more). */
const MIN_SHRINK_REQUESTS = 200;

export async function explore(
  env: ExploreEnv,
  settings: ExploreSettings,
): Promise<{ results: CheckResult[]; summary: ExplorationSummary }> {
  const started = performance.now();
  const plan = new Plan(env.contract, env.profile, !!env.keys.otherOrg);
  const bodies = new BodyGenerator(env.contract);
  let xids = 0;
  let requests = 0;
  const exec = async (c: Case): Promise<CaseRun> => {
    const run = await runCase(c, {
      http: env.http,
      contract: env.contract,
      keys: env.keys,
      signal: env.signal,
      externalId: () => `${env.prefix}x${++xids}`,
    });
    requests += run.exchanges.length;
    return run;
  };

  const judge = caseJudge(env);

  const guard: BodyGuard = (step, body) => {
    const op = env.contract.byId(step.op);
    if (!op.jsonBodyPointer) return true;
    const ok = bodies.isValid(op.jsonBodyPointer, concrete(body));
    return step.intent === 'reject' ? !ok : ok;
  };

  const matrix = new Map<string, { check: string; ruleId: string; operation: string; cases: Set<number> }>();
  const firstOf = new Map<string, { c: Case; found: Found; run: CaseRun }>();
  const alike = new Map<string, number>();
  let firstFailureMs: number | undefined;
  let incomplete = 0;
  const kinds: Record<string, number> = {};

  const cases = settings.replay
    ? replayCase(plan, settings.replay, guard)
    : plan
        .cases(settings.seed, settings.budget, (c) => !env.readOnly || c.steps.every((st) => env.contract.byId(st.op).method === 'GET'))
        .filter((c) => inShard(c.index, settings.shard));
  const outcomes: Array<{ c: Case; run: CaseRun; found: Found[]; reached: Reach[] } | undefined> = new Array(cases.length);
  const errors = new Map<string, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(env.concurrency, cases.length)) }, async () => {
      // A target that stopped answering (the client's breaker, http.ts) ends the exploration too.
      while (next < cases.length && !env.signal?.aborted && !env.http.silence) {
        const i = next++;
        const c = cases[i]!;
        const run = await exec(c).catch((e: Error) => void errors.set(e.message, (errors.get(e.message) ?? 0) + 1));
        if (!run) continue;
        const judged = judge(c, run);
        if (judged.found.length && firstFailureMs === undefined) firstFailureMs = performance.now() - started;
        outcomes[i] = { c, run, ...judged };
      }
    }),
  );
  // In plan order, whatever order the answers came in: the same seed reports the same first case of each failure.
  for (const o of outcomes) {
    if (!o) continue;
    kinds[o.c.kind] = (kinds[o.c.kind] ?? 0) + 1;
    if (o.run.ended && !o.run.unanswered) incomplete++;
    for (const r of o.reached) {
      const m = matrix.get(r.key) ?? { ...r, cases: new Set<number>() };
      m.cases.add(o.c.index);
      matrix.set(r.key, m);
    }
    for (const f of o.found) {
      if (!firstOf.has(f.key)) firstOf.set(f.key, { c: o.c, found: f, run: o.run });
      else if (firstOf.get(f.key)!.c !== o.c) alike.set(f.key, (alike.get(f.key) ?? 0) + 1);
    }
  }

  const generated = requests;
  const shrinkCap = Math.max(Math.floor(settings.budget / 2), MIN_SHRINK_REQUESTS);
  /** Sends a case and returns what it found; `capped` sends nothing once shrinking has spent its share. */
  const attempt = async (cand: Case, capped: boolean): Promise<{ run: CaseRun; found: Found[] } | undefined> => {
    if (capped && requests - generated >= shrinkCap) return undefined;
    const run = await exec(cand).catch(() => undefined);
    return run && { run, found: judge(cand, run).found };
  };
  const failures = new Map<string, Failure>();
  const record = (key: string, c: Case, shrinks: number[], seen: { run?: CaseRun; found: Found }, steps: number, rechecked: boolean) => {
    const id = formatReplayId({
      seed: settings.replay?.seed ?? settings.seed,
      index: c.index,
      shrinks: [...(settings.replay?.shrinks ?? []), ...shrinks],
    });
    failures.set(key, {
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
      explored: { replay: id, kind: c.kind, label: c.label, steps, generatedSteps: c.steps.length, rechecked, alike: alike.get(key) ?? 0 },
    });
  };
  // Failures of one request (several checks on the same answer) are shrunk once, for the first of them; the smaller
  // cases first, so a budget spent on a long sequence never leaves a one-request failure unshrunk.
  const groups = new Map<string, Array<{ key: string; c: Case; found: Found; run: CaseRun }>>();
  for (const [key, v] of firstOf)
    groups.set(`${v.c.index}:${v.found.step}`, [...(groups.get(`${v.c.index}:${v.found.step}`) ?? []), { key, ...v }]);
  const ordered = [...groups.values()].sort((x, y) => x[0]!.c.steps.length - y[0]!.c.steps.length || x[0]!.c.index - y[0]!.c.index);
  for (const group of ordered) {
    // A run stopped (Ctrl-C, --max-time, a silent target) keeps each failure as first found, neither shrunk nor re-checked.
    if (env.signal?.aborted || env.http.silence) {
      for (const m of group) record(m.key, m.c, [], { run: m.run, found: m.found }, m.c.steps.length, false);
      continue;
    }
    const { key, c } = group[0]!;
    const stillFails = async (cand: Case) => !!(await attempt(cand, true))?.found.some((x) => x.key === key);
    const { shrunk, shrinks } = settings.replay
      ? { shrunk: c, shrinks: [] as number[] }
      : await shrink(c, stillFails, guard, SHRINK_ATTEMPTS);
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

  const results: CheckResult[] = [...matrix.entries()].map(([key, m]) => {
    const rule = env.register.resolve(m.ruleId);
    const f = failures.get(key);
    return {
      name: m.check,
      area: areaOf(m.ruleId),
      ruleId: m.ruleId,
      rule: rule.rule,
      provenance: rule.provenance,
      outcome: f || firstOf.has(key) ? 'failed' : 'passed',
      failures: f ? [f] : [],
      assertions: m.cases.size,
      ms: 0,
      explored: { operation: m.operation, cases: m.cases.size },
    };
  });
  const summary: ExplorationSummary = {
    seed: settings.replay?.seed ?? settings.seed,
    budget: settings.budget,
    cases: outcomes.filter(Boolean).length,
    requests: generated,
    shrinkRequests: requests - generated,
    incomplete,
    errors: [...errors].map(([message, n]) => (n > 1 ? `${message} (${n} cases)` : message)).slice(0, 5),
    seconds: (performance.now() - started) / 1000,
    firstFailureMs,
    kinds,
  };
  return { results, summary };
}

const inShard = (index: number, shard?: Shard) => !shard || index % shard.of === shard.k - 1;

function replayCase(plan: Plan, id: ReplayId, guard: BodyGuard): Case[] {
  const c = plan.caseAt(id.seed, id.index);
  const shrunk = c && applyShrinks(c, id.shrinks, guard);
  if (!shrunk)
    throw new Error(
      `--replay ${formatReplayId(id)}: ${c ? 'its shrink steps name no candidate' : 'its plan has no case there'} with this contract, profile and keys (replay with the flags of the run that printed it)`,
    );
  return [shrunk];
}
