// Fault path globs: the same matches as the regular expression they replace (`*` = [^/]+, `**` = .*), on every
// pattern and path of a small alphabet; and the backtracking worst case found by a hostile probe (`/**a**a**a**a`
// against a long run of `a` that does not end in one) answered at once, armed through the control API.
import { describe, expect, it } from 'vitest';
import { createMock } from '../in-process/node.ts';
import { mulberry32 } from '../../spec/runtime/prng.ts';
import { compileGlob, globMatches } from './glob.ts';

/** The matcher this one replaced (backtracking): the reference for what matches. */
function reference(pattern: string, path: string): boolean {
  const literal = (s: string) => s.replace(/[.+?^$()|[\]\\{}]/g, '\\$&');
  const re = pattern
    .split('**')
    .map((part) => part.split('*').map(literal).join('[^/]+'))
    .join('.*');
  return new RegExp(`^${re}$`).test(path);
}

/** A second reference for long patterns (the RegExp backtracks for minutes there): matching by memoized recursion. */
function memoized(pattern: string, path: string): boolean {
  const memo = new Map<number, boolean>();
  const at = (i: number, j: number): boolean => {
    const k = i * (path.length + 1) + j;
    let r = memo.get(k);
    if (r !== undefined) return r;
    if (i === pattern.length) r = j === path.length;
    else if (pattern.startsWith('**', i)) r = at(i + 2, j) || (j < path.length && at(i, j + 1));
    else if (pattern[i] === '*') {
      // One or more characters of one segment.
      r = false;
      for (let e = j + 1; e <= path.length && path[e - 1] !== '/' && !r; e++) r = at(i + 1, e);
    } else r = j < path.length && path[j] === pattern[i] && at(i + 1, j + 1);
    memo.set(k, r);
    return r;
  };
  return at(0, 0);
}

/** Every string of `alphabet` up to `max` characters. */
function* strings(alphabet: string, max: number): Generator<string> {
  yield '';
  let layer = [''];
  for (let n = 1; n <= max; n++) {
    layer = layer.flatMap((s) => [...alphabet].map((ch) => s + ch));
    yield* layer;
  }
}

