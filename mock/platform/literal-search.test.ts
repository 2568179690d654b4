// Linear substring search: one literal (KMP) finds what indexOf finds; several (Aho-Corasick) cover what every
// occurrence of any of them covers, merged where they overlap or touch; both on random texts of a small alphabet, where
// overlaps and near misses abound, and both in time linear in the text on the inputs that make indexOf slow.
import { describe, expect, it } from 'vitest';
import { literalIndex, literalsReplacer, replaceLiteral } from './literal-search.ts';
import { mulberry32 } from '../../spec/runtime/prng.ts';

const next = mulberry32(7);
const word = (max: number, alphabet = 'abc') =>
  Array.from({ length: 1 + Math.floor(next() * max) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');

/** The reference: mark every character any occurrence covers, then replace each marked run. */
function naive(text: string, patterns: string[], by: string): string {
  const covered = new Array<boolean>(text.length).fill(false);
  for (const p of patterns)
    for (let at = text.indexOf(p); at >= 0; at = text.indexOf(p, at + 1)) for (let k = at; k < at + p.length; k++) covered[k] = true;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (!covered[i]) out += text[i];
    else if (i === 0 || !covered[i - 1]) out += by;
  }
  return out;
}

describe('literal search', () => {
  it('literalIndex finds what indexOf finds', () => {
    for (let n = 0; n < 2000; n++) {
      const text = word(60);
      const pattern = word(6);
      const from = Math.floor(next() * 10);
      expect(literalIndex(pattern)(text, from), `${pattern} in ${text} from ${from}`).toBe(text.indexOf(pattern, from));
    }
    expect(replaceLiteral('abcabc', 'bc', '-')).toBe('a-a-');
  });

  it('literalsReplacer covers every occurrence, overlapping or adjacent ones as one stretch', () => {
    for (let n = 0; n < 2000; n++) {
      const text = word(80, n % 2 ? 'abc' : 'cab_');
      const patterns = Array.from({ length: 1 + Math.floor(next() * 4) }, () => word(5, n % 2 ? 'abc' : 'cab_'));
      // Every pattern starting with one character (the jump of the root) on the odd rounds too.
      const set = n % 3 ? patterns : patterns.map((p) => `c${p}`);
      expect(literalsReplacer(set, '#')(text), `${JSON.stringify(set)} in ${text}`).toBe(naive(text, set, '#'));
    }
  });

  it('runs in time linear in the text where indexOf and alternatives do not', () => {
    const text = 'a'.repeat(14_000);
    const long = `${'a'.repeat(1_000)}b${'a'.repeat(999)}`; // indexOf: about 7 ms here
    const keys = Array.from({ length: 20 }, (_, i) => `crk_${'a'.repeat(30)}${i}`);
    const started = performance.now();
    for (let i = 0; i < 20; i++) {
      expect(literalIndex(long)(text)).toBe(-1);
      literalsReplacer(keys, '#')(`crk_${'a'.repeat(14_000)}`);
      literalsReplacer(keys, '#')('crk_'.repeat(3_500));
    }
    expect(performance.now() - started).toBeLessThan(500); // about 10 ms here
  });
});
