// The contract as the suite reads it at run time: operations from the bundled spec, matched by method + path
// template, with their scopes, request schemas and documented responses. Nothing here restates the spec.
import { loadBundle } from './bundle.ts';
import { deref, escapeToken, type Json, type JsonObject } from './json-pointer.ts';
import { createMatcher, operations, requiredScopes, type PathMatcher } from './operations.ts';

export interface Operation {
  operationId: string;
  method: string; // upper case
  template: string; // e.g. /patients/{patientId}
  pointer: string; // JSON pointer of the operation object
  scopes: string[];
  /** Status code (as text) → response object (dereferenced) and its pointer. */
  responses: Map<string, { node: JsonObject; pointer: string }>;
  parameters: JsonObject[];
  /** application/json request body schema pointer, when the operation takes one. */
  jsonBodyPointer?: string;
  hasRequestBody: boolean;
  tag: string;
}

export class Contract {
  readonly doc: JsonObject;
  readonly operations: Operation[];
  private readonly matcher: PathMatcher<Operation>;

  constructor(doc: JsonObject = loadBundle()) {
    this.doc = doc;
    this.operations = operations(doc).map((e) => {
      const pointer = `#/paths/${escapeToken(e.path)}/${e.method}`;
      const responses = new Map<string, { node: JsonObject; pointer: string }>();
      for (const [status, r] of Object.entries((e.operation.responses ?? {}) as JsonObject)) {
        const ref = (r as JsonObject).$ref;
        responses.set(status, {
          node: deref(doc, r) as JsonObject,
          pointer: typeof ref === 'string' ? ref : `${pointer}/responses/${status}`,
        });
      }
      const rb = deref(doc, e.operation.requestBody as Json) as JsonObject | undefined;
      const content = (rb?.content ?? {}) as JsonObject;
      const bodyPointer = content['application/json'] ? `${pointer}/requestBody/content/application~1json/schema` : undefined;
      return {
        operationId: String(e.operation.operationId),
        method: e.method.toUpperCase(),
        template: e.path,
        pointer,
        scopes: requiredScopes(e.operation),
        responses,
        parameters: e.parameters,
        jsonBodyPointer: bodyPointer,
        hasRequestBody: !!rb,
        tag: String(((e.operation.tags ?? []) as string[])[0] ?? ''),
      };
    });
    this.matcher = createMatcher(this.operations, { trailingSlash: true, template: (op) => op.template });
  }

  /** The operation a request hits, by method and path relative to the base URL (query ignored). */
  match(method: string, path: string): Operation | undefined {
    return this.matcher.find(method, path.split('?')[0] ?? '');
  }

  byId(operationId: string): Operation {
    const op = this.operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`operation ${operationId} is not in the spec`);
    return op;
  }

  /** Follows $ref chains inside the bundle. */
  deref(node: Json | undefined): Json | undefined {
    return deref(this.doc, node);
  }

  resolve(pointer: string): Json | undefined {
    return deref(this.doc, { $ref: pointer } as unknown as Json);
  }

  /** Operation ids of one tag and method, e.g. every GET of Patients. */
  find(pred: (op: Operation) => boolean): Operation[] {
    return this.operations.filter(pred);
  }

  /** The spec's base path (from the first server URL), e.g. /ext-api/v1. */
  basePath(): string {
    const url = String(((this.doc.servers ?? []) as JsonObject[])[0]?.url ?? '');
    return url.replace(/^[^/]*\/\/[^/]+/, '');
  }

  /** Every query parameter of an operation by name. */
  queryParam(op: Operation, name: string): JsonObject | undefined {
    return op.parameters.find((p) => p.in === 'query' && p.name === name);
  }

  /** A query parameter's default (page 1, limit 20), when the spec gives one. */
  paramDefault(op: Operation, name: string): unknown {
    return (this.queryParam(op, name)?.schema as { default?: unknown } | undefined)?.default;
  }

  /** All scopes the spec uses, from x-required-scopes. */
  allScopes(): string[] {
    return [...new Set(this.operations.flatMap((o) => o.scopes))].sort();
  }
}
