// The proxy's judge: conformance's one judge of an exchange (conformance/judge/traffic.ts), built once from the
// bundled contract and the rule register for a profile. No rule is restated here.
import { Contract } from '../../conformance/contract.ts';
import { judgeTraffic, trafficJudge, type RecordedExchange, type TrafficViolation } from '../../conformance/judge/traffic.ts';
import { Register } from '../../conformance/register.ts';
import type { Profile } from '../../conformance/schemas.ts';

export type { Profile };

export function createJudge(profile: Profile): (exchange: RecordedExchange) => TrafficViolation[] {
  const contract = new Contract();
  const judge = trafficJudge(contract, Register.load(), profile);
  return (exchange) => judgeTraffic(exchange, judge).violations;
}
