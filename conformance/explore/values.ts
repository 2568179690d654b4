// Positive values drawn from the contract's schemas: boundary lengths and numbers, any enum member, unicode
// and emoji, null where nullable, optional fields present and absent. A value at a bound or from an enum the kit only
// assumed (x-assumption), or free text the contract gives no form to, marks the draw `assumed`: another reading of the
// document may refuse it, so the documented profile never fails a server for refusing it as invalid.
import type { Contract } from '../../spec/runtime/contract.ts';
import type { Json, JsonObject } from '../../spec/runtime/json-pointer.ts';
import { assumedKeyword, schemaTypes as types } from '../../spec/runtime/relax.ts';
import type { Rng } from './prng.ts';

type Schema = JsonObject;

/** Texts beyond ASCII: where servers that assume one byte per character, or one code unit, break. */
const UNICODE_TEXTS = ['Zoë Ångström-Łukasz', '山田 太郎', 'Ñandú 🩺', '🧑‍⚕️👩🏽‍🔬', 'O’Brien — “quoted”'];

/** Code points, as JSON Schema counts a string's length. */
const cut = (text: string, max: number) => [...text].slice(0, max).join('');

export class ValueDraw {
  assumed = false;
  constructor(
    private readonly contract: Contract,
    private readonly rng: Rng,
  ) {}

  private s(node: Json | undefined): Schema {
    return (this.contract.deref(node) ?? {}) as Schema;
  }

  chance(p: number): boolean {
    return this.rng.chance(p);
  }

  private note(s: Schema, keyword: string): void {
    if (assumedKeyword(s, keyword)) this.assumed = true;
  }

  value(raw: Json | undefined): unknown {
    const s = this.s(raw);
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum)) {
      this.note(s, 'enum');
      return this.rng.pick(s.enum);
    }
    const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined;
    if (Array.isArray(branches)) {
      const usable = branches.map((b) => this.s(b)).filter((b) => !(types(b).length === 1 && types(b)[0] === 'null'));
      if (usable.length < branches.length && this.rng.chance(0.2)) return null;
      const b = this.rng.pick(usable);
      // A branch that only adds a format to the node's own type (a date or a date-time) draws with the node's type.
      return this.value({ ...s, anyOf: undefined, oneOf: undefined, ...b } as unknown as Json);
    }
    const ts = types(s);
    if (ts.includes('null') && ts.length > 1 && this.rng.chance(0.2)) return null;
    const t = ts.filter((x) => x !== 'null')[0] ?? (s.properties ? 'object' : 'string');
    if (t === 'object') return this.object(s);
    if (t === 'array') return this.rng.chance(0.5) || !s.items ? [] : [this.value(s.items as Json)];
    if (t === 'boolean') return this.rng.chance(0.5);
    if (t === 'integer' || t === 'number') return this.number(s);
    return this.string(s);
  }

  private number(s: Schema): number {
    const min = typeof s.minimum === 'number' ? s.minimum : undefined;
    const max = typeof s.maximum === 'number' ? s.maximum : undefined;
    // Bounds are where servers break (the largest page size): each bound gets as many draws as the rest together.
    const choice = this.rng.int(4);
    if (choice === 0 && min !== undefined) return this.note(s, 'minimum'), min;
    if (choice >= 2 && max !== undefined) return this.note(s, 'maximum'), max;
    const lo = min ?? 1;
    const hi = max ?? lo + 2; // past the end of a list is a reading of its own (PAG-008)
    return lo + this.rng.int(hi - lo + 1);
  }

  private string(s: Schema): string {
    switch (s.format) {
      case 'date':
        return this.rng.pick(['1990-04-12', '2001-12-31', '1955-02-28', '2020-02-29']);
      case 'date-time':
        return new Date(Date.UTC(2031, this.rng.int(12), 1 + this.rng.int(28), this.rng.int(24), 15 * this.rng.int(4))).toISOString();
      case 'uuid':
        return ['xxxxxxxx', 'xxxx', '4xxx', '8xxx', 'xxxxxxxxxxxx']
          .map((p) => p.replace(/x/g, () => this.rng.int(16).toString(16)))
          .join('-');
      case 'email':
        return this.rng.pick(['explore@example.org', 'explore.test+1@example.org']);
      case 'uri':
        return 'https://example.org/explore';
    }
    if (typeof s.pattern === 'string') return /\\d/.test(s.pattern) ? String(1 + this.rng.int(9)).repeat(10) : '';
    // Free text the contract gives no form to (an email or a phone typed as a plain string): a server may well check
    // it against a form of its own, so refusing a drawn text is a reading the documented profile allows.
    this.assumed = true;
    const min = typeof s.minLength === 'number' ? s.minLength : 0;
    const max = typeof s.maxLength === 'number' ? s.maxLength : undefined;
    const choice = this.rng.int(4);
    if (choice === 0 && max !== undefined && max <= 4096) {
      this.note(s, 'maxLength');
      return cut(this.rng.pick(UNICODE_TEXTS).repeat(Math.ceil(max / 4)), max).padEnd(max, 'x');
    }
    if (choice === 1 && min > 0) {
      this.note(s, 'minLength');
      return 'e'.repeat(min);
    }
    const text = choice === 2 ? this.rng.pick(UNICODE_TEXTS) : `explore ${this.rng.int(1000)}`;
    return cut(text.padEnd(Math.max(min, 1), 'x'), max ?? Number.MAX_SAFE_INTEGER);
  }

  /** Required fields always, each optional one half the time; `fixed` values as given (undefined: left out). */
  object(raw: Json | Schema, fixed: Record<string, unknown> = {}): Record<string, unknown> {
    const s = this.s(raw as Json);
    const props = (s.properties ?? {}) as Record<string, Json>;
    const want = new Set<string>((s.required as string[] | undefined) ?? []);
    const groups = (s.anyOf as Schema[] | undefined)?.filter((b) => Array.isArray(b.required));
    if (groups?.length) for (const r of this.rng.pick(groups).required as string[]) want.add(r);
    for (const k of Object.keys(props)) if (this.rng.chance(0.5)) want.add(k);
    for (const k of Object.keys(fixed)) if (k in props) want.add(k);
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(props)) {
      if (!want.has(k) || (k in fixed && fixed[k] === undefined)) continue;
      out[k] = k in fixed ? fixed[k] : this.value(props[k]);
    }
    return out;
  }
}
