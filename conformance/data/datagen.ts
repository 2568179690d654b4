// Positive and negative request bodies derived from the spec's request schemas (never written by hand):
// a minimal and a full valid body, then one invalid body per constraint (unknown property, missing required,
// wrong type, out of bounds). A case is "assumed" when the constraint it breaks exists only by an
// x-assumption: the relaxed (documented-profile) schema would accept it.
import { randomUUID } from 'node:crypto';
import type { Contract } from '../../spec/runtime/contract.ts';
import type { JsonObject, Json } from '../../spec/runtime/json-pointer.ts';
import { SchemaValidator } from '../../spec/runtime/schemas.ts';
import { ASSUMED_KEYWORDS, assumedKeyword, schemaTypes as types } from '../../spec/runtime/relax.ts';

export type CaseKind = 'unknown-property' | 'missing-required' | 'wrong-type' | 'out-of-bounds';

export interface BodyCase {
  kind: CaseKind;
  field: string;
  label: string;
  body: Record<string, unknown>;
  assumed: boolean;
}

type Schema = JsonObject;

export class BodyGenerator {
  private readonly strict: SchemaValidator;
  private readonly relaxed: SchemaValidator;

  constructor(private readonly contract: Contract) {
    this.strict = new SchemaValidator(contract.doc, 'all');
    this.relaxed = new SchemaValidator(contract.doc, 'documented');
  }

  private s(node: Json | undefined): Schema {
    return (this.contract.deref(node) ?? {}) as Schema;
  }

