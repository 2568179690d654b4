// Request-side judging: what the contract forbids a client to send. On traffic made by others (the mock's --upstream
// proxy, a --har file) such a request is the app's bug, not the server's: each finding says so through its rule.
import type { ExchangePart, Finding, InspectEnv, InspectedExchange } from './define.ts';
import type { Contract } from '../spec/runtime/contract.ts';
import type { SchemaValidator } from '../spec/runtime/schemas.ts';
import type { RuleIndex } from './rule-index.ts';
import { escapeToken } from '../spec/runtime/json-pointer.ts';

/**
 * What request checks read besides the profile's schemas: the contract's schemas unrelaxed. A documented rule can
 * sit on a node the documented profile relaxes for another reason (a create body closed, GEN-010, whose variants are
 * the kit's reading): that rule's own keyword is read from these.
 */
interface RequestEnv extends InspectEnv {
  exact: SchemaValidator;
  rules: RuleIndex;
}

/** A check of the request of one exchange; a finding is the client's violation of `rule`. */
export interface RequestCheckDef {
  name: string;
  rule: string;
  reads: ExchangePart[];
  /** The rules its findings can name besides `rule`, for a report's rows. */
  judges?(contract: Contract, rules: RuleIndex): string[];
  inspect(ex: InspectedExchange, env: RequestEnv): Finding | undefined;
}

const requestCheck = (
  inspect: RequestCheckDef['inspect'],
  rule: string,
  reads: ExchangePart[],
  judges?: RequestCheckDef['judges'],
): RequestCheckDef => ({ name: inspect.name, rule, reads, ...(judges ? { judges } : {}), inspect });

const header = (ex: InspectedExchange, name: string) => Object.entries(ex.request.headers).find(([k]) => k.toLowerCase() === name)?.[1];
/** The media type of a Content-Type value, lower case, without parameters. */
export const mediaTypeOf = (contentType: string | undefined) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** AUTH-003: every request carries X-API-Key (a recorded one shows it redacted, which still counts). */
function request_carries_key(ex: InspectedExchange): Finding | undefined {
  if (header(ex, 'x-api-key')) return;
  return { expected: 'the request carries the header X-API-Key', actual: 'no X-API-Key header', where: 'request.headers' };
}

/** The media types an operation's request body is documented in. */
const bodyTypes = (contract: Contract, op: InspectedExchange['operation']) =>
  Object.keys(
    (contract.deref(contract.resolve(`${op.pointer}/requestBody`)) as { content?: Record<string, unknown> } | undefined)?.content ?? {},
  );
/** The rule stating a request body's media type where one does (GEN-007: the upload's multipart/form-data). */
const typeRule = (rules: RuleIndex, op: InspectedExchange['operation'], type: string) =>
  rules.along([`${op.pointer.replace(/^#/, '')}/requestBody/content/${escapeToken(type)}`])[0];

/** GEN-006: a write with a JSON body sends Content-Type application/json (the upload, GEN-007, multipart/form-data). */
function write_request_content_type(ex: InspectedExchange, { contract, rules }: RequestEnv): Finding | undefined {
  if (!ex.operation.hasRequestBody || ex.request.bodyText === undefined || ex.request.bodyText === '') return;
  const types = bodyTypes(contract, ex.operation);
  const sent = mediaTypeOf(header(ex, 'content-type'));
  if (types.includes(sent)) return;
  const own = types.length === 1 ? typeRule(rules, ex.operation, types[0]!) : undefined;
  return {
    ...(own ? { ruleId: own.id } : {}),
    expected: `Content-Type ${types.join(' or ')}`,
    actual: sent || '(none)',
    where: 'request.headers.content-type',
  };
}

const typeRules = (contract: Contract, rules: RuleIndex) => [
  ...new Set(contract.operations.flatMap((op) => bodyTypes(contract, op).flatMap((t) => typeRule(rules, op, t)?.id ?? []))),
];

/** GEN-010: a JSON request body holds only the listed fields, each of its documented type (the request schema). */
function request_body_conformance(ex: InspectedExchange, { schemas, exact }: RequestEnv): Finding | undefined {
  const pointer = ex.operation.jsonBodyPointer;
  const text = ex.request.bodyText;
  if (!pointer || !text || mediaTypeOf(header(ex, 'content-type')) !== 'application/json') return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { expected: 'a JSON request body', actual: `malformed JSON: ${text.slice(0, 120)}`, where: 'request.body' };
  }
  const unknown = exact.validate(pointer, body, ['additionalProperties']);
  const errors = [...unknown, ...schemas.validate(pointer, body).filter((e) => !unknown.includes(e))];
  if (!errors.length) return;
  return { expected: `request body valid against ${pointer}`, actual: errors.join('; '), where: `request.body${pathOf(errors[0]!)}` };
}

/** VER-003: a request's path is under the base address (`{base_url}` ends with the version prefix, `/ext-api/v1`). */
function request_under_base_path(ex: InspectedExchange, { contract }: InspectEnv): Finding | undefined {
  const base = contract.basePath();
  const { pathname } = new URL(ex.request.url, 'http://judge.invalid');
  if (!base || pathname.includes(`${base}/`)) return;
  return { expected: `a path under ${base} (the base address)`, actual: pathname, where: 'request.path' };
}

/** The value of each path parameter in the request's path, read by the operation's template. */
function pathValues(ex: InspectedExchange): Map<string, string> {
  const sent = ex.request.path.split('?')[0]!.replace(/\/+$/, '').split('/');
  const out = new Map<string, string>();
  ex.operation.template.split('/').forEach((seg, i) => {
    const name = /^\{(.+)\}$/.exec(seg)?.[1];
    const raw = sent[i];
    if (!name || raw === undefined) return;
    try {
      out.set(name, decodeURIComponent(raw));
    } catch {
      out.set(name, raw);
    }
  });
  return out;
}

/** PAT-025, APT-022, PRV-010, ...: each id in the request's path has its documented form (a patient id digits, a UUID). */
function path_ids_conformance(ex: InspectedExchange, { schemas, rules }: RequestEnv): Finding | undefined {
  const values = pathValues(ex);
  for (const [name, { rule, schema }] of rules.pathParamRules(ex.operation)) {
    const value = values.get(name);
    const errors = value === undefined ? [] : schemas.validate(schema, value);
    if (errors.length)
      return {
        ruleId: rule.id,
        expected: rule.rule,
        actual: `${name} ${JSON.stringify(value)}: ${errors.join('; ')}`,
        where: 'request.path',
      };
  }
  return undefined;
}

const pathIdRules = (contract: Contract, rules: RuleIndex) => [
  ...new Set(contract.operations.flatMap((op) => [...rules.pathParamRules(op).values()].map((f) => f.rule.id))),
];

/** The instance path a schema error line starts with ('' for the root). */
export const pathOf = (line: string) => (line.startsWith('/') ? line.split(' ')[0]! : '');

export const requestChecks: RequestCheckDef[] = [
  requestCheck(request_carries_key, 'AUTH-003', ['request.headers']),
  requestCheck(write_request_content_type, 'GEN-006', ['request.headers', 'request.body'], typeRules),
  requestCheck(request_body_conformance, 'GEN-010', ['request.headers', 'request.body']),
  requestCheck(path_ids_conformance, 'PAT-025', [], pathIdRules),
  requestCheck(request_under_base_path, 'VER-003', []),
];
