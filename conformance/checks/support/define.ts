// How a check file declares its checks: a named top-level function and its rule. The name in every report is the
// function's name and the area is the rule id's prefix, so neither is ever written twice.
import type { Contract, Operation } from '../../contract.ts';
import type { Exchange } from '../../http.ts';
import type { Profile, SchemaValidator } from '../../schemas.ts';
import { areaOf, type CheckContext, type CheckDef } from '../../model.ts';

export type CheckMeta = Omit<CheckDef, 'name' | 'area' | 'run'>;

export function check(run: (ctx: CheckContext) => Promise<void>, meta: CheckMeta): CheckDef {
  return { ...meta, name: run.name, area: areaOf(meta.rule), run };
}

/** What a response check is handed: an exchange whose operation the spec knows. */
export type InspectedExchange = Exchange & { operation: Operation };
export interface InspectEnv {
  contract: Contract;
  schemas: SchemaValidator;
  profile: Profile;
}

export interface Finding {
  expected: string;
  actual: string;
  /** Where in the exchange the finding is (`response.body/data/0/id`), when the check can tell. */
  where?: string;
  /** The rule the finding breaks, when a check judges several (the judge's success statuses, field rules); else the check's. */
  ruleId?: string;
}

export type ExchangePart = 'request.headers' | 'request.body' | 'response.headers' | 'response.body';

/** A check applied to every response the suite receives, whatever check caused it (Schemathesis' response checks). */
export interface ResponseCheckDef {
  name: string;
  rule: string;
  /** Further rules the check exercises on every response (reported as covered by it). */
  covers?: string[];
  /**
   * What of the exchange the check reads besides the method, path, query and status (undefined: all of it). A recorded
   * exchange that lacks a part (a HAR without headers, a body not kept) is not judged by the checks that read it.
   */
  reads?: ExchangePart[];
  inspect(ex: InspectedExchange, env: InspectEnv): Finding | undefined;
}

export function responseCheck(inspect: ResponseCheckDef['inspect'], meta: Omit<ResponseCheckDef, 'name' | 'inspect'>): ResponseCheckDef {
  return { ...meta, name: inspect.name, inspect };
}
