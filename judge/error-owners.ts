// The documented rules an error answer's defect breaks besides the generic ones every suite run names (GEN-005 for its
// body, RATE-001 for its rate-limit headers): the rules stating that response (REGEN-010: the regenerate's 401, 403
// and 429; ERR-002: every 401) and those stating the part found wrong (RATE-003: the 429's message; RATE-004: its
// Retry-After). The judge of traffic only: the suite's own reports keep one failing rule per defect.
import type { Contract, Operation } from '../spec/runtime/contract.ts';
import type { JsonObject } from '../spec/runtime/json-pointer.ts';
import type { Rule } from '../spec/runtime/register.ts';
import type { ExchangePart, Finding, InspectEnv, InspectedExchange } from './define.ts';
import { error_body_shape } from './checks/gen.ts';
import { rate_limit_headers } from './checks/rate.ts';
import { documented } from './responses.ts';
import type { RuleIndex } from './rule-index.ts';

interface OwnerEnv extends InspectEnv {
  rules: RuleIndex;
}

export interface OwnerCheckDef {
  name: string;
  rule: string;
  reads: ExchangePart[];
  judges(contract: Contract, rules: RuleIndex): string[];
  inspect(ex: InspectedExchange, env: OwnerEnv): Finding[] | undefined;
}

const bare = (pointer: string) => pointer.replace(/^#/, '');
/**
 * Rules named elsewhere for the same answer: the checks every suite run applies (GEN-005, RATE-001), and AUTH-001,
 * whose condition (a request without a key) its own check reads from the request.
 */
const GENERIC = new Set(['GEN-005', 'RATE-001', 'AUTH-001']);
/** The document's two lookups; its rule of a lookup's 404 (ERR-005) says nothing of another 404. */
const LOOKUPS = ['external_id', 'npi'];

/** The pointers an error response of an operation is stated at: the operation's own, and the shared one it refers to. */
function responsePointers(op: Operation, status: number): string[] {
  const r = documented(op, status);
  const own = `${bare(op.pointer)}/responses/${status}`;
  return r ? [...new Set([own, bare(r.pointer)])] : [];
}

/**
 * The rules stating a part of a response (`part`: pointers under it), and those stating the response with what the
 * part must hold (`says`: a body `{error}`, a header's name; a rule stating only the status, GEN-010's 400 or
 * XID-010's 404, says nothing of a body), that apply to this request.
 */
function owners(ex: InspectedExchange, rules: RuleIndex, part: (response: string) => string[], says: RegExp): Rule[] {
  const at = responsePointers(ex.operation, ex.response.status);
  const lookup = LOOKUPS.some((p) => new URL(ex.request.url, 'http://judge.invalid').searchParams.has(p));
  const found = [...rules.along(at.flatMap(part)), ...rules.along(at).filter((r) => says.test(r.rule))];
  // A 404 rule of lookups (its sentence says so) owns only a lookup's 404.
  return [...new Set(found)].filter((r) => !GENERIC.has(r.id) && (ex.response.status !== 404 || lookup || !/lookup/.test(r.rule)));
}

/** A rule sentence giving a body: the register writes one in braces (`{error}`). */
const BODY = /\{/;
const bodyPart = (rules: RuleIndex) => (response: string) => rules.chain(`${response}/content/application~1json/schema`, '');
const headerPart = (contract: Contract) => (response: string) => {
  const node = contract.resolve(`#${response}/headers/Retry-After`) as JsonObject | undefined;
  const ref = (contract.resolve(`#${response}`) as JsonObject | undefined)?.headers as JsonObject | undefined;
  const raw = ref?.['Retry-After'] as JsonObject | undefined;
  return node ? [`${response}/headers/Retry-After`, ...(typeof raw?.$ref === 'string' ? [bare(raw.$ref)] : [])] : [];
};

/**
 * An error answer whose body breaks the generic shape (GEN-005's finding) or whose required headers are missing or
 * malformed (RATE-001's): the same finding under each rule stating that response or that part.
 */
function error_answer_owners(ex: InspectedExchange, env: OwnerEnv): Finding[] | undefined {
  if (ex.response.status < 400) return;
  const out: Finding[] = [];
  const body = error_body_shape(ex, env);
  if (body) for (const r of owners(ex, env.rules, bodyPart(env.rules), BODY)) out.push({ ...body, ruleId: r.id });
  const headers = rate_limit_headers(ex, env);
  if (headers) {
    // Only Retry-After has rules of its own (the others are RATE-001's alone).
    const retry = /Retry-After/.test(headers.actual);
    if (retry)
      for (const r of owners(ex, env.rules, headerPart(env.contract), /Retry-After/))
        if (!out.some((f) => f.ruleId === r.id)) out.push({ ...headers, ruleId: r.id });
  }
  return out.length ? out : undefined;
}

/** Every rule this check can name: the owners of each documented error response of each operation. */
function ownerRules(contract: Contract, rules: RuleIndex): string[] {
  const ids = new Set<string>();
  for (const op of contract.operations)
    for (const status of op.responses.keys()) {
      if (!/^[45]\d\d$/.test(status)) continue;
      const at = responsePointers(op, Number(status));
      const parts = [...at.flatMap(bodyPart(rules)), ...at.flatMap(headerPart(contract))];
      const stated = rules.along(at).filter((r) => BODY.test(r.rule) || /Retry-After/.test(r.rule));
      for (const r of [...rules.along(parts), ...stated]) if (!GENERIC.has(r.id)) ids.add(r.id);
    }
  return [...ids];
}

export const ownerChecks: OwnerCheckDef[] = [
  {
    name: error_answer_owners.name,
    rule: 'GEN-005',
    reads: ['response.headers', 'response.body'],
    judges: ownerRules,
    inspect: error_answer_owners,
  },
];
