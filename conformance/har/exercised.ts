// Which documented rules recorded traffic exercised, for the --har report's rule coverage: the rule of every result
// that judged an exchange, and the rules a success body's schema findings would be put under (judged-rules.ts) whose
// nodes that body's schema reaches.
import type { InspectedExchange } from '../../judge/define.ts';
import { successBodySchema } from '../../judge/responses.ts';
import type { CheckResult } from '../run/model.ts';
import { rulesTheJudgeNames } from '../../judge/judged-rules.ts';
import type { TrafficJudge, Verdict } from '../../judge/traffic.ts';
import { reachableSchemas } from '../../spec/runtime/schema-reach.ts';

const SCHEMA_CHECK = 'response_schema_conformance';

export function exercisedRules(verdicts: readonly Verdict[], judge: TrafficJudge, results: readonly CheckResult[]): Set<string> {
  const out = new Set(results.filter((r) => r.assertions > 0 && r.outcome !== 'skipped').map((r) => r.ruleId));
  const bySchema = [...rulesTheJudgeNames(judge.contract, judge.register)]
    .filter(([, checks]) => checks.includes(SCHEMA_CHECK))
    .map(([id]) => judge.register.resolve(id));
  const reach = new Map<string, Set<string>>();
  for (const v of verdicts) {
    if (!v.exchange.operation || !v.judged.includes(SCHEMA_CHECK)) continue;
    const body = successBodySchema(v.exchange as InspectedExchange);
    if (!body || 'finding' in body) continue;
    if (!reach.has(body.pointer)) reach.set(body.pointer, reachableSchemas(judge.contract, [body.pointer]));
    const nodes = reach.get(body.pointer)!;
    for (const rule of bySchema) if (rule.spec.some((p) => nodes.has(p))) out.add(rule.id);
  }
  return out;
}
