// The one judge of a single exchange (request + response) against the contract and every documented rule one
// exchange can show. Its callers keep no copy of any rule: the suite's runner (every exchange its checks make),
// --explore (generated exchanges), and traffic made by others (the mock's --upstream proxy, --har files).
import { responseChecks } from './checks/index.ts';
import type { Finding, InspectEnv, InspectedExchange, ResponseCheckDef } from './define.ts';

export interface Violation extends Finding {
  /** The response check's name, as reports show it. */
  check: string;
  ruleId: string;
}

/**
 * Every violation the response checks find on one exchange. A check that throws on an answer it cannot read is a
 * finding of that check, never a crash of the caller.
 */
export function judgeExchange<E extends InspectEnv = InspectEnv>(
  ex: InspectedExchange,
  env: E,
  checks: ReadonlyArray<
    Pick<ResponseCheckDef, 'name' | 'rule'> & { inspect(ex: InspectedExchange, env: E): Finding | Finding[] | undefined }
  > = responseChecks,
): Violation[] {
  const found: Violation[] = [];
  for (const rc of checks) {
    let f: Finding | Finding[] | undefined;
    try {
      f = rc.inspect(ex, env);
    } catch (err) {
      f = { expected: 'a response the check can read', actual: `${(err as Error).name}: ${(err as Error).message}` };
    }
    // A check judging several rules names each finding's own (Finding.ruleId); one rule's check, its declared rule.
    for (const one of Array.isArray(f) ? f : f ? [f] : []) found.push({ check: rc.name, ...one, ruleId: one.ruleId ?? rc.rule });
  }
  return found;
}