  /** A value valid for one schema. */
  value(schema: Json | undefined, name: string, bindings: Record<string, unknown>, full: boolean): unknown {
    if (name in bindings) return bindings[name];
    const s = this.s(schema);
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum)) return s.enum[0];
    // A date-time sent as valid lies ahead (a week): an appointment in the past may be refused (appointment-in-the-future).
    if (s.format === 'date-time') return new Date(Date.now() + 7 * 86_400_000).toISOString();
    if (Array.isArray(s.examples) && s.examples.length && typeof s.examples[0] !== 'object') return s.examples[0];
    for (const k of ['anyOf', 'oneOf'] as const)
      if (Array.isArray(s[k])) {
        const branch = (s[k] as Json[]).map((b) => this.s(b)).find((b) => !types(b).includes('null') || types(b).length > 1);
        if (branch && (branch.type || branch.properties || branch.enum || branch.format)) return this.value(branch, name, bindings, full);
      }
    const t = types(s).filter((x) => x !== 'null')[0] ?? (s.properties ? 'object' : 'string');
    if (t === 'object') return this.object(s, bindings, full);
    if (t === 'array') return [];
    if (t === 'boolean') return true;
    if (t === 'integer' || t === 'number') return typeof s.minimum === 'number' ? Math.max(s.minimum, 1) : 1;
    switch (s.format) {
      case 'date':
        return '1990-04-12';
      case 'uuid':
        return randomUUID();
      case 'uri':
        return 'https://example.org/conformance';
      case 'email':
        return 'conformance@example.org';
    }
    if (typeof s.pattern === 'string' && /\\d/.test(s.pattern)) return '1234567890';
    const min = typeof s.minLength === 'number' ? s.minLength : 1;
    return 'conformance'.padEnd(min, 'x').slice(0, typeof s.maxLength === 'number' ? s.maxLength : undefined);
  }

  object(schema: Schema, bindings: Record<string, unknown>, full: boolean): Record<string, unknown> {
    const s = this.s(schema);
    const props = (s.properties ?? {}) as Record<string, Json>;
    const want = new Set<string>((s.required as string[] | undefined) ?? []);
    const firstGroup = (s.anyOf as Schema[] | undefined)?.find((b) => Array.isArray(b.required));
    for (const r of (firstGroup?.required as string[] | undefined) ?? []) want.add(r);
    for (const k of Object.keys(bindings)) if (k in props) want.add(k);
    if (full) for (const k of Object.keys(props)) want.add(k);
    const out: Record<string, unknown> = {};
    for (const k of want) if (k in props) out[k] = this.value(props[k], k, bindings, full);
    return out;
  }

  /** Does the strict contract accept this body for the schema at a pointer? */
  isValid(pointer: string, body: unknown): boolean {
    return this.strict.validate(pointer, body).length === 0;
  }

  /** Minimal and full valid bodies for the schema at a pointer (each checked against the strict schema). */
  valid(
    pointer: string,
    bindings: Record<string, unknown>,
    fresh: () => Record<string, unknown> = () => ({}),
  ): Array<{ label: string; body: Record<string, unknown>; assumed: boolean }> {
    const s = this.s({ $ref: pointer } as unknown as Json);
    const out = [];
    for (const full of [false, true]) {
      const body = this.object(s, { ...bindings, ...fresh() }, full);
      if (this.strict.validate(pointer, body).length) continue;
      // Which fields are required is the kit's reading where the object's mark covers `required`: a body of only
      // those rests on it (another reading may require more), a body of every field does not.
      // Which fields a body may hold at all is the kit's reading where the mark lists `properties` (PATCH patient).
      const listsFields = Array.isArray(s[ASSUMED_KEYWORDS]) && assumedKeyword(s, 'properties');
      const assumed = this.usesAssumption(s, body) || (!full && assumedKeyword(s, 'required')) || listsFields;
      out.push({ label: full ? 'every field' : 'required fields', body, assumed });
      // A field whose inner fields are the kit's reading (address: "Inner structure of address: not shown") may be
      // refused by a server that reads them otherwise: the full body rests on them, and a body without those fields
      // is the one every reading takes (spec/readings.yaml).
      const inner = full ? this.innerAssumed(s, body) : [];
      if (!inner.length) continue;
      out[out.length - 1]!.assumed = true;
      const rest = { ...Object.fromEntries(Object.entries(body).filter(([k]) => !inner.includes(k))), ...fresh() };
      if (!this.strict.validate(pointer, rest).length)
        out.push({
          label: `every field but ${inner.join(', ')} (inner fields not shown)`,
          body: rest,
          assumed: this.usesAssumption(s, rest) || listsFields,
        });
    }
    return out;
  }

  /** The fields of a body whose own fields the kit chose (their node's `properties` are an assumption). */
  private innerAssumed(s: Schema, body: Record<string, unknown>): string[] {
    const props = (s.properties ?? {}) as Record<string, Json>;
    return Object.keys(body).filter((k) => {
      const node = this.s(props[k]);
      return node.properties !== undefined && assumedKeyword(node, 'properties');
    });
  }

  /** Does the body rely on a node the spec only assumed (the object itself, or a field's schema)? */
  private usesAssumption(s: Schema, body: Record<string, unknown>): boolean {
    // The object's own mark concerns which fields are required or allowed; a body of plain documented fields is
    // documented whatever that mark says. A field whose schema is assumed makes the body assumed.
    // A mark that lists its keywords (x-assumption-keywords) only narrows what is valid: it never makes a field exist.
    const props = (s.properties ?? {}) as Record<string, Json>;
    return Object.keys(body).some((k) => marksWholeNode(this.s(props[k])));
  }

  /**
   * Invalid bodies, each breaking one constraint of the schema at a pointer, built on a valid base body. `asSent` gives
   * the body as it will be sent, for judging what it breaks: a body that still holds placeholders (exploration's
   * references to earlier answers) is invalid everywhere until they are filled, and would be marked documented.
   */
  invalid(
    pointer: string,
    base: Record<string, unknown>,
    fresh: () => Record<string, unknown>,
    asSent: (body: Record<string, unknown>) => unknown = (b) => b,
  ): BodyCase[] {
    const s = this.s({ $ref: pointer } as unknown as Json);
    const cases: Array<Omit<BodyCase, 'assumed'>> = [];
    const with_ = (path: string[], v: unknown | typeof DROP) => setPath({ ...structuredClone(base), ...fresh() }, path, v);

    cases.push({
      kind: 'unknown-property',
      field: 'crc_unknown_field',
      label: 'an unknown property',
      body: { ...structuredClone(base), ...fresh(), crc_unknown_field: 'x' },
    });
    for (const r of (s.required as string[] | undefined) ?? [])
      cases.push({ kind: 'missing-required', field: r, label: `without required ${r}`, body: with_([r], DROP) });
    const groups = (s.anyOf as Schema[] | undefined)?.filter((b) => Array.isArray(b.required));
    if (groups?.length) {
      const names = groups.flatMap((g) => g.required as string[]);
      let b: Record<string, unknown> = { ...structuredClone(base), ...fresh() };
      for (const n of names) b = setPath(b, [n], DROP);
      cases.push({ kind: 'missing-required', field: names.join('|'), label: `without any of ${names.join(', ')}`, body: b });
    }
    this.fieldCases(s, [], cases, with_);
    return cases
      .filter((c) => this.strict.validate(pointer, asSent(c.body)).length > 0) // must really be invalid
      .map((c) => ({ ...c, assumed: c.kind !== 'unknown-property' && this.relaxed.validate(pointer, asSent(c.body)).length === 0 }));
  }

  private fieldCases(
    s: Schema,
    path: string[],
    cases: Array<Omit<BodyCase, 'assumed'>>,
    with_: (path: string[], v: unknown) => Record<string, unknown>,
  ): void {
    for (const [name, raw] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
      const p = this.s(raw);
      const at = [...path, name];
      const field = at.join('.');
      const add = (kind: CaseKind, label: string, v: unknown) =>
        cases.push({ kind, field, label: `${field} ${label}`, body: with_(at, v) });
      const t = types(p).filter((x) => x !== 'null');
      const first = t[0] ?? (p.properties ? 'object' : p.enum || p.const !== undefined ? 'string' : undefined);
      // A number for a date or date-time is epoch time, and for a digit pattern the same digits, to a lenient parser:
      // those take an object, which no parser reads as a string.
      if (p.format || p.pattern) add('wrong-type', 'as an object', { value: 12345 });
      else if (first === 'string') add('wrong-type', 'as a number', 12345);
      if (first === 'integer' || first === 'number') add('wrong-type', 'as a string', 'not-a-number');
      if (first === 'integer') add('wrong-type', 'as a fraction', 1.5);
      if (first === 'boolean') add('wrong-type', 'as a string', 'perhaps'); // not 'yes', which lenient parsers read as true
      if (first === 'object') add('wrong-type', 'as a string', 'not-an-object');
      if (typeof p.minLength === 'number' && p.minLength > 0)
        add('out-of-bounds', `shorter than ${p.minLength}`, 'x'.repeat(p.minLength - 1));
      if (typeof p.maxLength === 'number') add('out-of-bounds', `longer than ${p.maxLength}`, 'x'.repeat(p.maxLength + 1));
      if (typeof p.minimum === 'number') add('out-of-bounds', `below ${p.minimum}`, p.minimum - 1);
      if (typeof p.maximum === 'number') add('out-of-bounds', `above ${p.maximum}`, p.maximum + 1);
      if (Array.isArray(p.enum)) add('out-of-bounds', 'outside its enum', 'NOT_A_DOCUMENTED_VALUE');
      if (typeof p.pattern === 'string') add('out-of-bounds', `not matching ${p.pattern}`, 'not-matching!');
      if (p.format === 'date' || p.format === 'date-time' || p.format === 'uuid')
        add('out-of-bounds', `not a ${p.format}`, 'not-a-valid-value');
      if (first === 'object' && p.properties && path.length === 0) this.fieldCases(p, at, cases, with_);
    }
  }
}

/** Does the node, or a schema inside it (refs not followed), carry an x-assumption about the whole node? */
function marksWholeNode(node: Json | undefined): boolean {
  if (Array.isArray(node)) return node.some(marksWholeNode);
  if (!node || typeof node !== 'object') return false;
  if ('x-assumption' in node && !(ASSUMED_KEYWORDS in node)) return true;
  return Object.values(node).some(marksWholeNode);
}

const DROP = Symbol('drop');

function setPath(obj: Record<string, unknown>, path: string[], v: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return obj;
  if (!rest.length) {
    if (v === DROP) delete obj[head];
    else obj[head] = v;
    return obj;
  }
  const child = obj[head] && typeof obj[head] === 'object' ? (obj[head] as Record<string, unknown>) : {};
  obj[head] = setPath(child, rest, v);
  return obj;
}
