// The judge's home (docs: "One judge, three ways in"): judge/ is imported by mock/ and conformance/, and those two
// import nothing of each other outside their test harnesses (tests, */testing/), in either direction; the judge
// imports nothing of either (the contract it reads is spec/runtime/'s, the contract runtime everything shares).
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from '../scripts/testing/imports.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const harness = (rel: string) => /\.test\.ts$|\.test-d\.ts$|(^|\/)testing\//.test(rel);

/** Each source file of a top-level folder (harnesses aside) and the top-level folders its relative imports reach. */
function reaches(folder: string): Array<{ file: string; folders: string[] }> {
  return sourceFiles(resolve(ROOT, folder))
    .map((abs) => ({ abs, rel: relative(ROOT, abs).split('\\').join('/') }))
    .filter(({ rel }) => !harness(rel))
    .map(({ abs, rel }) => ({
      file: rel,
      folders: importsOf(readFileSync(abs, 'utf8')).map((s) => relative(ROOT, resolve(dirname(abs), s)).split(/[\\/]/)[0]!),
    }));
}
const importing = (from: string, to: string) =>
  reaches(from)
    .filter((f) => f.folders.includes(to))
    .map((f) => f.file);

describe('the boundaries of the judge, the mock and the suite', () => {
  it('mock/ imports nothing of conformance/, and conformance/ nothing of mock/, outside their test harnesses', () => {
    expect(importing('mock', 'conformance')).toEqual([]);
    expect(importing('conformance', 'mock')).toEqual([]);
  });

  it('both import the judge, which imports nothing of either, nor does the contract runtime it reads', () => {
    expect(importing('mock', 'judge').length).toBeGreaterThan(0);
    expect(importing('conformance', 'judge').length).toBeGreaterThan(0);
    expect(importing('judge', 'mock')).toEqual([]);
    expect(importing('judge', 'conformance')).toEqual([]);
    expect(importing('spec', 'conformance')).toEqual([]);
    expect(importing('spec', 'mock')).toEqual([]);
    expect(importing('spec', 'judge')).toEqual([]);
  });

  it("what the mock's code reaches, import after import, holds no file of conformance/ (its package carries none)", () => {
    const seen = new Set<string>();
    const visit = (abs: string) => {
      if (seen.has(abs)) return;
      seen.add(abs);
      for (const spec of importsOf(readFileSync(abs, 'utf8'))) visit(resolve(dirname(abs), spec));
    };
    for (const abs of sourceFiles(resolve(ROOT, 'mock'))) if (!harness(relative(ROOT, abs))) visit(abs);
    const reached = [...seen].map((abs) => relative(ROOT, abs).split('\\').join('/'));
    expect(reached.length).toBeGreaterThan(100);
    expect(reached.filter((f) => f.startsWith('conformance/'))).toEqual([]);
  });

  it('sees a harness as one: a test or a testing/ helper may cross', () => {
    expect(['mock/upstream/planted.test.ts', 'conformance/testing/check-file.ts', 'mock/server.ts'].map(harness)).toEqual([
      true,
      true,
      false,
    ]);
  });
});
