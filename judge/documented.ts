// The judge's checks that name the documented rule a single answer breaks, read from the register (rule-index.ts):
// a success status other than the one the document states, a lookup miss answered 200, and each schema finding of a
// success body under the rule that owns its node (a patient id as a number is GEN-008's, a list item's pronouns
// PAT-012's), the generic GEN-003 only for what no narrower rule owns.
import type { ExchangePart, Finding, InspectEnv, InspectedExchange } from './define.ts';
import type { Contract, Operation } from '../spec/runtime/contract.ts';
import { documented, successBody, successBodySchema } from './responses.ts';
import { escapeToken } from '../spec/runtime/json-pointer.ts';
import type { SchemaError, SchemaValidator } from '../spec/runtime/schemas.ts';
import type { RuleIndex } from './rule-index.ts';

/** What these checks read besides the profile's schemas: the contract unrelaxed, and the rules' index. */
interface DocumentedEnv extends InspectEnv {
  exact: SchemaValidator;
  rules: RuleIndex;
}

export interface DocumentedCheckDef {
  name: string;
  /** The rule of findings that name none; the others name their own. */
  rule: string;
  reads: ExchangePart[];
  /** The rules its findings can name, for a report's rows (none beyond `rule` when undefined). */
  judges?(contract: Contract, rules: RuleIndex): string[];
  inspect(ex: InspectedExchange, env: DocumentedEnv): Finding | Finding[] | undefined;
}

/** The rules stating a status of some operation (`pick` chooses which statuses). */
const statedRules = (pick: (status: number, op: Operation) => boolean) => (contract: Contract, rules: RuleIndex) => [
  ...new Set(contract.operations.flatMap((op) => [...rules.statedStatuses(op)].filter(([s]) => pick(s, op)).map(([, r]) => r.id))),
];

const opName = (ex: InspectedExchange) => `${ex.operation.method} ${ex.operation.template}`;
/** The document's two lookups, each bypassing pagination with a 404 on no match (External identifiers; Providers). */
const LOOKUPS = ['external_id', 'npi'];

/** A success answered with another 2xx than the one the document states for the operation (POST /patients: 201). */
function success_status(ex: InspectedExchange, { rules }: DocumentedEnv): Finding | undefined {
  const status = ex.response.status;
  if (status < 200 || status > 299) return;
  const stated = [...rules.statedStatuses(ex.operation)].filter(([s]) => s >= 200 && s <= 299);
  if (!stated.length || stated.some(([s]) => s === status)) return;
  return {
    ruleId: stated[0]![1].id,
    expected: `${stated.map(([s]) => s).join(' or ')} (the document's status for ${opName(ex)})`,
    actual: String(status),
    where: 'response.status',
  };
}

/** A lookup that matched nothing answered 200 with an empty list, where the document states 404 for the operation. */
function lookup_miss_status(ex: InspectedExchange, { rules }: DocumentedEnv): Finding | undefined {
  const q = new URL(ex.request.url, 'http://judge.invalid').searchParams;
  const body = ex.response.json as { data?: unknown } | undefined;
  const lookup = LOOKUPS.find((p) => q.get(p));
  if (ex.request.method !== 'GET' || !lookup || ex.response.status !== 200 || !Array.isArray(body?.data) || body.data.length) return;
  const rule = rules.statedStatuses(ex.operation).get(404);
  if (!rule) return;
  return {
    ruleId: rule.id,
    expected: `404 for a ${lookup} lookup with no match`,
    actual: '200 with an empty data array',
    where: 'response.status',
  };
}

/** AUTH-001: a request that carried no X-API-Key is answered 401 (a recorder that kept the request's headers shows it). */
function keyless_answered_401(ex: InspectedExchange): Finding | undefined {
  if (Object.keys(ex.request.headers).some((k) => k.toLowerCase() === 'x-api-key') || ex.response.status === 401) return;
  return { expected: '401 for a request without X-API-Key', actual: String(ex.response.status), where: 'response.status' };
}

/**
 * GEN-010, the server's side: a JSON body carrying a field its operation does not list, answered 2xx (the document: a
 * 400). Top-level fields only, read on the unrelaxed schema: an inner object's closure may be the kit's reading.
 */
