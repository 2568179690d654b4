// Response-body validation, compiled once from generated/openapi.json (ajv, JSON Schema 2020-12).
// The documented profile validates against a relaxed copy of the bundle: every schema node that carries
// `x-assumption` loses what the kit chose there, so an assumption can never fail a run unless `--profile all` asks
// for it. The mark says what it covers: `x-assumption-keywords` lists the keywords the kit chose (closure, a header's
// integer form, RFC 3339's `format`, ...), and only they go; a mark without that list concerns the whole node, which
// keeps only its shape (type, properties, items, refs), and an object's fields may then also be null (which fields
// are present, and whether an unset one is absent or null, is the kit's reading: GEN-011). `x-documented-required`
// names the fields the document itself requires: they stay required, and non-null, in either case.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, bundleRef } from '../spec/runtime/bundle.ts';
import type { Json, JsonObject } from '../spec/runtime/json-pointer.ts';

/** Keywords a wholly relaxed node keeps: its structure. Everything else on it (bounds, enum, format, required, ...) goes. */
const KEEP = new Set(['type', 'properties', 'items', '$ref', 'allOf', 'description', 'title', 'x-assumption']);
/** Objects that are not schemas even when they carry x-assumption (operations, parameters, responses, headers). */
const NOT_SCHEMA = ['in', 'responses', 'content', 'headers', 'operationId'];
export const ASSUMED_KEYWORDS = 'x-assumption-keywords';
/** On a marked object: the fields the document says are always returned, which stay required when it is relaxed. */
const DOCUMENTED_REQUIRED = 'x-documented-required';

/** Did the kit assume this keyword of the schema node (its mark lists it, or concerns the whole node)? */
export function assumedKeyword(node: JsonObject, keyword: string): boolean {
  if (!('x-assumption' in node)) return false;
  const listed = node[ASSUMED_KEYWORDS];
  return !Array.isArray(listed) || listed.includes(keyword);
}

/** A schema node's `type` as a list (none when it names none). */
export const schemaTypes = (node: JsonObject): string[] =>
  Array.isArray(node.type) ? (node.type as string[]) : node.type ? [String(node.type)] : [];

const orNull = (schema: Json): Json => ({ anyOf: [schema, { type: 'null' }] });

function relaxNode(node: JsonObject): JsonObject {
  const listed = node[ASSUMED_KEYWORDS];
  // Fields the document itself says are always there survive any relaxation, and may not be null.
  const documented = Array.isArray(node[DOCUMENTED_REQUIRED]) ? (node[DOCUMENTED_REQUIRED] as string[]) : [];
  const keepRequired = (out: JsonObject) => (documented.length ? { ...out, required: documented } : out);
  if (Array.isArray(listed)) return keepRequired(Object.fromEntries(Object.entries(node).filter(([k]) => !listed.includes(k))));
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) if (KEEP.has(k)) out[k] = v;
  if (out.properties && typeof out.properties === 'object' && !Array.isArray(out.properties))
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, documented.includes(k) ? v : orNull(v)]));
  return keepRequired(out);
}

export function relaxBundle(node: Json): Json {
  if (Array.isArray(node)) return node.map(relaxBundle);
  if (!node || typeof node !== 'object') return node;
  const copy: JsonObject = {};
  for (const [k, v] of Object.entries(node)) copy[k] = relaxBundle(v);
  const isSchema = 'x-assumption' in copy && !NOT_SCHEMA.some((k) => k in copy);
  return isSchema ? relaxNode(copy) : copy;
}

export type Profile = 'documented' | 'all';

export interface SchemaError {
  /** JSON pointer into the value ('' for the root). */
  instancePath: string;
  keyword: string;
  /** The field an additionalProperties error names. */
  property?: string;
  line: string;
}

const propertyOf = (e: ErrorObject) => (e.params as { additionalProperty?: string }).additionalProperty;
const lineOf = (e: ErrorObject) => {
  const extra = propertyOf(e);
  return `${e.instancePath || '(root)'} ${e.message ?? ''}${extra ? ` (${extra})` : ''}`.trim();
};

export class SchemaValidator {
  private readonly ajv: ReturnType<typeof createAjv>;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(
    doc: JsonObject,
    readonly profile: Profile,
  ) {
    this.ajv = createAjv((profile === 'all' ? doc : relaxBundle(doc)) as JsonObject);
  }

  private compile(pointer: string): ValidateFunction {
    const compiled = this.ajv.getSchema(bundleRef(pointer));
    if (!compiled) throw new Error(`no schema at ${pointer}`);
    this.cache.set(pointer, compiled);
    return compiled;
  }

  /** Each error of a value against the schema at a pointer: where in the value, the keyword, and its line as validate() words it. */
  errors(pointer: string, value: unknown): SchemaError[] {
    const fn = this.cache.get(pointer) ?? this.compile(pointer);
    if (fn(value)) return [];
    return (fn.errors ?? []).map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, property: propertyOf(e), line: lineOf(e) }));
  }

  /**
   * Validates a value against the schema at a pointer of the bundle; returns error lines (empty when valid),
   * only those of `keywords` when given (e.g. additionalProperties and required: is every object closed).
   */
  validate(pointer: string, value: unknown, keywords?: string[]): string[] {
    const fn = this.cache.get(pointer) ?? this.compile(pointer);
    if (fn(value)) return [];
    return (fn.errors ?? [])
      .filter((e) => !keywords || keywords.includes(e.keyword))
      .slice(0, 8)
      .map(lineOf);
  }
}
