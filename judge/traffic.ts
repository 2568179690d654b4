// Judging traffic made by others, one exchange at a time: a request and its answer as recorded (by the mock's
// --upstream proxy, in a HAR file) become the suite's Exchange, and the one judge runs on them: the request checks
// (the client's bugs), the response checks of every suite run (checks/, judgeExchange) and the answer checks. The profile
// picks the rules as in a suite run: documented ones only, or with --profile all the kit's assumptions too.
import type { Contract } from '../spec/runtime/contract.ts';
import type { Exchange, SentRequest } from './define.ts';
import { parseMultipart } from './multipart.ts';
import type { Register } from '../spec/runtime/register.ts';
import { SchemaValidator, type Profile } from '../spec/runtime/schemas.ts';
import { responseChecks } from './checks/index.ts';
import type { ExchangePart, InspectedExchange, ResponseCheckDef } from './define.ts';
import { documented } from './responses.ts';
import { answerChecks } from './answers.ts';
import { documentedChecks, type DocumentedCheckDef } from './documented.ts';
import { refusalChecks, type RefusalCheckDef } from './refusals.ts';
import { ownerChecks, type OwnerCheckDef } from './error-owners.ts';
import { uploadChecks } from './upload.ts';
import { judgeExchange } from './exchange.ts';
import { RuleIndex } from './rule-index.ts';
import { skippedAsAssumed } from './profile.ts';
import { mediaTypeOf, pathOf, requestChecks, type RequestCheckDef } from './request.ts';

/**
 * One exchange as a recorder kept it. Header names in any case; bodies as text. A part left undefined was not
 * recorded (a journal entry of the default mode keeps no headers): the checks that read it do not judge the exchange.
 */
export interface RecordedExchange {
  method: string;
  /** The request URL (absolute, or a path with its query). */
  url: string;
  requestHeaders?: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  /** The body's media type as the recorder noted it beside the body (HAR's content.mimeType), read when no headers were kept. */
  responseMimeType?: string;
  /** A multipart request's form as the recorder kept it (HAR's postData.params); else read from the body and its type. */
  requestForm?: SentRequest['form'];
  /** The request body's size in bytes as sent, when the recorder kept it (the file's size of an upload kept as text). */
  requestBytes?: number;
}

export interface TrafficViolation {
  /** `request`: the client sent what the contract forbids; `response`: the server answered outside it. */
  side: 'request' | 'response';
  check: string;
  ruleId: string;
  /** The rule's sentence, from the register. */
  rule: string;
  expected: string;
  actual: string;
  /** Where in the exchange (`response.body/data/0/id`, `request.headers.content-type`). */
  where: string;
}

type TrafficResponseCheck = ResponseCheckDef | DocumentedCheckDef | RefusalCheckDef | OwnerCheckDef;

export interface TrafficJudge {
  contract: Contract;
  schemas: SchemaValidator;
  /** The contract's schemas unrelaxed (request checks: RequestEnv). */
  exact: SchemaValidator;
  register: Register;
  profile: Profile;
  request: RequestCheckDef[];
  response: TrafficResponseCheck[];
  rules: RuleIndex;
}

/**
 * Every check the judge of traffic has, before a profile picks: the request checks, the suite's response checks (its
 * schema check superseded by the judge's, which names the rule owning each finding), the answer checks and the
 * checks of documented statuses.
 */
export const trafficChecks = {
  request: requestChecks,
  response: [
    ...responseChecks.filter((c) => !documentedChecks.some((d) => d.name === c.name)),
    ...answerChecks,
    ...documentedChecks,
    ...refusalChecks,
    ...ownerChecks,
    ...uploadChecks,
  ] as TrafficResponseCheck[],
};

/** The checks a profile runs: every one of a documented rule; with `all`, the assumed ones too (as the suite skips them). */
export function trafficJudge(contract: Contract, register: Register, profile: Profile): TrafficJudge {
  const runs = (c: { rule: string }) => !skippedAsAssumed(register.resolve(c.rule).provenance, profile);
  const exact = new SchemaValidator(contract.doc, 'all');
  return {
    contract,
    schemas: profile === 'all' ? exact : new SchemaValidator(contract.doc, profile),
    exact,
    register,
    profile,
    request: trafficChecks.request.filter(runs),
    response: trafficChecks.response.filter(runs),
    rules: new RuleIndex(contract, register),
  };
}

