// A package's manifest (packages/<name>.json: name, exports, bin, peers, and how to pack it under `x-pack`) made into the
// package.json that ships: its own version, the licence, engines and module type of the repository's own package.json, and
// dependencies the code actually imports (scripts/packing/graph.ts) at the versions the lock file installs and CI tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface PackOptions {
  /** A file of the repository shipped as the package's README.md. */
  readme: string;
  /** Bare packages inlined into the package's JavaScript (scripts/packing/bundle.ts) instead of depended on. */
  bundle?: string[];
  /** Built files or folders shipped whatever imports them (files read by computed name). */
  assets?: string[];
  /** Built modules started by computed name (a worker): walked like the exports. */
  entries?: string[];
  /**
   * Packages only the command (`bin`) imports become optionalDependencies: `npm install <pkg> --omit=optional` then
   * installs what the exports need (createMock and MSW: the light path), and the command says what it misses.
   */
  binOnlyOptional?: boolean;
}

export interface Manifest {
  name: string;
  /** The package's own version, moved by what its changes need (npm run diff -- --check-versions). */
  version: string;
  exports?: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
  main?: string;
  types?: string;
  browser?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  'x-pack': PackOptions;
  [field: string]: unknown;
}

export interface RootPackage {
  license: string;
  engines: Record<string, string>;
  dependencies: Record<string, string>;
}

export const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** Every file a manifest points at (exports' targets, bin, main, types, browser replacements), as paths in the package. */
export function entryFiles(m: Manifest, o: { withBin?: boolean } = {}): string[] {
  const targets = (v: unknown): string[] =>
    typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(targets) : [];
  const files = [
    ...targets(m.exports),
    ...(o.withBin === false ? [] : targets(m.bin)),
    ...targets(m.main),
    ...targets(m.types),
    ...targets(m.browser),
    ...(m['x-pack'].entries ?? []),
  ];
  return [...new Set(files.map((f) => f.replace(/^\.\//, '')))].filter((f) => f !== 'package.json');
}

class DependencyError extends Error {}

/** The package.json that ships: the manifest without `x-pack`, plus what the repository decides for all three. */
export function shippedManifest(
  m: Manifest,
  root: RootPackage,
  imported: Iterable<string>,
  optional: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const { 'x-pack': pack, ...fields } = m;
  const peers = new Set(Object.keys(m.peerDependencies ?? {}));
  const dependencies: Record<string, string> = {};
  const optionalDependencies: Record<string, string> = {};
  for (const name of [...imported].sort()) {
    if (peers.has(name) || pack.bundle?.includes(name)) continue;
    const version = root.dependencies[name];
    if (!version) throw new DependencyError(`${m.name} imports ${name}, which is not a dependency of the repository's package.json`);
    (optional.has(name) ? optionalDependencies : dependencies)[name] = version;
  }
  const { name, version, ...rest } = fields;
  if (typeof version !== 'string' || !version) throw new DependencyError(`${m.name}: packages/${m.name}.json has no version`);
  return {
    name,
    version,
    ...rest,
    type: 'module',
    license: root.license,
    engines: root.engines,
    files: ['dist', 'CHANGELOG.md'],
    ...(Object.keys(dependencies).length ? { dependencies } : {}),
    ...(Object.keys(optionalDependencies).length ? { optionalDependencies } : {}),
  };
}

export const manifestPath = (root: string, name: string) => join(root, 'packages', `${name}.json`);
