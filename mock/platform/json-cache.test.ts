import { describe, expect, it } from 'vitest';
import { createJsonCache, MAX_CACHED_TEXT } from './json-cache.ts';

describe('JSON cache', () => {
  it('serializes a row once and answers its text after', () => {
    let calls = 0;
    const cache = createJsonCache<{ id: string }>((r) => (calls++, JSON.stringify(r)));
    const row = { id: '1' };
    expect(cache.json(row)).toBe('{"id":"1"}');
    expect(cache.json(row)).toBe('{"id":"1"}');
    expect(calls).toBe(1);
  });
  it('a new row object (a changed row is always one) gets its own text', () => {
    const cache = createJsonCache<{ id: string; name: string }>();
    const row = { id: '1', name: 'A' };
    cache.json(row);
    expect(cache.json({ ...row, name: 'B' })).toBe('{"id":"1","name":"B"}');
  });
  it('keeps at most two generations: a row not read for `max` others is serialized again', () => {
    let calls = 0;
    const cache = createJsonCache<{ id: number }>((r) => (calls++, String(r.id)), 2);
    const rows = [0, 1, 2, 3, 4].map((id) => ({ id }));
    for (const r of rows.slice(0, 3)) cache.json(r); // 0,1 fill a generation; 2 starts the next
    expect(calls).toBe(3);
    cache.json(rows[0]!); // older generation: found, moved forward, not serialized
    expect(calls).toBe(3);
    for (const r of rows.slice(3)) cache.json(r); // 3 fills; 4 drops the generation holding 1
    cache.json(rows[1]!);
    expect(calls).toBe(6);
  });
  it('a generation also ends at its characters, and a text past MAX_CACHED_TEXT is never kept', () => {
    let calls = 0;
    const cache = createJsonCache<{ text: string }>((r) => (calls++, r.text), 100, 10);
    const rows = ['aaaa', 'bbbb', 'cccc', 'dddd', 'eeee'].map((text) => ({ text }));
    // 10 characters a generation: a and b fill one, c starts the next, e a third (a and b dropped), by characters
    // alone (100 rows would fit).
    for (const r of rows) cache.json(r);
    cache.json(rows[3]!);
    expect(calls).toBe(5);
    cache.json(rows[0]!);
    expect(calls).toBe(6);
    const huge = { text: 'x'.repeat(MAX_CACHED_TEXT + 1) };
    const big = createJsonCache<{ text: string }>((r) => (calls++, r.text));
    big.json(huge);
    big.json(huge);
    expect(calls).toBe(8);
  });
});
