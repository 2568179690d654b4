// Which schema nodes each schema check validates: every node reachable (refs followed) from the schemas it judges.
// The response checks split a documented response between them: a success body is response_schema_conformance's, an
// error body error_body_shape's (less a 400's details, validation_error_details', and a 409's existing, which the
// conflict checks judge), the headers rate_limit_headers'; a webhook payload is the schema of the check that names it.
import { escapeToken as esc, type Json, type JsonObject } from './json-pointer.ts';
import type { Contract } from './contract.ts';

export interface SchemaCoverage {
  /** The check (a response check or a named check) that validates these schemas. */
  check: string;
  reachable: Set<string>;
}

const COMBINERS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const CHILDREN = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'];
/** Error-body fields another check judges. */
const OWNED = ['details', 'existing'];

/** Every pointer (without '#') of a schema node reachable from the given schema pointers, refs followed. */
export function reachableSchemas(contract: Contract, roots: string[], skipProperties: string[] = []): Set<string> {
  const seen = new Set<string>();
  const visit = (pointer: string, node: Json | undefined) => {
    if (!node || typeof node !== 'object' || Array.isArray(node) || seen.has(pointer)) return;
    seen.add(pointer);
    const o = node as JsonObject;
    if (typeof o.$ref === 'string') visit(o.$ref.replace(/^#/, ''), contract.resolve(o.$ref));
    for (const [k, v] of Object.entries((o.properties ?? {}) as JsonObject))
      if (!skipProperties.includes(k)) visit(`${pointer}/properties/${esc(k)}`, v);
    for (const k of COMBINERS) if (Array.isArray(o[k])) for (const [i, v] of (o[k] as Json[]).entries()) visit(`${pointer}/${k}/${i}`, v);
    for (const k of CHILDREN) if (o[k] && typeof o[k] === 'object') visit(`${pointer}/${k}`, o[k]);
  };
  for (const r of roots) visit(r.replace(/^#/, ''), contract.resolve(r.startsWith('#') ? r : `#${r}`));
  return seen;
}

/** The schema pointers of the documented responses' JSON bodies (by status class, and 400's) and headers. */
function responseRoots(contract: Contract) {
  const roots = { success: [] as string[], error: [] as string[], badRequest: [] as string[], headers: [] as string[] };
  for (const op of contract.operations)
    for (const [status, r] of op.responses) {
      const error = !/^[123]/.test(status);
      for (const media of Object.keys((r.node.content ?? {}) as JsonObject)) {
        const root = `${r.pointer}/content/${esc(media)}/schema`;
        (error ? roots.error : roots.success).push(root);
        if (status === '400') roots.badRequest.push(root);
      }
      for (const [name, h] of Object.entries((r.node.headers ?? {}) as JsonObject)) {
        const ref = (h as JsonObject).$ref;
        roots.headers.push(`${typeof ref === 'string' ? ref : `${r.pointer}/headers/${esc(name)}`}/schema`);
      }
    }
  return roots;
}

/** Coverage through schema validation: response bodies and headers, plus payload schemas named checks validate. */
export function schemaCoverages(contract: Contract, payloadChecks: Array<{ check: string; schemas: string[] }>): SchemaCoverage[] {
  const roots = responseRoots(contract);
  const details = [...reachableSchemas(contract, roots.badRequest)].filter((p) => p.endsWith('/properties/details'));
  return [
    { check: 'response_schema_conformance', reachable: reachableSchemas(contract, roots.success) },
    { check: 'error_body_shape', reachable: reachableSchemas(contract, roots.error, OWNED) },
    { check: 'validation_error_details', reachable: reachableSchemas(contract, details) },
    { check: 'rate_limit_headers', reachable: reachableSchemas(contract, roots.headers) },
    ...payloadChecks.map((p) => ({ check: p.check, reachable: reachableSchemas(contract, p.schemas) })),
  ];
}
