// What status a request's own content calls for, judged on traffic made by others: a create breaking a documented
// limit answered 2xx (the Limits: a 400), an mrn sent null or empty refused for it (PAT-010: allowed), an optional
// body left out refused (REGEN-005), and an operation answered outside the base path (VER-001).
import type { Contract, Operation } from '../spec/runtime/contract.ts';
import type { JsonObject } from '../spec/runtime/json-pointer.ts';
import type { SchemaValidator } from '../spec/runtime/schemas.ts';
import type { ExchangePart, Finding, InspectEnv, InspectedExchange } from './define.ts';
import type { RuleIndex } from './rule-index.ts';

interface RefusalEnv extends InspectEnv {
  exact: SchemaValidator;
  rules: RuleIndex;
}

export interface RefusalCheckDef {
  name: string;
  rule: string;
  reads: ExchangePart[];
  judges?(contract: Contract, rules: RuleIndex): string[];
  inspect(ex: InspectedExchange, env: RefusalEnv): Finding | undefined;
}

const ok = (ex: InspectedExchange) => ex.response.status >= 200 && ex.response.status <= 299;
const bare = (pointer: string) => pointer.replace(/^#/, '');
const requestJson = (ex: InspectedExchange): unknown => {
  try {
    return ex.request.bodyText ? JSON.parse(ex.request.bodyText) : undefined;
  } catch {
    return undefined;
  }
};

/** The keywords of a documented bound (a length, a minimum). */
const BOUNDS = new Set(['minLength', 'maxLength', 'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum']);
/** The rule of the document's Limits section on a schema chain: a limit says a value past it is refused. */
const limitRule = (rules: RuleIndex, chain: string[]) => rules.along(chain).find((r) => r.source.startsWith('Limits'));

/**
 * LIM-002, LIM-003, LIM-004: a create (POST) whose JSON body breaks a documented limit, answered 2xx. Not PATCH: an
 * external_id sent there is ignored, whatever it holds (External identifiers, Mutability).
 */
function limit_breach_accepted(ex: InspectedExchange, { exact, rules }: RefusalEnv): Finding | undefined {
  const pointer = ex.operation.jsonBodyPointer;
  const body = requestJson(ex);
  if (ex.operation.method !== 'POST' || !pointer || body === undefined || !ok(ex)) return;
  for (const e of exact.errors(pointer, body)) {
    const rule = BOUNDS.has(e.keyword) ? limitRule(rules, rules.chain(pointer, e.instancePath)) : undefined;
    if (rule)
      return {
        ruleId: rule.id,
        expected: `400 (${rule.rule})`,
        actual: `${ex.response.status} to request.body${e.line}`,
        where: 'response.status',
      };
  }
  return undefined;
}

/** The Limits rules a create's top-level fields can break (for a report's rows). */
function limitRules(contract: Contract, rules: RuleIndex): string[] {
  const out = new Set<string>();
  for (const op of contract.operations.filter((o) => o.method === 'POST' && o.jsonBodyPointer)) {
    const schema = contract.resolve(op.jsonBodyPointer!) as JsonObject | undefined;
    for (const field of Object.keys((schema?.properties as JsonObject | undefined) ?? {}))
      for (const r of rules.along(rules.chain(op.jsonBodyPointer!, `/${field}`))) if (r.source.startsWith('Limits')) out.add(r.id);
  }
  return [...out];
}

/** PAT-010: a patient create whose mrn is null or empty ("none"), refused 400 for its mrn. */
function empty_mrn_refused(ex: InspectedExchange): Finding | undefined {
  const body = requestJson(ex) as Record<string, unknown> | undefined;
  if (ex.operation.method !== 'POST' || ex.operation.template !== '/patients' || ex.response.status !== 400) return;
  if (!body || typeof body !== 'object' || !('mrn' in body) || (body.mrn !== null && body.mrn !== '')) return;
  // A 400 for another field says nothing about mrn.
  if (!/\bmrn\b/i.test(ex.response.text)) return;
  return {
    expected: 'mrn null or empty accepted (no mrn)',
    actual: `400 naming mrn for mrn ${JSON.stringify(body.mrn)}: ${ex.response.text.slice(0, 200)}`,
    where: 'response.status',
  };
}

/** The rule saying an operation's request body is optional (REGEN-005), when the contract does not require one. */
function optionalBodyRule(op: Operation, { contract, rules }: { contract: Contract; rules: RuleIndex }) {
  const at = `${bare(op.pointer)}/requestBody`;
  const rb = contract.resolve(`#${at}`) as JsonObject | undefined;
  return rb && rb.required !== true ? rules.along([at])[0] : undefined;
}

/** The path's ids of their documented form: a 400 to a malformed id is that id's, not the missing body's. */
function pathIdsValid(ex: InspectedExchange, { schemas, rules }: RefusalEnv): boolean {
  const sent = ex.request.path.split('?')[0]!.replace(/\/+$/, '').split('/');
  return ex.operation.template.split('/').every((seg, i) => {
    const name = /^\{(.+)\}$/.exec(seg)?.[1];
    const form = name && rules.pathParamRules(ex.operation).get(name);
    return !form || schemas.validate(form.schema, decodeURIComponentSafe(sent[i] ?? '')).length === 0;
  });
}

const decodeURIComponentSafe = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** REGEN-005: a request without a body, where the body is optional, refused 400 (no Content-Type claiming one). */
function optional_body_omitted_refused(ex: InspectedExchange, env: RefusalEnv): Finding | undefined {
  const rule = optionalBodyRule(ex.operation, env);
  const type = Object.entries(ex.request.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (!rule || ex.response.status !== 400 || (ex.request.bodyText ?? '') !== '' || type || !pathIdsValid(ex, env)) return;
  return {
    ruleId: rule.id,
    expected: `no 400 for a request without a body (${rule.rule})`,
    actual: `400 ${ex.response.text.slice(0, 200)}`,
    where: 'response.status',
  };
}

/**
 * VER-001: an operation answered 2xx at a path outside the base address's version prefix (`/ext-api/v1`): the
 * version is part of the base address. (The client's side of it, VER-003, is a request check.)
 */
function answered_outside_base_path(ex: InspectedExchange, { contract }: RefusalEnv): Finding | undefined {
  const base = contract.basePath();
  const { pathname } = new URL(ex.request.url, 'http://judge.invalid');
  if (!base || !ok(ex) || pathname.includes(`${base}/`)) return;
  return {
    expected: `no answer outside ${base} (the base address)`,
    actual: `${ex.response.status} at ${pathname}`,
    where: 'request.path',
  };
}

export const refusalChecks: RefusalCheckDef[] = [
  { name: limit_breach_accepted.name, rule: 'LIM-002', reads: ['request.body'], judges: limitRules, inspect: limit_breach_accepted },
  { name: empty_mrn_refused.name, rule: 'PAT-010', reads: ['request.body', 'response.body'], inspect: empty_mrn_refused },
  {
    name: optional_body_omitted_refused.name,
    rule: 'REGEN-005',
    reads: ['request.headers', 'request.body'],
    judges: (contract, rules) => [...new Set(contract.operations.flatMap((op) => optionalBodyRule(op, { contract, rules })?.id ?? []))],
    inspect: optional_body_omitted_refused,
  },
  { name: answered_outside_base_path.name, rule: 'VER-001', reads: [], inspect: answered_outside_base_path },
];
