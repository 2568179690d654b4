// The interner changes no value: rows read with it are what JSON.parse gives, own "__proto__" keys included.
import { describe, expect, it } from 'vitest';
import { createInterner } from './intern.ts';

describe('createInterner', () => {
  it('leaves every value as it was, however many rows repeat or not', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      id: `id-${i}`,
      city: ['Austin', 'Madison'][i % 2],
      tags: ['a', `t${i % 7}`],
      address: { line1: `${i % 50} Oak St`, country: 'US' },
      n: i,
      none: null,
    }));
    const intern = createInterner();
    const text = JSON.stringify(rows);
    expect(JSON.parse(text).map((r: unknown) => intern(r))).toStrictEqual(JSON.parse(text));
  });
  it('keeps an own "__proto__" key as an own property', () => {
    const text = '{"__proto__": {"polluted": true}, "a": "x"}';
    const got = createInterner()(JSON.parse(text));
    expect(got).toStrictEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
  });
});
