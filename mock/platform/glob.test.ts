// Fault path globs: the same matches as the regular expression they replace (`*` = [^/]+, `**` = .*), on every
// pattern and path of a small alphabet; and the backtracking worst case found by a hostile probe (`/**a**a**a**a`
// against a long run of `a` that does not end in one) answered at once, armed through the control API.
import { describe, expect, it } from 'vitest';
import { createMock } from '../in-process/node.ts';
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
