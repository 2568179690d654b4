// One package laid out for `npm pack`: the built files its entries reach (scripts/packing/graph.ts) and its assets,
// under the same paths as in dist/, so every relative import and `new URL(…, import.meta.url)` works unchanged; the
// README and its changelog (packages/<name>.CHANGELOG.md, written by `npm run diff -- --changelog`); and its package.json (scripts/packing/manifest.ts), whose dependencies are what the staged code imports.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { bundleEntries } from './bundle.ts';
import { walk } from './graph.ts';
import { entryFiles, type Manifest, type RootPackage, shippedManifest } from './manifest.ts';

function* filesUnder(path: string): Generator<string> {
  if (!statSync(path).isDirectory()) return yield path;
  for (const e of readdirSync(path)) yield* filesUnder(join(path, e));
}

function copyInto(root: string, stage: string, file: string): void {
  const to = join(stage, relative(root, file));
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(file, to);
}

class AssetMissing extends Error {}

export async function stagePackage(root: string, stage: string, m: Manifest, pkg: RootPackage): Promise<Record<string, unknown>> {
  const entries = entryFiles(m);
  const bundled = m['x-pack'].bundle ?? [];
  const reached = walk(entries.map((e) => join(root, e)));
  for (const file of reached.files) if (!bundled.length || !file.endsWith('.js')) copyInto(root, stage, file);
  for (const asset of m['x-pack'].assets ?? []) {
    const at = join(root, asset);
    if (!existsSync(at)) throw new AssetMissing(`${m.name}: asset ${asset} is not built`);
    for (const f of filesUnder(at)) copyInto(root, stage, f);
  }
  if (bundled.length)
    await bundleEntries(
      root,
      stage,
      entries.filter((e) => e.endsWith('.js')),
      bundled,
    );
  copyFileSync(join(root, m['x-pack'].readme), join(stage, 'README.md'));
  const changelog = join(root, 'packages', `${m.name}.CHANGELOG.md`);
  if (!existsSync(changelog)) throw new AssetMissing(`${m.name}: packages/${m.name}.CHANGELOG.md is missing (npm run diff -- --changelog)`);
  copyFileSync(changelog, join(stage, 'CHANGELOG.md'));
  // Dependencies are what the shipped code imports, read from the staged files (after any inlining).
  const shipped = walk(entries.map((e) => join(stage, e)));
  const manifest = shippedManifest(m, pkg, [...shipped.runtime, ...shipped.types], binOnly(stage, m, shipped.runtime));
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** With x-pack.binOnlyOptional: the packages only the command's code imports (not the exports' nor a worker's). */
function binOnly(stage: string, m: Manifest, all: ReadonlySet<string>): Set<string> {
  if (!m['x-pack'].binOnlyOptional) return new Set();
  const library = walk(entryFiles(m, { withBin: false }).map((e) => join(stage, e)));
  return new Set([...all].filter((name) => !library.runtime.has(name) && !library.types.has(name)));
}
