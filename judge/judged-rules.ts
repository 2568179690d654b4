// Which documented rules the judge of one exchange can name, and by which check: a check's own rule, its `covers`,
// the rules it names per operation (`judges`: a stated success status, a lookup's 404), and the rules a schema finding
// is put under (rule-index.ts: the most specific rule owning a node of a success body, or the rule saying a field is
// absent there). What the register calls an `exchange` rule should be among them (judged-rules.test.ts); the --har
// report's coverage counts them.
import type { Contract } from '../spec/runtime/contract.ts';
import type { Register } from '../spec/runtime/register.ts';
import { schemaCoverages } from '../spec/runtime/schema-reach.ts';
import { RuleIndex } from './rule-index.ts';
import { trafficChecks } from './traffic.ts';

const SCHEMA_CHECK = 'response_schema_conformance';

/** Rule id → the checks of the judge of traffic that can name it. */
export function rulesTheJudgeNames(contract: Contract, register: Register): Map<string, string[]> {
  const index = new RuleIndex(contract, register);
  const out = new Map<string, string[]>();
  const name = (rule: string, check: string) => out.set(rule, [...new Set([...(out.get(rule) ?? []), check])]);
  for (const c of [...trafficChecks.request, ...trafficChecks.response]) {
    name(c.rule, c.name);
    for (const r of 'covers' in c ? (c.covers ?? []) : []) name(r, c.name);
    for (const r of 'judges' in c && c.judges ? c.judges(contract, index) : []) name(r, c.name);
  }
  const success = schemaCoverages(contract, []).find((s) => s.check === SCHEMA_CHECK)!.reachable;
  for (const rule of register.rules) {
    if (rule.provenance !== 'documented') continue;
    for (const p of rule.spec) {
      if (!success.has(p)) continue;
      const field = /\/properties\/([^/]+)$/.exec(p)?.[1];
      const owner = index.ownerOf([p])?.id;
      // A field rule pointing at the field here and at an object elsewhere: the absence there is its finding too.
      const absent = rule.spec.some((q) => q !== p && success.has(q) && field && index.absenceOwner([q], field)?.id === rule.id);
      if (owner === rule.id || absent) name(rule.id, SCHEMA_CHECK);
    }
  }
  return out;
}
