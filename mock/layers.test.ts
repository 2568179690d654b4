// The mock's layers, read from the import statements of its source files (docs/architecture.md, "Layers inside the
// mock"): the platform (mock/platform/) never imports a feature (mock/features/<name>/), and no source file but the
// composition root (mock/engine.ts) and the runtimes it is handed (mock/runtime/: each feature's Node or web I/O, the
// composition edge) import more than one feature, so features never import each other and nothing else wires them
// together. Tests compose features as the root does (a harness of patients and notes) and are exempt
// from the second rule only.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from '../scripts/testing/imports.ts';

const MOCK = dirname(fileURLToPath(import.meta.url));
const ROOT = 'engine.ts';

/** The feature a path (relative to mock/) belongs to, if any. */
const featureOf = (rel: string) => /^features\/([^/]+)\//.exec(rel)?.[1];

const files = sourceFiles(MOCK).map((abs) => {
  const rel = relative(MOCK, abs).split('\\').join('/');
  const targets = importsOf(readFileSync(abs, 'utf8')).map((s) =>
    relative(MOCK, resolve(dirname(abs), s))
      .split('\\')
      .join('/'),
  );
  return { rel, features: [...new Set(targets.map(featureOf).filter((f): f is string => f !== undefined))] };
});

describe('layers of the mock', () => {
  it('reads imports of every form', () => {
    const text = `import a from './a.ts';\nimport type { B } from '../b.ts';\nexport { c } from './c.ts';\nimport './d.ts';\nconst e = await import('./e.ts');\nimport x from 'hono';`;
    expect(importsOf(text)).toEqual(['./a.ts', '../b.ts', './c.ts', './e.ts', './d.ts']);
  });

  it('finds the features and the platform', () => {
    expect(files.find((f) => f.rel === ROOT)?.features.sort()).toEqual([
      'appointments',
      'control',
      'documents',
      'events',
      'notes',
      'patients',
      'providers',
    ]);
    expect(files.filter((f) => f.rel.startsWith('platform/')).length).toBeGreaterThan(10);
  });

  it('the platform never imports a feature', () => {
    const offenders = files
      .filter((f) => f.rel.startsWith('platform/') && f.features.length > 0)
      .map((f) => `${f.rel} -> ${f.features.join(', ')}`);
    expect(offenders).toEqual([]);
  });

  it('only the composition root imports more than one feature (a feature imports no other)', () => {
    const offenders = files
      .filter((f) => f.rel !== ROOT && !f.rel.startsWith('runtime/') && !f.rel.endsWith('.test.ts') && f.features.length > 1)
      .map((f) => `${f.rel} -> ${f.features.join(', ')}`);
    expect(offenders).toEqual([]);
  });
});
