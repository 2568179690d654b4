// Response-body validation, compiled once from generated/openapi.json (ajv, JSON Schema 2020-12).
// The documented profile validates against a relaxed copy of the bundle: every schema node that carries
// `x-assumption` loses what the kit chose there, so an assumption can never fail a run unless `--profile all` asks
// for it. The mark says what it covers: `x-assumption-keywords` lists the keywords the kit chose (closure, a header's
// integer form, RFC 3339's `format`, ...), and only they go; a mark without that list concerns the whole node, which
// keeps only its shape (type, properties, items, refs), and an object's fields may then also be null (which fields
// are present, and whether an unset one is absent or null, is the kit's reading: GEN-011). `x-documented-required`
// names the fields the document itself requires: they stay required, and non-null, in either case.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, bundleRef, loadBundle } from './bundle.ts';
import type { JsonObject } from './json-pointer.ts';
import { relaxBundle } from './relax.ts';

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

const bundled = new Map<Profile, SchemaValidator>();

export class SchemaValidator {
  private readonly ajv: ReturnType<typeof createAjv>;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(
    doc: JsonObject,
    readonly profile: Profile,
  ) {
    this.ajv = createAjv((profile === 'all' ? doc : relaxBundle(doc)) as JsonObject);
  }

  /**
   * The validator of the bundled contract in a profile, compiled once a process: every run of a process validates
   * against the same bundle, and compiling its schemas again took a run some 150 ms of CPU.
   */
  static ofBundle(profile: Profile): SchemaValidator {
    let v = bundled.get(profile);
    if (!v) bundled.set(profile, (v = new SchemaValidator(loadBundle(), profile)));
    return v;
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
