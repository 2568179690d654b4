// --out, checked before the run: a folder this process can write in, created one level at a time (Node's recursive
// mkdir spins forever on a path like /proc/nope), and files written into it without following a symbolic link
// planted there: each is written beside its name and renamed over it, which replaces a link instead of writing
// through it (and leaves another hard link to the old file untouched).
import { closeSync, constants, lstatSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from './args.ts';

const reason = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

/** The entry at `path` (`lstat` for the entry itself), or undefined when there is none (a file on the way counts as none). */
function entry(path: string, how: typeof statSync | typeof lstatSync = statSync) {
  try {
    return how(path);
  } catch (e) {
    if (['ENOENT', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw new UsageError(`--out: cannot read ${path} (${reason(e)})`);
  }
}

/** Creates `dir` (and missing parents) if needed, proves it writable, and checks `names` can be written there. */
export function prepareOutDir(raw: string, names: string[]): string {
  const dir = resolve(raw);
  const missing: string[] = [];
  let existing = dir;
  // The folder named (or its nearest existing parent) may itself be a link the user chose: that one is followed.
  while (!entry(existing)) {
    if (entry(existing, lstatSync)) throw new UsageError(`--out: ${existing} is a broken symbolic link`);
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) throw new UsageError(`--out: no part of ${dir} exists`);
    existing = parent;
  }
  if (!statSync(existing).isDirectory()) throw new UsageError(`--out: ${existing} is not a folder`);
  for (const d of missing)
    try {
      mkdirSync(d);
    } catch (e) {
      throw new UsageError(`--out: cannot create ${d} (${reason(e)})`);
    }
  try {
    writeInto(dir, '.dredd-write-probe', '');
    rmSync(join(dir, '.dredd-write-probe'));
  } catch (e) {
    throw new UsageError(`--out: cannot write in ${dir} (${reason(e)})`);
  }
  for (const name of names) {
    const s = entry(join(dir, name), lstatSync);
    if (s && !s.isFile() && !s.isSymbolicLink())
      throw new UsageError(`--out: ${join(dir, name)} exists and is not a file; remove it or choose another folder`);
  }
  return dir;
}

/** Writes `name` in `dir`, replacing whatever entry has that name (a symbolic link included) without following it. */
export function writeInto(dir: string, name: string, content: string | Buffer): void {
  const temp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    writeSync(fd, typeof content === 'string' ? Buffer.from(content) : content);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, join(dir, name));
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}
