// Judging one run of a case: every exchange by the one judge (judgeExchange: the response checks of the profile) and
// each step by the exploration check of its intent; a step the target never answered fails that check. Each finding
// and each check reached is keyed by check and operation, as results are.
import type { Contract, Operation } from '../../spec/runtime/contract.ts';
import type { Exchange } from '../../judge/define.ts';
import { responseChecks } from '../../judge/checks/index.ts';
import { judgeExchange } from '../../judge/exchange.ts';
import type { Register } from '../../spec/runtime/register.ts';
import type { Profile, SchemaValidator } from '../../spec/runtime/schemas.ts';
import type { Case } from './case.ts';
import { exploreChecks } from './checks.ts';
import type { CaseRun } from './execute.ts';

export interface Found {
  key: string;
  check: string;
  ruleId: string;
  operation: string;
  step: number;
  expected: string;
  actual: string;
}

/** A check that judged a step of the case, on the step's operation. */
export interface Reach {
  key: string;
  check: string;
  ruleId: string;
  operation: string;
}

export interface JudgeEnv {
  contract: Contract;
  register: Register;
  schemas: SchemaValidator;
  profile: Profile;
}

/** One check on one operation: what a result, a first failure and a shrinking are kept by. */
const keyOf = (check: string, operation: string) => `${check}\u0000${operation}`;
const labelOf = (op: Operation) => `${op.method} ${op.template}`;

export function caseJudge(env: JudgeEnv): (c: Case, run: CaseRun) => { found: Found[]; reached: Reach[] } {
  // The documented profile runs documented rules only, the response checks' and the exploration checks' alike.
  const runs = env.profile === 'all' ? () => true : (rule: string) => env.register.resolve(rule).provenance !== 'assumed';
  const active = responseChecks.filter((rc) => runs(rc.rule));
  const judgeEnv = { contract: env.contract, schemas: env.schemas, profile: env.profile };

  return (c, run) => {
    const found: Found[] = [];
    const reached: Reach[] = [];
    const intentCheck = (
      i: number,
      op: Operation,
      judge: (xc: (typeof exploreChecks)[number]) => Omit<Found, keyof Reach | 'step'> | undefined,
    ) => {
      const xc = exploreChecks.find((x) => x.intent === c.steps[i]!.intent);
      const ruleId = xc?.rule(op, env.register);
      if (!xc || !ruleId || !runs(ruleId)) return;
      const at = { key: keyOf(xc.name, labelOf(op)), check: xc.name, ruleId, operation: labelOf(op) };
      reached.push(at);
      const f = judge(xc);
      if (f) found.push({ ...at, step: i, ...f });
    };
    // Once a resource is found gone after another organization's delete, the steps after it (its owner's update, read
    // and delete) fail for that one defect: they are not judged, so it reads as one failing rule.
    let gone = false;
    run.exchanges.forEach((ex: Exchange, i) => {
      const op = ex.operation;
      if (!op || gone) return; // every step is an operation of the contract: its exchange always matches one
      for (const rc of active) reached.push({ key: keyOf(rc.name, labelOf(op)), check: rc.name, ruleId: rc.rule, operation: labelOf(op) });
      for (const v of judgeExchange({ ...ex, operation: op }, judgeEnv, active))
        found.push({
          key: keyOf(v.check, labelOf(op)),
          check: v.check,
          ruleId: v.ruleId,
          operation: labelOf(op),
          step: i,
          expected: v.expected,
          actual: v.actual,
        });
      const before = found.length;
      intentCheck(i, op, (xc) => xc.judge({ step: c.steps[i]!, ex, earlier: run.exchanges.slice(0, i), profile: env.profile }));
      gone = c.steps[i]!.intent === 'intact' && found.length > before;
    });
    const u = run.unanswered;
    if (u) intentCheck(u.step, env.contract.byId(c.steps[u.step]!.op), () => ({ expected: 'an answer', actual: u.what }));
    return { found, reached };
  };
}
