// Checks an answer of the engine against the contract, as Prism does in front of the CLI mock (its default mode): the
// status must be documented for the operation, the headers the response marks required must be present, and a JSON
// body must match the response's schema (ajv, compiled on first use per operation and status). Used by the in-process
// mock's `strict` option; the CLI's --strict keeps Prism.
import type { ValidateFunction } from 'ajv';
import { bundleRef, createAjv } from '../../spec/runtime/bundle.ts';
import { deref, escapeToken, type JsonObject } from '../../spec/runtime/json-pointer.ts';
import { operations } from '../../spec/runtime/operations.ts';

interface Documented {
  /** Header names (lower case) the response marks required. */
  headers: string[];
  /** The JSON body's validator, when the response documents one. */
  validate?: ValidateFunction;
}

export interface ResponseCheck {
  /** What is wrong with this answer of the operation, one line each; empty when it keeps the contract. */
  violations(operationId: string, status: number, headers: Headers, body: unknown): string[];
}

export function createResponseCheck(bundle: JsonObject): ResponseCheck {
  const ajv = createAjv(bundle);
  const ops = new Map(operations(bundle).map((e) => [String(e.operation.operationId), e]));
  const compiled = new Map<string, Documented | undefined>();

  const documented = (operationId: string, status: number): Documented | undefined => {
    const key = `${operationId} ${status}`;
    if (compiled.has(key)) return compiled.get(key);
    const entry = ops.get(operationId);
    const responses = (entry?.operation.responses ?? {}) as JsonObject;
    const code = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
    let found: Documented | undefined;
    if (entry && code) {
      const raw = responses[code] as JsonObject;
      const base = (raw.$ref as string | undefined) ?? `#/paths/${escapeToken(entry.path)}/${entry.method}/responses/${code}`;
      const response = deref(bundle, raw) as JsonObject;
      const headers = Object.entries((response.headers ?? {}) as JsonObject)
        .filter(([, h]) => (deref(bundle, h) as JsonObject).required === true)
        .map(([name]) => name.toLowerCase());
      const json = ((response.content ?? {}) as JsonObject)['application/json'] as JsonObject | undefined;
      found = {
        headers,
        ...(json?.schema ? { validate: ajv.compile({ $ref: bundleRef(`${base}/content/application~1json/schema`) }) } : {}),
      };
    }
    compiled.set(key, found);
    return found;
  };

  return {
    violations(operationId, status, headers, body) {
      const doc = documented(operationId, status);
      if (!doc) return [`status ${status} is not documented for ${operationId}`];
      const out = doc.headers.filter((h) => !headers.has(h)).map((h) => `header ${h} is required`);
      if (doc.validate && !doc.validate(body))
        for (const e of doc.validate.errors ?? []) out.push(`body${e.instancePath.replace(/\//g, '.')} ${e.message ?? 'is invalid'}`);
      return out;
    },
  };
}
