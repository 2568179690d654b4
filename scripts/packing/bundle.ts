// Inlines a few third-party packages into a package's JavaScript (the light types + client package: its webhook helpers'
// ajv and XML parser would otherwise install eleven packages). Every entry keeps its path and its declarations; code two
// entries share goes to a chunk, so a class is one class whichever entry it is imported from. Everything else the code
// imports stays an import (a dependency), and the licences of what was inlined ship in dist/THIRD_PARTY_LICENSES.md.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative, sep } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { packageOf } from './graph.ts';

/** Leaves the repository's own imports of packages not inlined as imports; whatever inlined code imports is inlined. */
function externals(root: string, inline: ReadonlySet<string>): Plugin {
  return {
    name: 'externals',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (isBuiltin(args.path) || args.path.startsWith('node:')) return { path: args.path, external: true };
        const ours = !relative(root, args.importer).split(sep).includes('node_modules');
        if (ours && !inline.has(packageOf(args.path))) return { path: args.path, external: true };
        return undefined;
      });
    },
  };
}

/** `node_modules/<name>/…` (scoped too) → the package folder. */
function packageDir(root: string, input: string): string | undefined {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const name = parts[at + 1]?.startsWith('@') ? parts.slice(at + 1, at + 3) : parts.slice(at + 1, at + 2);
  return join(root, ...parts.slice(0, at + 1), ...name);
}

export async function bundleEntries(root: string, stage: string, entries: readonly string[], inline: readonly string[]): Promise<void> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: entries.map((e) => join(root, e)),
    outbase: root,
    outdir: stage,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    chunkNames: 'dist/chunks/[name]-[hash]',
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
    plugins: [externals(root, new Set(inline))],
  });
  const notices = new Map<string, string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const dir = packageDir(root, input);
    if (!dir || notices.has(dir)) continue;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
    const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
    const text =
      file && existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8').trim() : `(${pkg.license ?? 'no licence file'})`;
    notices.set(dir, `## ${pkg.name} ${pkg.version}\n\n${text}\n`);
  }
  writeFileSync(
    join(stage, 'dist/THIRD_PARTY_LICENSES.md'),
    `# Third-party code inlined into this package\n\n${[...notices.values()].sort().join('\n')}`,
  );
}
