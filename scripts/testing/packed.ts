// The packages as another repository gets them, for the pack tests: the tarballs `npm run pack` writes, installed into
// a temporary project as `npm install` would (preferring the npm cache; it may ask the registry: `npm ci` caches
// tarballs, not the package documents an install by name needs), and what that install left in node_modules.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type Run = { stdout: string; stderr: string };
export const sh = (cmd: string, args: string[], cwd: string, timeout = 90_000, env: NodeJS.ProcessEnv = {}): Promise<Run> =>
  exec(cmd, args, { cwd, timeout, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false', ...env } });

/** Runs and returns the output whatever the exit code, with the code (tsc and attw report findings on stdout). */
export const shAnyway = (cmd: string, args: string[], cwd: string, timeout?: number): Promise<Run & { code: number }> =>
  sh(cmd, args, cwd, timeout).then(
    (r) => ({ ...r, code: 0 }),
    (e: Run & { code?: number }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? String(e), code: e.code ?? 1 }),
  );

/** `npm run pack -- <dir>`; the tarballs by package name. */
export async function packAll(dir: string): Promise<Record<string, string>> {
  const { stdout } = await sh('npm', ['run', '--silent', 'pack', '--', dir], ROOT, 180_000);
  const tarballs: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const m = line.match(/^(\S+\/(clinical-records-[a-z]+)-\d+\.\d+\.\d+\.tgz)\s/);
    if (m) tarballs[m[2]!] = m[1]!;
  }
  return tarballs;
}

/** An empty ESM project at `dir`. */
export function project(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  return dir;
}

export const install = (app: string, specs: string[]) =>
  sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...specs], app, 240_000);

/** Every package folder an install left (nested ones too), as `name@version`. */
export function installedPackages(app: string): string[] {
  const found: string[] = [];
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const e of readdirSync(modules)) {
      if (e.startsWith('.')) continue;
      const dirs = e.startsWith('@') ? readdirSync(join(modules, e)).map((s) => join(modules, e, s)) : [join(modules, e)];
      for (const d of dirs) {
        const pkg = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { name: string; version: string };
        found.push(`${pkg.name}@${pkg.version}`);
        visit(join(d, 'node_modules'));
      }
    }
  };
  visit(join(app, 'node_modules'));
  return found.sort();
}

/** Bytes on disk under a folder (files' sizes). */
export function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? bytesUnder(p) : e.isFile() ? statSync(p).size : 0;
  }
  return total;
}

/** The lifecycle scripts an install would run, by package. */
export function installScripts(app: string): string[] {
  const hooks = ['preinstall', 'install', 'postinstall', 'prepare'];
  return installedPackages(app).flatMap((id) => {
    const name = id.slice(0, id.lastIndexOf('@'));
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    return hooks.filter((h) => pkg.scripts?.[h]).map((h) => `${id} ${h}`);
  });
}
