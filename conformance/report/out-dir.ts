// --out: checked before the run, so a long run never ends unable to write its reports. The folder is made one level
// at a time (Node's recursive mkdir can spin on paths like /proc/nope), must be a folder the run can write, and files
// go in by a fresh temporary name renamed over the target: a symlink planted under a report's name is replaced,
// never followed.
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export class OutDirError extends Error {}

const why = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/** Makes `dir` (and missing parents) and proves it writable; returns its absolute path. */
export function prepareOutDir(dir: string): string {
  const abs = resolve(dir);
  const missing: string[] = [];
  for (let p = abs; ; p = dirname(p)) {
    try {
      if (!statSync(p).isDirectory()) throw new OutDirError(`--out ${dir}: ${p} is not a folder`);
      break;
    } catch (err) {
      if (err instanceof OutDirError) throw err;
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(p) === p)
        throw new OutDirError(`--out ${dir}: cannot use ${p} (${why(err)})`);
      missing.unshift(p);
    }
  }
  for (const p of missing)
    try {
      mkdirSync(p);
    } catch (err) {
      throw new OutDirError(`--out ${dir}: cannot create ${p} (${why(err)})`);
    }
  const probe = join(abs, `.crc-probe-${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(probe, '', { flag: 'wx' });
    unlinkSync(probe);
  } catch (err) {
    throw new OutDirError(`--out ${dir}: cannot write into ${abs} (${why(err)})`);
  }
  return abs;
}

/** Writes `name` into `dir` (made by prepareOutDir) without following whatever is there under that name. */
export function writeInto(dir: string, name: string, text: string, mode = 0o644): string {
  const target = join(dir, name);
  const temp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(temp, text, { flag: 'wx', mode });
  try {
    if (lstatSync(target, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${target} is a folder`);
    renameSync(temp, target);
  } catch (err) {
    unlinkSync(temp);
    throw err;
  }
  return target;
}
