// The response checks over a whole run: every exchange a check sends is judged as it happens (judgeExchange), its
// findings attributed to the response check that made them; once the checks are done, one result per response check.
import type { Exchange } from '../../judge/define.ts';
import { judgeExchange } from '../../judge/exchange.ts';
import { ASSUMED_SKIP, skippedAsAssumed } from '../../judge/profile.ts';
import { responseChecks } from '../../judge/checks/index.ts';
import type { Contract } from '../../spec/runtime/contract.ts';
import type { Register } from '../../spec/runtime/register.ts';
import type { Profile, SchemaValidator } from '../../spec/runtime/schemas.ts';
import { evidenceOf } from '../report/causes.ts';
import { toCurl } from '../report/curl.ts';
import { EXPLORE_SENDER } from '../explore/execute.ts';
import { areaOf, type CheckResult, type Failure } from './model.ts';

export class ResponseFindings {
  private readonly findings = new Map<string, Failure[]>(responseChecks.map((c) => [c.name, []]));
  private inspected = 0;

  constructor(
    private readonly contract: Contract,
    private readonly schemas: SchemaValidator,
    private readonly profile: Profile,
  ) {}

  judge(ex: Exchange): void {
    // Exploration judges its own exchanges with the same judge, per operation and with its shrunk cases.
    if (!ex.operation || ex.check === EXPLORE_SENDER) return;
    this.inspected++;
    for (const v of judgeExchange(ex as Exchange & { operation: NonNullable<Exchange['operation']> }, {
      contract: this.contract,
      schemas: this.schemas,
      profile: this.profile,
    }))
      this.findings.get(v.check)!.push({
        ruleId: v.ruleId,
        message: `${ex.request.method} ${ex.request.path} (sent by ${ex.check})`,
        expected: v.expected,
        actual: v.actual,
        curl: toCurl(ex.request),
        ...evidenceOf(ex),
      });
  }

  /** One result each, over every exchange of the run, in the response checks' order. */
  results(register: Register): CheckResult[] {
    const inspected = this.inspected;
    return responseChecks.map((rc): CheckResult => {
      const rule = register.resolve(rc.rule);
      const base = { name: rc.name, area: areaOf(rc.rule), ruleId: rc.rule, rule: rule.rule, provenance: rule.provenance, ms: 0 };
      if (skippedAsAssumed(rule.provenance, this.profile))
        return { ...base, outcome: 'skipped', reason: ASSUMED_SKIP, failures: [], assertions: 0 };
      const failures = this.findings.get(rc.name)!;
      return {
        ...base,
        outcome: failures.length ? 'failed' : inspected ? 'passed' : 'skipped',
        reason: inspected ? undefined : 'no responses to inspect',
        failures: failures.slice(0, 50),
        assertions: inspected,
      };
    });
  }
}
