// The two sides of a comparison, read from git or from a folder: a `Tree` reads one file of the repository as it was at a
// ref (or as it is in a working tree). Every bad input is an `InputError` naming the ref and what to do, never a git
// stack trace.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export class InputError extends Error {
  override name = 'InputError';
}

export interface Tree {
  /** The ref as given, or 'WORKTREE'. */
  label: string;
  /** The commit a ref names (absent for a working tree). */
  commit?: string;
  /** A file's text (a path relative to the repository's root), undefined when it does not exist there. */
  read(path: string): string | undefined;
}

function git(root: string, args: string[]): { ok: boolean; out: string; err: string } {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new InputError(`git could not be run (${r.error.message}); npm run diff needs git on PATH`);
  return { ok: r.status === 0, out: r.stdout, err: r.stderr.trim() };
}

/** The working tree (or any folder laid out like the repository: the fixture tests use one). */
export function folderTree(root: string, label = 'WORKTREE'): Tree {
  return {
    label,
    read: (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined),
  };
}

export const isShallow = (root: string): boolean => git(root, ['rev-parse', '--is-shallow-repository']).out.trim() === 'true';

/** The commit a ref names; an InputError when it names none here (mistyped, or not fetched into this clone). */
function resolveCommit(root: string, ref: string): string {
  if (!ref || ref.startsWith('-')) throw new InputError(`not a git ref: ${JSON.stringify(ref)}`);
  if (!git(root, ['rev-parse', '--git-dir']).ok) throw new InputError(`${root} is not inside a git repository`);
  const r = git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (r.ok) return r.out.trim();
  const hint = isShallow(root)
    ? ' This clone is shallow: fetch the ref or the whole history (git fetch --unshallow --tags).'
    : ' Check the name, or fetch it (git fetch origin <ref>, git fetch --tags).';
  throw new InputError(`${ref} is not a commit in this repository's history.${hint}`);
}

export function gitTree(root: string, ref: string): Tree {
  const commit = resolveCommit(root, ref);
  return {
    label: ref,
    commit,
    read: (path) => {
      const r = git(root, ['show', `${commit}:${path}`]);
      return r.ok ? r.out : undefined;
    },
  };
}

/** The newest tag reachable from HEAD, if any. */
export function lastTag(root: string): string | undefined {
  const r = git(root, ['describe', '--tags', '--abbrev=0', 'HEAD']);
  return r.ok ? r.out.trim() : undefined;
}

/** The earliest commit that has spec/openapi.yaml (in a shallow clone: the earliest one this clone holds). */
export function firstSpecCommit(root: string): string | undefined {
  const r = git(root, ['log', '--reverse', '--diff-filter=A', '--format=%H', '--', 'spec/openapi.yaml']);
  return r.ok ? r.out.split('\n')[0]?.trim() || undefined : undefined;
}
