// Which rules of the register a run checks, and why the others are not: a rule is covered by the named checks that
// cite it, or, for a rule about the shape of what the service answers (field types, formats, enums, required
// fields, closed objects), by the response checks that validate every body against the spec: those are the rules
// whose every `spec` pointer lands inside a schema some documented response (or a webhook payload a check
// validates) reaches. A few rules point at a response schema but state a behaviour the schema cannot see (a
// terminal status, a default): they are listed in BEHAVIOUR and never counted as covered by a schema.
import { escapeToken as esc, type Json, type JsonObject } from '../spec/runtime/json-pointer.ts';
import type { Contract } from './contract.ts';
import type { Rule } from './register.ts';
import type { Profile } from './schemas.ts';

/** Rules whose pointers land on response schemas but whose content is a behaviour, not a shape. */
const BEHAVIOUR: Record<string, string> = {
  'GEN-002': 'records are assigned to providers: behaviour',
  'GEN-009': 'clients treat ids as opaque',
  'PAT-003': 'a name built from first_name and last_name: behaviour',
  'PAT-015': 'consent false for a name-only patient: behaviour',
  'PAT-017': 'a default on create: behaviour',
  'APT-005': 'a default on create: behaviour',
  'APT-019': 'reassignment on PATCH: behaviour',
  'APT-026': 'status transitions: behaviour',
  'DOC-009': 'the text is never returned: partly shape, checked only as closed objects',
  'DOC-012': 'terminal statuses: behaviour over time',
  'DOC-013': 'the status an upload answers: behaviour',
  'DOC-014': 'the status an upload answers: behaviour',
  'DOC-016': 'transitions: behaviour over time',
  'DOC-017': 'transitions: behaviour over time',
  'DOC-018': 'transitions: behaviour over time',
  'DOC-026': 'message wording depends on queueing',
  'DOC-027': 'message wording depends on queueing',
  'DOC-036': 'message wording depends on queueing',
  'NOTE-007': 'embedded by default: behaviour of include',
  'NOTE-008': 'embedded by default: behaviour of include',
  'NOTE-018': 'include semantics',
  'NOTE-019': 'include semantics',
  'REGEN-006': 'a default template: behaviour',
  'REGEN-007': 'a default tier: behaviour',
  'REGEN-014': 'visible after regeneration: behaviour over time',
  'REGEN-017': 'a default tier: behaviour',
  'PAG-004': 'the end of a list: behaviour',
  'PAG-008': 'a page past the end: behaviour',
  'XID-003': 'uniqueness: behaviour',
  'XID-004': 'immutability: behaviour',
  'VER-002': 'the document version',
  'LIM-002': 'a request rejected: checked by out_of_bounds_rejected',
  'LIM-003': 'a request rejected: checked by out_of_bounds_rejected',
};

const COMBINERS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const CHILDREN = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'];

/** Every pointer (without '#') of a schema node reachable from the given schema pointers, refs followed. */
function reachableSchemas(contract: Contract, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (pointer: string, node: Json | undefined) => {
    if (!node || typeof node !== 'object' || Array.isArray(node) || seen.has(pointer)) return;
    seen.add(pointer);
    const o = node as JsonObject;
    if (typeof o.$ref === 'string') visit(o.$ref.replace(/^#/, ''), contract.resolve(o.$ref));
    for (const [k, v] of Object.entries((o.properties ?? {}) as JsonObject)) visit(`${pointer}/properties/${esc(k)}`, v);
    for (const k of COMBINERS) if (Array.isArray(o[k])) for (const [i, v] of (o[k] as Json[]).entries()) visit(`${pointer}/${k}/${i}`, v);
    for (const k of CHILDREN) if (o[k] && typeof o[k] === 'object') visit(`${pointer}/${k}`, o[k]);
  };
  for (const r of roots) visit(r.replace(/^#/, ''), contract.resolve(r.startsWith('#') ? r : `#${r}`));
  return seen;
}

/** The schema pointers of every documented JSON response body (and response header) of the contract. */
function responseRoots(contract: Contract): string[] {
  const roots: string[] = [];
  for (const op of contract.operations)
    for (const r of op.responses.values()) {
      for (const media of Object.keys((r.node.content ?? {}) as JsonObject)) roots.push(`${r.pointer}/content/${esc(media)}/schema`);
      for (const [name, h] of Object.entries((r.node.headers ?? {}) as JsonObject)) {
        const ref = (h as JsonObject).$ref;
        roots.push(`${typeof ref === 'string' ? ref : `${r.pointer}/headers/${esc(name)}`}/schema`);
      }
    }
  return roots;
}

/** Does a rule pointer land inside the reachable set (the node itself, or a keyword of it such as /required)? */
function lands(pointer: string, reachable: Set<string>): boolean {
  const p = pointer.replace(/^#/, '');
  if (reachable.has(p)) return true;
  const cut = p.lastIndexOf('/');
  return cut > 0 && reachable.has(p.slice(0, cut)) && !p.endsWith('/properties');
}

function pointers(rule: Rule): string[] {
  return Array.isArray(rule.spec) ? (rule.spec as unknown[]).filter((p): p is string => typeof p === 'string') : [];
}

/** Is the rule a shape rule every pointer of which lands in `reachable`? */
export function shapeRule(rule: Rule, reachable: Set<string>): boolean {
  const ps = pointers(rule);
  return ps.length > 0 && !(rule.id in BEHAVIOUR) && ps.every((p) => lands(p, reachable));
}

export interface SchemaCoverage {
  /** The check (a response check or a named check) that validates these schemas. */
  check: string;
  reachable: Set<string>;
}

/** Coverage through schema validation: response bodies and headers, plus payload schemas named checks validate. */
export function schemaCoverages(contract: Contract, payloadChecks: Array<{ check: string; schemas: string[] }>): SchemaCoverage[] {
  return [
    { check: 'response_schema_conformance', reachable: reachableSchemas(contract, responseRoots(contract)) },
    ...payloadChecks.map((p) => ({ check: p.check, reachable: reachableSchemas(contract, p.schemas) })),
  ];
}

/** In the documented profile, an assumed rule's constraint is relaxed out of the schemas: not checked by them. */
export function schemaChecksRule(rule: Rule, profile: Profile): boolean {
  return rule.provenance === 'documented' || profile === 'all';
}