function unknown_field_accepted(ex: InspectedExchange, { exact }: DocumentedEnv): Finding | undefined {
  const pointer = ex.operation.jsonBodyPointer;
  const text = ex.request.bodyText;
  if (!pointer || !text || ex.response.status < 200 || ex.response.status > 299) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return;
  }
  const unknown = exact.errors(pointer, body).filter((e) => e.keyword === 'additionalProperties' && e.instancePath === '');
  if (!unknown.length) return;
  return {
    expected: `400 for a body with a field ${opName(ex)} does not list`,
    actual: `${ex.response.status} to a body with ${unknown.map((e) => e.property).join(', ')}`,
    where: 'response.status',
  };
}

/** The id a GET by id asks for: its path's last segment, when the template ends in a path parameter. */
function askedId(ex: InspectedExchange): string | undefined {
  if (ex.request.method !== 'GET' || !/\/\{[^/}]+\}$/.test(ex.operation.template)) return undefined;
  const last = ex.request.path.split('?')[0]!.replace(/\/+$/, '').split('/').at(-1);
  try {
    return last ? decodeURIComponent(last) : undefined;
  } catch {
    return undefined;
  }
}

/** The same id written two ways a server may choose: a UUID in either case, a digit string with leading zeros. */
const sameId = (a: string, b: string) =>
  a.toLowerCase() === b.toLowerCase() || (/^\d{1,30}$/.test(a) && /^\d{1,30}$/.test(b) && BigInt(a) === BigInt(b));

/** The rule owning an operation's 200 body (PRV-008: GET /providers/{providerId} answers {data: Provider}). */
function successRule(op: Operation, rules: RuleIndex) {
  const ok = op.responses.get('200');
  return ok && rules.ownerOf(rules.chain(`${ok.pointer}/content/application~1json/schema`, ''), op);
}

/** A GET by id answered 2xx with another record than the one its path names (the answer's data.id is not the path's id). */
function answer_is_the_record_asked_for(ex: InspectedExchange, { rules }: DocumentedEnv): Finding | undefined {
  const asked = askedId(ex);
  const data = (ex.response.json as { data?: { id?: unknown } } | undefined)?.data;
  const id = data && typeof data === 'object' ? data.id : undefined;
  if (asked === undefined || ex.response.status < 200 || ex.response.status > 299) return;
  // An id of another type is GEN-008's finding (a number may have lost digits on parsing: not compared).
  if (typeof id !== 'string' || sameId(asked, id)) return;
  return {
    ruleId: successRule(ex.operation, rules)?.id,
    expected: `the record ${JSON.stringify(asked)} (the id in the path)`,
    actual: `data.id ${JSON.stringify(id)}`,
    where: 'response.body/data/id',
  };
}

/**
 * Each schema error line under the documented rule owning its node (an unknown field: the rule saying it is absent),
 * else the rule stating what the operation answers (PAT-024: a DELETE's {success: true}), else the generic GEN-003.
 */
function byRule(op: Operation, pointer: string, errors: SchemaError[], rules: RuleIndex): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of errors) {
    const chain = rules.chain(pointer, e.instancePath);
    const unknown = e.keyword === 'additionalProperties';
    const owner = unknown ? rules.absenceOwner(chain, e.property ?? '') : (rules.ownerOf(chain, op) ?? rules.operationRule(op));
    const id = owner?.id ?? 'GEN-003';
    out.set(id, [...(out.get(id) ?? []), e.line]);
  }
  return out;
}

/**
 * A success body against its documented schema (the profile's), each finding under the rule that owns it; a field the
 * document says is not there (PAT-012) is judged on the unrelaxed schema, whose closure the profile may have relaxed.
 */
function response_schema_conformance(ex: InspectedExchange, { schemas, exact, rules }: DocumentedEnv): Finding | Finding[] | undefined {
  const body = successBodySchema(ex);
  if (!body || 'finding' in body) return body?.finding;
  const { pointer } = body;
  // The unrelaxed schema first: a body valid against it is valid against the profile's, which only loosens (one
  // validation of a clean answer). Its unknown fields count only where a rule says they are absent (PAT-012).
  const strict = exact.errors(pointer, ex.response.json);
  if (!strict.length) return;
  const found = byRule(ex.operation, pointer, schemas === exact ? strict : schemas.errors(pointer, ex.response.json), rules);
  const unknown = strict.filter((e) => e.keyword === 'additionalProperties');
  for (const [id, lines] of byRule(ex.operation, pointer, unknown, rules))
    if (id !== 'GEN-003') found.set(id, [...new Set([...(found.get(id) ?? []), ...lines])]);
  return [...found].map(([ruleId, lines]) => ({
    ruleId,
    expected: `body valid against ${pointer}`,
    actual: lines.slice(0, 8).join('; '),
  }));
}

