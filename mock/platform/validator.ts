// Validator: each operation's request schemas compiled once, on its first request (ajv, JSON Schema 2020-12), with
// ajv's errors turned into the documented `details` map (field path -> message).
import type { ErrorObject, ValidateFunction } from 'ajv';
import { bundleRef, createAjv } from '../../spec/runtime/bundle.ts';
import { deref, escapeToken, type Json, type JsonObject } from '../../spec/runtime/json-pointer.ts';
import { operations } from '../../spec/runtime/operations.ts';
import type { Checked, FieldErrors, Validator } from './deps.ts';

interface ParamCheck {
  name: string;
  required: boolean;
  kind: 'integer' | 'number' | 'boolean' | 'string';
  default: unknown;
  allowEmpty: boolean;
  validate: ValidateFunction;
}

export function createValidator(bundle: JsonObject): Validator {
  const ajv = createAjv(bundle);
  const byId = new Map(operations(bundle).map((o) => [String(o.operation.operationId), o]));
  const compiled = new Map<string, { body?: ValidateFunction; query: ParamCheck[]; path: ParamCheck[] }>();
  const schemas = new Map<string, (v: unknown) => Checked<unknown>>();

  /**
   * An operation's checks, compiled on its first request: a mode or a run that never calls an operation never holds
   * its code (compiling every one at start cost about 8 MB and 0.2 s, issue 42).
   */
  const checksOf = (id: string) => {
    let c = compiled.get(id);
    const op = byId.get(id);
    if (c || !op) return c;
    const { path, method, operation, parameters } = op;
    const requestBody = operation.requestBody as JsonObject | undefined;
    const content = (deref(bundle, requestBody) as JsonObject | undefined)?.content as JsonObject | undefined;
    // Compiled through the bundle so that internal $refs resolve; a $ref'd requestBody by its own pointer.
    const base = (requestBody?.$ref as string | undefined) ?? `#/paths/${escapeToken(path)}/${method}/requestBody`;
    const checks = (where: string) =>
      parameters
        .filter((p) => p.in === where)
        .map((p) => {
          const schema = deref(bundle, p.schema as Json) as JsonObject;
          const type = (Array.isArray(schema.type) ? schema.type[0] : schema.type) as ParamCheck['kind'] | undefined;
          return {
            name: String(p.name),
            required: p.required === true,
            kind: type ?? 'string',
            default: schema.default,
            allowEmpty: p.allowEmptyValue === true,
            validate: ajv.compile({ $ref: bundleRef(paramPointer(bundle, path, method, String(p.name), String(p.in))) }),
          };
        });
    c = {
      body: content?.['application/json'] ? ajv.compile({ $ref: bundleRef(`${base}/content/application~1json/schema`) }) : undefined,
      query: checks('query'),
      path: checks('path'),
    };
    compiled.set(id, c);
    return c;
  };

  const runParams = (checks: ParamCheck[] | undefined, input: Record<string, string | undefined>) => {
    const out: Record<string, unknown> = {};
    const details: FieldErrors = {};
    for (const p of checks ?? []) {
      const raw = input[p.name];
      if (raw === undefined || (raw === '' && !p.allowEmpty)) {
        if (raw === '') details[p.name] = 'must not be empty';
        else if (p.required) details[p.name] = 'is required';
        else if (p.default !== undefined) out[p.name] = p.default;
        continue;
      }
      const value = coerce(raw, p.kind);
      // The spec bounds `page` below only; a number past 2^53-1 cannot be answered exactly (JSON numbers are read as
      // doubles: meta.page would name another page), so it is refused rather than rounded.
      if (p.kind === 'integer' && Number.isInteger(value) && !Number.isSafeInteger(value))
        details[p.name] = `must be an integer from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`;
      else if (!p.validate(value)) details[p.name] = message(p.validate.errors?.[0]);
      else out[p.name] = value;
    }
    return Object.keys(details).length ? ({ ok: false, details } as const) : ({ ok: true, value: out } as const);
  };

  return {
    body(operationId, body) {
      const v = checksOf(operationId)?.body;
      if (!v) return { ok: true, value: body };
      return v(body) ? { ok: true, value: body } : { ok: false, details: toDetails(v.errors ?? []) };
    },
    query: (operationId, query) => runParams(checksOf(operationId)?.query, query),
    params: (operationId, params) => runParams(checksOf(operationId)?.path, params) as Checked<Record<string, string>>,
    schema(name) {
      let fn = schemas.get(name);
      if (!fn) {
        const v = ajv.compile({ $ref: bundleRef(`#/components/schemas/${name}`) });
        fn = (value) => (v(value) ? { ok: true, value } : { ok: false, details: toDetails(v.errors ?? []) });
        schemas.set(name, fn);
      }
      return fn;
    },
  };
}

/** JSON pointer to a parameter's schema (path-level or operation-level, following a $ref'd parameter). */
function paramPointer(bundle: JsonObject, path: string, method: string, name: string, where: string): string {
  const item = (bundle.paths as JsonObject)[path] as JsonObject;
  for (const [base, list] of [
    [`#/paths/${escapeToken(path)}/${method}/parameters`, (item[method] as JsonObject).parameters],
    [`#/paths/${escapeToken(path)}/parameters`, item.parameters],
  ] as const) {
    const arr = (list ?? []) as JsonObject[];
    for (let i = 0; i < arr.length; i++) {
      const ref = arr[i]!.$ref as string | undefined;
      const p = (ref ? deref(bundle, arr[i]) : arr[i]) as JsonObject;
      if (p.name === name && p.in === where) return `${ref ?? `${base}/${i}`}/schema`;
    }
  }
  throw new Error(`parameter ${name} of ${method} ${path} not found`);
}

function coerce(raw: string, kind: ParamCheck['kind']): unknown {
  if ((kind === 'integer' || kind === 'number') && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (kind === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

function message(e: ErrorObject | undefined): string {
  if (!e) return 'is invalid';
  if (e.keyword === 'additionalProperties') return 'unknown field';
  if (e.keyword === 'required') return 'is required';
  return e.message ?? 'is invalid';
}

function fieldOf(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** ajv errors -> `{ field: message }`, one entry per field, naming unknown and missing fields themselves. */
function toDetails(errors: ErrorObject[]): FieldErrors {
  const details: FieldErrors = {};
  const anyOfMissing = new Map<string, string[]>();
  for (const e of errors) {
    const at = fieldOf(e.instancePath);
    const join = (k: string) => (at ? `${at}.${k}` : k);
    if (e.keyword === 'additionalProperties') details[join(String(e.params.additionalProperty))] ??= 'unknown field';
    else if (e.keyword === 'required' && e.schemaPath.includes('/anyOf/'))
      anyOfMissing.set(at, [...(anyOfMissing.get(at) ?? []), String(e.params.missingProperty)]);
    else if (e.keyword === 'required') details[join(String(e.params.missingProperty))] ??= 'is required';
    else if (e.keyword === 'anyOf' || e.keyword === 'oneOf')
      continue; // its branches said why
    else details[at || 'body'] ??= e.message ?? 'is invalid';
  }
  // "at least one of" variants (PatientCreate): one entry, keyed by the first alternative.
  for (const [at, names] of anyOfMissing) {
    const key = at ? `${at}.${names[0]}` : names[0]!;
    details[key] ??= `at least one of ${names.join(', ')} is required`;
  }
  if (!Object.keys(details).length) details.body = 'is invalid';
  return details;
}
