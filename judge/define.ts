// What the judge of one exchange reads and says: the exchange (a request sent and the answer it got, from the suite's
// own client or recorded by others), the environment a check judges it in, a finding, and how a response check is
// declared. The suite's client (conformance/target/http.ts) and every recorder of traffic produce this one shape.
import type { Contract, Operation } from '../spec/runtime/contract.ts';
import type { Profile, SchemaValidator } from '../spec/runtime/schemas.ts';
import type { RuleIndex } from './rule-index.ts';

export interface SentRequest {
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  keyVar?: string;
  keyRole?: string;
  bodyText?: string;
  /** A multipart body's form: its text fields and file part (type '' when not given; its size and first characters where kept). */
  form?: { fields: Record<string, string>; file?: { name: string; type: string; bytes?: number; head?: string } };
}

export interface ReceivedResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  json?: unknown;
  mediaType: string;
}

export interface Exchange {
  seq: number;
  check: string;
  operation?: Operation;
  request: SentRequest;
  response: ReceivedResponse;
  ms: number;
}

/** What a response check is handed: an exchange whose operation the spec knows. */
export type InspectedExchange = Exchange & { operation: Operation };
export interface InspectEnv {
  contract: Contract;
  schemas: SchemaValidator;
  profile: Profile;
  /** The documented rule of each part of an answer, where the caller knows it (the judge of traffic): findings name it. */
  rules?: RuleIndex;
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
