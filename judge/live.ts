// The judge of live traffic, as the mock's --upstream proxy calls it: the one judge of an exchange (traffic.ts), built
// once from the bundled contract and the rule register for a profile. No rule is restated here.
import { Contract } from '../spec/runtime/contract.ts';
import { Register } from '../spec/runtime/register.ts';
import type { Profile } from '../spec/runtime/schemas.ts';
import { judgeTraffic, trafficJudge, type RecordedExchange, type TrafficViolation } from './traffic.ts';

export type { Profile };

/** What the judge made of one exchange: its violations, or, when no operation of the contract matches it, why not judged. */
export interface Judged {
  violations: TrafficViolation[];
  notJudged?: string;
}

export function createJudge(profile: Profile): (exchange: RecordedExchange) => Judged {
  const contract = new Contract();
  const judge = trafficJudge(contract, Register.load(), profile);
  return (exchange) => {
    const verdict = judgeTraffic(exchange, judge);
    // A status the contract does not give is shown as such (the journal's not_judged), never as passing.
    if (verdict.exchange.operation)
      return {
        violations: verdict.violations,
        ...(verdict.unlisted ? { notJudged: `status not in the contract: ${verdict.unlisted}` } : {}),
      };
    return { violations: [], notJudged: `no operation of the contract is ${exchange.method} ${verdict.exchange.request.path}` };
  };
}
