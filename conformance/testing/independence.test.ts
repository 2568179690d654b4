// The suite judges an implementation, so it never takes an expected value from one: no file of conformance/ imports
// from mock/, tests and the test-only helpers of conformance/testing aside (they start the mock they run against).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MOCK = resolve(ROOT, '../../mock');

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (path !== join(ROOT, 'testing')) yield* sources(path);
    } else if (/\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name)) yield path;
  }
}

/** Module specifiers of static imports, re-exports and dynamic imports. */
function specifiers(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

describe('independence from the mock', () => {
  it('finds the specifiers of every import form', () => {
    expect(
      specifiers(
        `import a from '../mock/x.ts';\nimport '../mock/y.ts';\nexport { b } from "../mock/z.ts";\nconst c = await import('../mock/w.ts');`,
      ),
    ).toEqual(['../mock/x.ts', '../mock/y.ts', '../mock/z.ts', '../mock/w.ts']);
  });

  it('no non-test file under conformance/ imports from mock/', () => {
    const offenders: string[] = [];
    for (const file of sources(ROOT))
      for (const spec of specifiers(readFileSync(file, 'utf8')))
        if (spec.startsWith('.') && resolve(file, '..', spec).startsWith(`${MOCK}/`))
          offenders.push(`${relative(ROOT, file)} imports ${spec}`);
    expect(offenders).toEqual([]);
  });
});
