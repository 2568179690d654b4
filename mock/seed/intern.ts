// Shares equal strings across the rows of a seed: provider ids, names, birth dates, phones and street lines repeat
// thousands of times in a large seed, and each parsed copy would cost its own bytes. One table per property name,
// so that the fields whose values never repeat (ids, emails, timestamps) stop being remembered after a sample of them
// instead of filling a shared table before the repeating ones are seen. The tables live only while a seed is read.

/** Values longer than this are kept as they are (free text: rarely equal, costly to hash). */
const MAX_LENGTH = 64;
/** Values of one property remembered at most. */
const MAX_PER_PROPERTY = 1 << 16;
/** After this many distinct values, a property that has repeated less than one in SPARSE stops being interned. */
const SAMPLE = 4096;
const SPARSE = 16;

interface Table {
  values: Map<string, string>;
  hits: number;
  off: boolean;
}

/** An interner: replaces, in place, each string of a parsed value by an equal one seen before. Returns the value. */
export function createInterner(): <T>(value: T) => T {
  const tables = new Map<string, Table>();
  const table = (key: string) => {
    let t = tables.get(key);
    if (!t) tables.set(key, (t = { values: new Map(), hits: 0, off: false }));
    return t;
  };
  const string = (t: Table, s: string): string => {
    if (t.off || s.length > MAX_LENGTH) return s;
    const seen = t.values.get(s);
    if (seen !== undefined) return t.hits++, seen;
    const n = t.values.size;
    if (n >= MAX_PER_PROPERTY) return s;
    if (n >= SAMPLE && t.hits * SPARSE < n) {
      t.off = true;
      t.values = new Map();
      return s;
    }
    t.values.set(s, s);
    return s;
  };
  const walk = (v: unknown, t: Table): unknown => {
    if (typeof v === 'string') return string(t, v);
    if (v && typeof v === 'object')
      if (Array.isArray(v)) for (let i = 0; i < v.length; i++) v[i] = walk(v[i], t);
      else
        for (const k in v) {
          // An own "__proto__" (JSON.parse makes one) would be assigned through the prototype setter: left alone.
          if (k !== '__proto__') (v as Record<string, unknown>)[k] = walk((v as Record<string, unknown>)[k], table(k));
        }
    return v;
  };
  const top = table('');
  return <T>(value: T) => walk(value, top) as T;
}