/** The success response whose body a 2xx of an operation is judged by: its status's, else the operation's one 2xx. */
function successOf(op: Operation, status: number) {
  const only = [...op.responses].filter(([s]) => /^2\d\d$/.test(s));
  return successBody(op, status) ?? documented(op, status) ?? (only.length === 1 ? only[0]![1] : undefined);
}

/**
 * A success answered with no body where the document gives one, and no JSON media type for the schema check to judge
 * (PAT-024: a DELETE's {success: true} answered 204), under the rule owning the body's root.
 */
function success_body_missing(ex: InspectedExchange, { rules }: DocumentedEnv): Finding | undefined {
  const status = ex.response.status;
  if (status < 200 || status > 299 || ex.response.text !== '' || successBodySchema(ex)) return;
  const r = successOf(ex.operation, status);
  const content = r?.node.content as Record<string, { schema?: unknown }> | undefined;
  const json = content && Object.keys(content).find((t) => t === 'application/json' || t.endsWith('+json'));
  if (!r || !json || !content[json]?.schema) return;
  const root = rules.chain(`${r.pointer}/content/${escapeToken(json)}/schema`, '');
  const owner = rules.ownerOf(root, ex.operation) ?? rules.operationRule(ex.operation);
  return {
    ruleId: owner?.id ?? 'GEN-003',
    expected: `a JSON body (${json})`,
    actual: `${status} with an empty body`,
    where: 'response.body',
  };
}

/** The rule owning each operation's success body root, or the operation's own rule where none does. */
const rootRules = (contract: Contract, rules: RuleIndex) => [
  ...new Set(
    contract.operations.flatMap((op) => {
      const ok = [...op.responses].find(([s]) => /^2\d\d$/.test(s))?.[1];
      const json = ok?.node.content && 'application/json' in (ok.node.content as object);
      const root = json && rules.ownerOf(rules.chain(`${ok.pointer}/content/application~1json/schema`, ''), op);
      // PAT-024: Success, which every DELETE shares, is the patient DELETE's root.
      return json ? (root ? root.id : (rules.operationRule(op)?.id ?? [])) : [];
    }),
  ),
];

export const documentedChecks: DocumentedCheckDef[] = [
  { name: keyless_answered_401.name, rule: 'AUTH-001', reads: ['request.headers'], inspect: keyless_answered_401 },
  {
    name: success_status.name,
    rule: 'GEN-003',
    reads: [],
    judges: statedRules((s) => s >= 200 && s <= 299),
    inspect: success_status,
  },
  {
    name: lookup_miss_status.name,
    rule: 'XID-010',
    reads: ['response.body'],
    judges: statedRules((s, op) => s === 404 && op.parameters.some((p) => p.in === 'query' && LOOKUPS.includes(String(p.name)))),
    inspect: lookup_miss_status,
  },
  {
    name: unknown_field_accepted.name,
    rule: 'GEN-010',
    reads: ['request.body'],
    inspect: unknown_field_accepted,
  },
  {
    name: answer_is_the_record_asked_for.name,
    rule: 'GEN-003',
    reads: ['response.body'],
    judges: (contract, rules) => [
      ...new Set(
        contract.operations
          .filter((op) => op.method === 'GET' && /\/\{[^/}]+\}$/.test(op.template))
          .flatMap((op) => successRule(op, rules)?.id ?? []),
      ),
    ],
    inspect: answer_is_the_record_asked_for,
  },
  {
    name: response_schema_conformance.name,
    rule: 'GEN-003',
    reads: ['response.headers', 'response.body'],
    // The rest: judged-rules.ts.
    judges: rootRules,
    inspect: response_schema_conformance,
  },
  { name: success_body_missing.name, rule: 'GEN-003', reads: ['response.body'], judges: rootRules, inspect: success_body_missing },
];
