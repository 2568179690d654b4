// The import statements of the repository's TypeScript sources, for the tests that hold its folders' boundaries
// (mock/layers.test.ts, judge/boundaries.test.ts). Test-only.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every .ts file under a folder, recursively. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Relative specifiers of static imports, re-exports and dynamic imports (type-only imports included). */
export function importsOf(text: string): string[] {
  const found = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g),
  ];
  return found.map((m) => m[1]!).filter((s) => s.startsWith('.'));
}
