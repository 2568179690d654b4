// The contract as the engine reads it at run time: the bundled spec (generated/openapi.json), loaded once, and
// the operation table derived from it (method + path template -> operationId, scopes, path parameters), matched
// by spec/runtime's matcher.
import { loadBundle } from '../../spec/runtime/bundle.ts';
import type { JsonObject } from '../../spec/runtime/json-pointer.ts';
import { createMatcher, operations, requiredScopes, templateParams } from '../../spec/runtime/operations.ts';

/** Every path of the API sits under this prefix (the spec's server URL ends with it). */
export const API_BASE = '/ext-api/v1';

/** The API's own paths: API_BASE and what lies under it. */
export function isApiPath(path: string): boolean {
  return path === API_BASE || path.startsWith(`${API_BASE}/`);
}

export interface SpecOperation {
  operationId: string;
  method: string; // upper case
  /** The spec's path template, e.g. /patients/{patientId}. */
  path: string;
  /** Hono's form of the template, e.g. /patients/:patientId. */
  honoPath: string;
  scopes: readonly string[];
  paramNames: readonly string[];
}

export interface SpecIndex {
  bundle: JsonObject;
  operations: readonly SpecOperation[];
  byId: ReadonlyMap<string, SpecOperation>;
  /** Every scope any operation requires (for the seed's keys). */
  scopes: readonly string[];
  /** Finds the operation for a method and a path relative to API_BASE; `allow` lists the path's methods. */
  match(method: string, path: string): { op?: SpecOperation; params: Record<string, string>; allow: readonly string[] } | undefined;
}

let cached: SpecIndex | undefined;

/** The spec index; built once per process (compilation is the expensive part of start-up). */
export function specIndex(): SpecIndex {
  return (cached ??= buildIndex(loadBundle()));
}

function buildIndex(bundle: JsonObject): SpecIndex {
  const ops: SpecOperation[] = operations(bundle).map(({ path, method, operation }) => ({
    operationId: String(operation.operationId),
    method: method.toUpperCase(),
    path,
    honoPath: path.replace(/\{([^}]+)\}/g, ':$1'),
    scopes: requiredScopes(operation),
    paramNames: templateParams(path),
  }));
  const matcher = createMatcher(ops);
  // A path's methods, listed once per template (the 405's Allow), not on every request.
  const allowOf = new Map<readonly SpecOperation[], string[]>();
  const allowed = (routes: readonly SpecOperation[]) => {
    let allow = allowOf.get(routes);
    if (!allow) {
      allow = routes.map((o) => o.method);
      if (allow.includes('GET')) allow.push('HEAD');
      allowOf.set(routes, allow);
    }
    return allow;
  };
  return {
    bundle,
    operations: ops,
    byId: new Map(ops.map((o) => [o.operationId, o])),
    scopes: [...new Set(ops.flatMap((o) => o.scopes))],
    match(method, path) {
      const m = matcher.match(path);
      if (!m) return undefined;
      const wanted = method === 'HEAD' ? 'GET' : method;
      return { op: m.routes.find((o) => o.method === wanted), params: m.params, allow: allowed(m.routes) };
    },
  };
}

/** `default` values a component schema declares for its properties (e.g. AppointmentCreate's visit_type). */
export function schemaDefaults(bundle: JsonObject, name: string): Record<string, unknown> {
  const schema = ((bundle.components as JsonObject).schemas as JsonObject)[name] as JsonObject | undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries((schema?.properties ?? {}) as JsonObject)) {
    let node = v as JsonObject;
    if (typeof node.$ref === 'string') {
      const target = ((bundle.components as JsonObject).schemas as JsonObject)[node.$ref.split('/').pop()!] as JsonObject;
      if (node.default === undefined && target) node = { ...target, ...node };
    }
    if (node.default !== undefined) out[k] = node.default;
  }
  return out;
}
