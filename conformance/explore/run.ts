// Exploration against one target: the plan's cases (this shard's share) sent with a few in flight, every exchange
// judged by the one judge (judgeExchange: the response checks) and each judged step by the exploration check of its
// intent; the first failing case of every check and operation is shrunk, re-checked, and reported with its curl lines
// and replay id. Results are one per check and operation reached, so reports show what was explored. The steps:
// send the cases (send-cases.ts), tally them in plan order (tally.ts), shrink the failures (shrink-failures.ts).
import type { Contract } from '../../spec/runtime/contract.ts';
import { BodyGenerator } from '../data/datagen.ts';
import type { Http } from '../target/http.ts';
import type { Register } from '../../spec/runtime/register.ts';
import type { Profile, SchemaValidator } from '../../spec/runtime/schemas.ts';
import { areaOf, type CheckResult, type ExplorationSummary, type Failure, type Keys } from '../run/model.ts';
import { concrete, type Case } from './case.ts';
import { caseJudge } from './judge-run.ts';
import { Plan } from './plan.ts';
import { formatReplayId, type ReplayId } from './replay-id.ts';
import { CaseSender, sendCases } from './send-cases.ts';
import { shrinkFailures } from './shrink-failures.ts';
import { applyShrinks, type BodyGuard } from './shrink.ts';
import type { Shard } from './shard.ts';
import { tally, type Tally } from './tally.ts';

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

export async function explore(
  env: ExploreEnv,
  settings: ExploreSettings,
): Promise<{ results: CheckResult[]; summary: ExplorationSummary }> {
  const started = performance.now();
  const plan = new Plan(env.contract, env.profile, !!env.keys.otherOrg);
  const sender = new CaseSender(env);
  const judge = caseJudge(env);
  const guard = bodyGuard(env.contract);
  const cases = settings.replay
    ? replayCase(plan, settings.replay, guard)
    : plan
        .cases(settings.seed, settings.budget, (c) => !env.readOnly || c.steps.every((st) => env.contract.byId(st.op).method === 'GET'))
        .filter((c) => inShard(c.index, settings.shard));
  const sent = await sendCases(cases, sender, judge, { ...env, started });
  const tallied = tally(sent.outcomes);
  const generated = sender.requests;
  const failures = await shrinkFailures(tallied, { settings, sender, judge, guard, http: env.http, signal: env.signal });
  const results = resultsOf(tallied, failures, env.register);
  const summary: ExplorationSummary = {
    seed: settings.replay?.seed ?? settings.seed,
    budget: settings.budget,
    cases: sent.outcomes.filter(Boolean).length,
    requests: generated,
    shrinkRequests: sender.requests - generated,
    incomplete: tallied.incomplete,
    errors: [...sent.errors].map(([message, n]) => (n > 1 ? `${message} (${n} cases)` : message)).slice(0, 5),
    seconds: (performance.now() - started) / 1000,
    firstFailureMs: sent.firstFailureMs,
    kinds: tallied.kinds,
  };
  return { results, summary };
}

/** A request body a step may send: valid for its operation, or for a step that must be rejected, not valid. */
function bodyGuard(contract: Contract): BodyGuard {
  const bodies = new BodyGenerator(contract);
  return (step, body) => {
    const op = contract.byId(step.op);
    if (!op.jsonBodyPointer) return true;
    const ok = bodies.isValid(op.jsonBodyPointer, concrete(body));
    return step.intent === 'reject' ? !ok : ok;
  };
}

/** One result per check and operation reached: failed with its (shrunk) failure, or passed, over the cases reaching it. */
function resultsOf({ matrix, firstOf }: Tally, failures: Map<string, Failure>, register: Register): CheckResult[] {
  return [...matrix.entries()].map(([key, m]) => {
    const rule = register.resolve(m.ruleId);
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
