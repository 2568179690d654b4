// `npm run build` (also `prepare`): compiles client/, generated/, spec/runtime/, mock/ and conformance/ into dist/ with
// the folder layout kept (tsconfig.build.json), then copies the non-TypeScript assets the code reads at run time.
// A type error anywhere fails the build. `--if-stale` (before `npm run mock` / `npm run conformance`, which run the
// built binaries) does nothing when dist/ is newer than every source file, so a `git pull` is never run stale.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderApiReference } from './api-reference.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.built');
/** What dist/ is made from. */
const SOURCES = [
  'client',
  'generated',
  'spec',
  'judge',
  'mock',
  'conformance',
  'scripts/build.ts',
  'scripts/api-reference.ts',
  'package.json',
  'packages',
  'tsconfig.json',
  'tsconfig.build.json',
];
/** Folders whose assets ship: every file that is not TypeScript, a test, or test-only support. */
const ASSET_DIRS = ['mock', 'conformance'];
const SKIP = /(\.ts$|\.test\.|[\\/](testing|fixtures|node_modules)[\\/])/;

function* files(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(p);
    else yield p;
  }
}

function copy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
}

function newestSource(): number {
  let newest = 0;
  for (const src of SOURCES) {
    const p = join(ROOT, src);
    if (!existsSync(p)) continue;
    for (const f of statSync(p).isDirectory() ? files(p) : [p]) newest = Math.max(newest, statSync(f).mtimeMs);
  }
  return newest;
}

if (process.argv.includes('--if-stale') && existsSync(STAMP) && statSync(STAMP).mtimeMs >= newestSource()) process.exit(0);

const start = performance.now();
rmSync(DIST, { recursive: true, force: true });

const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], {
  cwd: ROOT,
  encoding: 'utf8',
});
const diagnostics = (tsc.stdout + tsc.stderr).trim();
if (tsc.error) throw tsc.error;
if (tsc.status !== 0) {
  process.stderr.write(`${diagnostics}\nbuild failed: tsc exit ${tsc.status}\n`);
  process.exit(1);
}

// The bundled spec (the ./spec export, read by spec/runtime/bundle.ts and the mock) and its declaration.
copy(join(ROOT, 'generated/openapi.json'), join(DIST, 'generated/openapi.json'));
writeFileSync(
  join(DIST, 'generated/openapi.json.d.cts'),
  [
    '// generated, do not edit: written by scripts/build.ts. Types of the `clinical-records-api/spec` export (the bundled',
    '// OpenAPI document); import it with `with { type: "json" }`. A .d.cts with `export =`, as a JSON module is to TypeScript.',
    'declare const spec: {',
    '  readonly openapi: string;',
    '  readonly info: { readonly title: string; readonly version: string; readonly [key: string]: unknown };',
    '  readonly paths: Readonly<Record<string, unknown>>;',
    '  readonly webhooks: Readonly<Record<string, unknown>>;',
    '  readonly components: Readonly<Record<string, unknown>>;',
    '  readonly [key: string]: unknown;',
    '};',
    'export = spec;',
    '',
  ].join('\n'),
);
for (const f of ['spec/openapi.yaml', 'spec/rules.yaml']) if (existsSync(join(ROOT, f))) copy(join(ROOT, f), join(DIST, f));
let assets = 0;
for (const dir of ASSET_DIRS)
  for (const f of files(join(ROOT, dir))) {
    const rel = relative(ROOT, f);
    if (SKIP.test(rel)) continue;
    copy(f, join(DIST, rel));
    assets++;
  }

// The API reference served at /__mock/docs: rendered here (scripts/api-reference.ts: offline, no telemetry).
try {
  renderApiReference(ROOT, join(DIST, 'api-reference.html'));
} catch (e) {
  process.stderr.write(`${(e as Error).message}\nbuild failed: the API reference\n`);
  process.exit(1);
}

// Binaries: run by node (the sources' #! line runs them through tsx), and executable.
// The commands are the packages' (packages/<name>.json).
const bins = readdirSync(join(ROOT, 'packages'))
  .filter((f) => f.endsWith('.json'))
  .flatMap((f) =>
    Object.entries((JSON.parse(readFileSync(join(ROOT, 'packages', f), 'utf8')) as { bin?: Record<string, string> }).bin ?? {}),
  );
for (const [name, target] of bins) {
  const p = join(ROOT, target);
  if (!existsSync(p)) {
    process.stderr.write(`build: WARNING bin ${name} -> ${target} was not built (its source is missing or did not compile)\n`);
    continue;
  }
  const js = readFileSync(p, 'utf8');
  writeFileSync(p, `#!/usr/bin/env node\n${js.startsWith('#!') ? js.slice(js.indexOf('\n') + 1) : js}`);
  chmodSync(p, statSync(p).mode | 0o111);
}
writeFileSync(STAMP, '');
console.log(`built dist/ (${assets} assets) in ${Math.round(performance.now() - start)} ms`);