const lower = (h: Record<string, string> = {}) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/** The path of `url` under the contract's base path (`/ext-api/v1/patients?x` → `/patients`); the whole path when it has none. */
export function apiPath(url: string, basePath: string): string {
  const { pathname } = new URL(url, 'http://judge.invalid');
  const at = basePath ? pathname.indexOf(`${basePath}/`) : -1;
  return at >= 0 ? pathname.slice(at + basePath.length) : pathname;
}

/** The recorded exchange as the suite's Exchange, with the operation it hits (undefined: not an operation of the contract). */
function toExchange(rec: RecordedExchange, contract: Contract, seq = 0): Exchange {
  const path = apiPath(rec.url, contract.basePath());
  const headers = lower(rec.responseHeaders);
  const mediaType = mediaTypeOf(headers['content-type'] ?? rec.responseMimeType);
  const text = rec.responseBody ?? '';
  const requestHeaders = lower(rec.requestHeaders);
  const form =
    rec.requestForm ?? (rec.requestBody ? parseMultipart(requestHeaders['content-type'], rec.requestBody, rec.requestBytes) : undefined);
  let json: unknown;
  // JSON.parse, not the suite's parseJson: a patient id sent as a big number must reach the schema as a number (GEN-008);
  // nothing here reuses an id in a later request, so its lost digits do not matter.
  if ((mediaType === 'application/json' || mediaType.endsWith('+json')) && text)
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  return {
    seq,
    check: 'recorded traffic',
    operation: contract.match(rec.method, path),
    request: {
      method: rec.method.toUpperCase(),
      url: rec.url,
      path,
      headers: requestHeaders,
      bodyText: rec.requestBody,
      ...(form ? { form } : {}),
    },
    response: { status: rec.status, headers, text, json, mediaType },
    ms: 0,
  };
}

/** Where a finding points: the check's own `where`, else the instance path its first schema error names. */
const whereOf = (side: 'request' | 'response', f: { where?: string; actual: string }) => f.where ?? `${side}.body${pathOf(f.actual)}`;

/** The parts of the exchange the recorder kept (a request body absent is one not sent). */
function recordedParts(rec: RecordedExchange): Set<ExchangePart> {
  const parts = new Set<ExchangePart>(['request.body']);
  if (rec.requestHeaders) parts.add('request.headers');
  if (rec.responseHeaders) parts.add('response.headers');
  if (rec.responseBody !== undefined) parts.add('response.body');
  return parts;
}

export interface Verdict {
  exchange: Exchange;
  /** The checks that judged it (those whose parts were recorded); none outside the contract's operations. */
  judged: string[];
  violations: TrafficViolation[];
  /** Why its status was not judged: the contract gives the operation no such status (shown, never as passing). */
  unlisted?: string;
}

/** A status the contract lists for no response of the operation (not even as a range or a default). */
function unlistedStatus(ex: Exchange): string | undefined {
  const op = ex.operation;
  const s = ex.response.status;
  if (!op || documented(op, s)) return undefined;
  return `${s} is not a status of ${op.method} ${op.template} in the contract`;
}

/** Every violation of one recorded exchange; none for a request outside the contract's operations (nothing to judge it by). */
export function judgeTraffic(rec: RecordedExchange, judge: TrafficJudge, seq = 0): Verdict {
  const ex = toExchange(rec, judge.contract, seq);
  if (!ex.operation) return { exchange: ex, judged: [], violations: [] };
  const parts = recordedParts(rec);
  const can = <C extends { reads?: ExchangePart[] }>(c: C) => (c.reads ?? [...parts]).every((p) => parts.has(p));
  const requestChecks = judge.request.filter(can);
  const responseChecks = judge.response.filter(can);
  const inspected = ex as InspectedExchange;
  const env = { contract: judge.contract, schemas: judge.schemas, exact: judge.exact, profile: judge.profile, rules: judge.rules };
  const rule = (id: string) => judge.register.resolve(id).rule;
  const onRequest = judgeExchange(inspected, env, requestChecks).map((v) => ({ side: 'request' as const, ...v }));
  const onResponse = judgeExchange(inspected, env, responseChecks).map((v) => ({ side: 'response' as const, ...v }));
  const unlisted = unlistedStatus(ex);
  return {
    exchange: ex,
    ...(unlisted ? { unlisted } : {}),
    judged: [...requestChecks, ...responseChecks].map((c) => c.name),
    violations: [...onRequest, ...onResponse].map((v) => ({
      side: v.side,
      check: v.check,
      ruleId: v.ruleId,
      rule: rule(v.ruleId),
      expected: v.expected,
      actual: v.actual,
      where: whereOf(v.side, v),
    })),
  };
}
