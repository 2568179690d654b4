// The files a package needs, found from its entry files: every relative import, re-export, dynamic import and
// `new URL('…', import.meta.url)` of the built JavaScript, every import of the declarations beside it, followed to the
// end. What it collects besides files is the bare packages the code imports, which become the package's dependencies.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

/** `new URL('…', import.meta.url)`: a file the code reads beside itself (a worker, a seed, the bundled spec); not a folder. */
const URL_REFERENCE = /\bnew URL\(\s*(['"])([^'"\n]*[^/'"\n])\1\s*,\s*import\.meta\.url\s*\)/g;

/** Every module specifier of a file: TypeScript's own scan (imports, re-exports, import(), require(); not comments). */
function specifiers(text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return [...importedFiles.map((f) => f.fileName), ...[...text.matchAll(URL_REFERENCE)].map((m) => m[2]!)];
}

export interface Graph {
  /** Absolute paths of every file reached. */
  files: Set<string>;
  /** Bare package names imported by runtime code (.js). */
  runtime: Set<string>;
  /** Bare package names imported by declarations only (.d.ts). */
  types: Set<string>;
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

const isDeclaration = (f: string) => /\.d\.c?ts$/.test(f);

/** A relative specifier as a file: a declaration's `./x.ts` is `./x.d.ts`, a JSON module's types its `.d.cts` beside it. */
function target(from: string, specifier: string): string[] {
  const abs = resolve(dirname(from), specifier);
  if (!isDeclaration(from)) return [abs];
  if (abs.endsWith('.ts') && !abs.endsWith('.d.ts')) return [abs.replace(/\.ts$/, '.d.ts')];
  if (abs.endsWith('.js')) return [abs.replace(/\.js$/, '.d.ts')];
  return [abs];
}

class MissingFile extends Error {}

export function walk(entries: readonly string[]): Graph {
  const g: Graph = { files: new Set(), runtime: new Set(), types: new Set() };
  const queue = [...entries];
  const add = (file: string, by: string) => {
    if (g.files.has(file)) return;
    if (!existsSync(file) || !statSync(file).isFile()) throw new MissingFile(`${by} needs ${file}, which is not built`);
    queue.push(file);
  };
  while (queue.length) {
    const file = queue.pop()!;
    if (g.files.has(file)) continue;
    g.files.add(file);
    // The declarations of a module ship beside it (a JSON module's as .json.d.cts).
    for (const types of [file.replace(/\.js$/, '.d.ts'), `${file}.d.cts`]) if (types !== file && existsSync(types)) add(types, file);
    if (!/\.(js|d\.ts|d\.cts)$/.test(file)) continue;
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) for (const t of target(file, spec)) add(t, file);
      else if (!isBuiltin(spec) && !/^[a-z]+:/.test(spec)) (isDeclaration(file) ? g.types : g.runtime).add(packageOf(spec));
    }
  }
  for (const name of g.runtime) g.types.delete(name);
  return g;
}