describe('fault path globs', () => {
  it('match exactly what the regular expression matched', () => {
    const paths = [...strings('a/', 5)];
    let compared = 0;
    for (const pattern of strings('a/*', 5)) {
      const glob = compileGlob(pattern);
      for (const path of paths) {
        expect(globMatches(glob, path), `${pattern} vs ${path}`).toBe(reference(pattern, path));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(20_000);
  });

  it('match what a memoized recursive matcher says on patterns past 32 positions (several words of bits)', () => {
    const random = mulberry32(42);
    const pick = (alphabet: string, n: number) =>
      Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    let matched = 0;
    for (let i = 0; i < 3000; i++) {
      const pattern = `/${pick('aab/**', 20 + Math.floor(random() * 140))}`;
      // Paths near a match: the pattern with its stars filled in, then a few characters changed.
      const filled = pattern
        .replace(/\*\*/g, () => pick('ab/', Math.floor(random() * 4)))
        .replace(/\*/g, () => pick('ab', 1 + Math.floor(random() * 3)));
      const path = random() < 0.5 ? filled : [...filled].map((c) => (random() < 0.03 ? pick('ab/', 1) : c)).join('');
      const expected = memoized(pattern, path);
      expect(globMatches(compileGlob(pattern), path), `${pattern} vs ${path}`).toBe(expected);
      if (expected) matched++;
    }
    expect(matched).toBeGreaterThan(500);
  });

  it('read * as one segment and ** as the rest', () => {
    const m = (p: string, path: string) => globMatches(compileGlob(p), path);
    expect(m('/patients/*', '/patients/42')).toBe(true);
    expect(m('/patients/*', '/patients/42/documents')).toBe(false);
    expect(m('/patients/*', '/patients/')).toBe(false);
    expect(m('/patients/**', '/patients/42/documents')).toBe(true);
    expect(m('/patients/**', '/patients/')).toBe(true);
    expect(m('/**/documents', '/patients/42/documents')).toBe(true);
    expect(m('/providers', '/providers')).toBe(true);
    expect(m('/providers', '/providers/x')).toBe(false);
    // A position carried into the next word of bits by a step that may match nothing (`**` as step 31).
    expect(m(`/${'a'.repeat(30)}**b`, `/${'a'.repeat(30)}b`)).toBe(true);
    expect(m(`/${'a'.repeat(29)}*/b`, `/${'a'.repeat(30)}/b`)).toBe(true);
  });

  it('compiled with `under`, match a path as given or under it, in one pass', () => {
    const under = (p: string, path: string) => globMatches(compileGlob(p, '/ext-api/v1'), path);
    expect(under('/**/patients', '/patients')).toBe(true); // only as /ext-api/v1/patients
    expect(under('/patients/*', '/patients/42')).toBe(true); // only as given
    expect(under('/ext-api/*/patients', '/patients')).toBe(true);
    expect(under('/ext-api/*/patients', '/providers')).toBe(false);
    expect(under('/**/documents', '/patients/42')).toBe(false);
    const random = mulberry32(7);
    const pick = (alphabet: string, n: number) =>
      Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (let i = 0; i < 2000; i++) {
      const pattern = `/${pick('ab/*x', 1 + Math.floor(random() * 60))}`;
      const path = `/${pick('ab/', Math.floor(random() * 40))}`;
      expect(under(pattern, path), `${pattern} vs ${path}`).toBe(memoized(pattern, path) || memoized(pattern, `/ext-api/v1${path}`));
    }
  });

  it('refuse by their literal ends first and agree with the reference across them (non-ASCII, literal past `under`)', () => {
    const under = (p: string, path: string) => globMatches(compileGlob(p, '/ext-api/v1'), path);
    expect(under('/ext-api/v1/patients/*', '/patients/42')).toBe(true); // a literal start longer than `under`
    expect(under('/ext-api/v2/patients/*', '/patients/42')).toBe(false);
    expect(under('/ext-api/v1/patients/*', '/ext-api/v1/patients/42')).toBe(true);
    expect(under('/ext-*/v1/patients', '/patients')).toBe(true); // a literal end longer than the path
    expect(under('/ext-api/v1/patients', '/patients')).toBe(true);
    expect(under('/ext-*/v2/patients', '/patients')).toBe(false);
    expect(under('/**/é', '/patients/é')).toBe(true);
    expect(under('/*é*/x', '/aéb/x')).toBe(true);
    expect(under('/*é*/x', '/aeb/x')).toBe(false);
    const random = mulberry32(11);
    const pick = (alphabet: string, n: number) =>
      Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    let matched = 0;
    for (let i = 0; i < 3000; i++) {
      const pattern = `/${pick('aé/*', 1 + Math.floor(random() * 12))}`;
      const path = `/${pick('aé/', Math.floor(random() * 10))}`;
      const expected = memoized(pattern, path) || memoized(pattern, `/ext-api/v1${path}`);
      expect(under(pattern, path), `${pattern} vs ${path}`).toBe(expected);
      if (expected) matched++;
    }
    expect(matched).toBeGreaterThan(50);
    // Patterns that begin inside `/ext-api/v1` (some of its characters starred), so their literal ends cross into it.
    const base = '/ext-api/v1';
    let crossed = 0;
    for (let i = 0; i < 3000; i++) {
      const head = [...base.slice(0, 1 + Math.floor(random() * base.length))].map((c) => (random() < 0.2 ? '*' : c)).join('');
      const pattern = `${head}${pick('a/*', Math.floor(random() * 6))}`;
      const path = `/${pick('a/', Math.floor(random() * 6))}`;
      const expected = memoized(pattern, path) || memoized(pattern, `${base}${path}`);
      expect(under(pattern, path), `${pattern} vs ${path}`).toBe(expected);
      if (expected) crossed++;
    }
    expect(crossed).toBeGreaterThan(50);
  });

  it('take time linear in the path on the worst case of backtracking', () => {
    const glob = compileGlob('/**a**a**a**a**a**a');
    const path = `/${'a'.repeat(100_000)}b`;
    const t0 = performance.now();
    expect(globMatches(glob, path)).toBe(false);
    // A backtracking matcher needs minutes for 400 characters; this is 100,000. Bound set for a loaded shared host.
    expect(performance.now() - t0).toBeLessThan(2_000);
  });

  it('armed through POST /__mock/faults, the probe’s 800-character GET is answered at once', async () => {
    const mock = await createMock();
    try {
      const arm = await mock.fetch(`${mock.controlUrl}/faults`, {
        method: 'POST',
        body: JSON.stringify({ kind: 'http', method: 'GET', path: '/**a**a**a**a', status: 503, count: null }),
      });
      expect(arm.status).toBe(201);
      await mock.fetch(`${mock.controlUrl}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'drop', path: '/**a**a**a**a' }) });
      const t0 = performance.now();
      const r = await mock.fetch(`${mock.baseUrl}/${'a'.repeat(800)}b`);
      expect(r.status).toBe(404); // neither fault matches: the path's own answer
      expect(performance.now() - t0).toBeLessThan(2_000);
      // A path that matches: the drop first (network faults act before the API), then the http fault, every time.
      await expect(mock.fetch(`${mock.baseUrl}/${'a'.repeat(800)}`)).rejects.toBeInstanceOf(TypeError);
      expect((await mock.fetch(`${mock.baseUrl}/${'a'.repeat(800)}`)).status).toBe(503);
    } finally {
      await mock.close();
    }
  });
});
