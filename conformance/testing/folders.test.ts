// The folders of conformance/ keep to what their READMEs say they may import, and the suite never takes an expected
// value from the implementation it judges: no file imports mock/, tests and this folder's harnesses aside (they start
// the mock they run against). The root holds only the entry point.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SUITE = join(REPO, 'conformance');

/** What every folder may import: the contract runtime, the generated values and the one judge. */
const CONTRACT = ['spec/runtime/', 'generated/', 'judge/'];
/** Each folder's imports beyond CONTRACT (a folder ends in `/`, a file is named whole), as its README says. */
const ALLOWED: Record<string, string[]> = {
  run: ['conformance/'],
  target: ['conformance/target/', 'conformance/run/model.ts', 'conformance/run/run-deadline.ts', 'conformance/report/redact.ts'],
  report: [
    'conformance/report/',
    'conformance/checks/index.ts',
    'conformance/run/model.ts',
    'conformance/run/args.ts',
    'conformance/run/keys.ts',
    'conformance/run/durations.ts',
  ],
  data: ['conformance/data/'],
  checks: [
    'conformance/checks/',
    'conformance/data/',
    'conformance/target/',
    'conformance/run/model.ts',
    'conformance/run/fixtures.ts',
    'conformance/run/durations.ts',
  ],
  explore: [
    'conformance/explore/',
    'conformance/data/',
    'conformance/target/',
    'conformance/run/model.ts',
    'conformance/run/fixtures.ts',
    'conformance/report/curl.ts',
  ],
  har: [
    'conformance/har/',
    'conformance/report/',
    'conformance/checks/index.ts',
    'conformance/run/model.ts',
    'conformance/run/suite-report.ts',
  ],
  testing: ['conformance/', 'mock/'],
};
/** The root: the entry point wires the folders; tests anywhere may also start the mock and use the repository's test helpers. */
const ROOT_FILES = ['README.md', 'cli.test.ts', 'cli.ts'];
const TEST_ALLOWED = ['conformance/', 'mock/', 'scripts/testing/'];

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* sources(path);
    else if (/\.ts$/.test(e.name)) yield path;
  }
}

/** Module specifiers of static imports, re-exports and dynamic imports. */
function specifiers(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

/** `file imports target` for every relative import of a file under conformance/ its folder may not make. */
function offenders(): string[] {
  const found: string[] = [];
  for (const file of sources(SUITE)) {
    const from = relative(REPO, file);
    const folder = from.split('/').length > 2 ? from.split('/')[1]! : undefined;
    const test = file.endsWith('.test.ts');
    const allowed = [...CONTRACT, ...(test ? TEST_ALLOWED : folder ? (ALLOWED[folder] ?? []) : ['conformance/'])];
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = relative(REPO, resolve(file, '..', spec));
      if (!allowed.some((a) => (a.endsWith('/') ? target.startsWith(a) : target === a))) found.push(`${from} imports ${target}`);
    }
  }
  return found;
}

describe('the folders of conformance/', () => {
  it('finds the specifiers of every import form', () => {
    expect(
      specifiers(
        `import a from '../mock/x.ts';\nimport '../mock/y.ts';\nexport { b } from "../mock/z.ts";\nconst c = await import('../mock/w.ts');`,
      ),
    ).toEqual(['../mock/x.ts', '../mock/y.ts', '../mock/z.ts', '../mock/w.ts']);
  });

  it('the root holds only the entry point; every folder has a README and a rule', () => {
    const entries = readdirSync(SUITE, { withFileTypes: true });
    expect(
      entries
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort(),
    ).toEqual(ROOT_FILES);
    const folders = entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders).toEqual(Object.keys(ALLOWED).sort());
    for (const f of folders) expect(readFileSync(join(SUITE, f, 'README.md'), 'utf8')).toMatch(new RegExp(`^# ${f}/ — `));
  });

  it('each folder imports only what its README allows, and no non-test file outside testing/ imports mock/', () => {
    expect(offenders()).toEqual([]);
  });
});
