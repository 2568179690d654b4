// `npm run build` (also `prepare`): compiles client/, generated/, spec/*.ts, mock/ and conformance/ into dist/ with
// the folder layout kept (tsconfig.build.json), then copies the non-TypeScript assets the code reads at run time.
// Type errors in client/ or generated/ fail the build; errors elsewhere are reported but, unless --strict, do not
// stop it (tsc still emits), so a folder that is mid-work cannot block installing the client.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const strict = process.argv.includes('--strict');
/** Folders whose assets ship: every file that is not TypeScript, a test, or test-only support. */
const ASSET_DIRS = ['mock', 'conformance'];
const SKIP = /(\.ts$|\.test\.|[\\/](testing|fixtures|node_modules)[\\/])/;
/** Folders that must compile: the client and its types are what other repositories install. */
const MUST_COMPILE = ['client/', 'generated/'];

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

const start = performance.now();
rmSync(DIST, { recursive: true, force: true });

const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], {
  cwd: ROOT,
  encoding: 'utf8',
});
const diagnostics = (tsc.stdout + tsc.stderr).trim();
const errorFiles = new Set([...diagnostics.matchAll(/^([^\s(]+)\(\d+,\d+\): error/gm)].map((m) => m[1]!.split(sep).join('/')));
const blocking = [...errorFiles].filter((f) => MUST_COMPILE.some((d) => f.startsWith(d)));
if (tsc.error) throw tsc.error;
if (diagnostics) process.stderr.write(diagnostics + '\n');
if (blocking.length || (strict && tsc.status !== 0) || (tsc.status !== 0 && errorFiles.size === 0)) {
  process.stderr.write(`build failed: tsc exit ${tsc.status}${blocking.length ? `; errors in ${blocking.join(', ')}` : ''}\n`);
  process.exit(1);
}
if (errorFiles.size)
  process.stderr.write(`build: WARNING type errors outside the client in ${[...errorFiles].join(', ')}; their dist/ output may not run\n`);

// The bundled spec (the ./spec export, read by spec/bundle.ts and the mock) and its declaration.
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

// Binaries: executable, and warn when one is missing or lacks its shebang.
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
for (const [name, target] of Object.entries(pkg.bin ?? {})) {
  const p = join(ROOT, target);
  if (!existsSync(p)) {
    process.stderr.write(`build: WARNING bin ${name} -> ${target} was not built (its source is missing or did not compile)\n`);
    continue;
  }
  if (!readFileSync(p, 'utf8').startsWith('#!')) process.stderr.write(`build: WARNING ${target} has no #! line\n`);
  chmodSync(p, statSync(p).mode | 0o111);
}
console.log(`built dist/ (${assets} assets) in ${Math.round(performance.now() - start)} ms`);
