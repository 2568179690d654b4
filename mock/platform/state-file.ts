// The --state file, Node only: the journal of rows (journal.ts) and one file per uploaded blob beside it, with the
// SHA-256 it was written with (`<name>.sha256`), so that a blob cut short or replaced by hand is found at start
// (BlobStore.verify) rather than served. Opened by the node runtime (mock/runtime/node.ts) and handed to the store;
// a page has no --state.
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openJournal, readJournal } from './journal.ts';
import type { EngineBlobs, StateFile } from './store.ts';

export function openStateFile(path: string, warn: (message: string) => void = console.warn): StateFile {
  const entries = readJournal(path, warn);
  return { path, entries, journal: openJournal(path), blobs: fileBlobs(`${path}.blobs`) };
}

/** The digest file beside a blob's file. */
const DIGEST = '.sha256';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Written to a temporary name, fsynced and renamed, so a crash never leaves half a file. */
function writeWhole(file: string, bytes: Uint8Array | string): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, bytes);
  const fd = openSync(tmp, 'r+');
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, file);
}

const readOrUndefined = (file: string) => {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
};

/**
 * One file per blob, and its digest written before it: a blob without a digest file is from a mock before digests
 * were kept (its size is still checked).
 */
function fileBlobs(dir: string): EngineBlobs {
  mkdirSync(dir, { recursive: true });
  const file = (id: string) => join(dir, encodeURIComponent(id));
  return {
    put(id, bytes) {
      writeWhole(file(id) + DIGEST, sha256(bytes));
      writeWhole(file(id), bytes);
    },
    get(id) {
      const bytes = readOrUndefined(file(id));
      return bytes && new Uint8Array(bytes);
    },
    delete(id) {
      rmSync(file(id), { force: true });
      rmSync(file(id) + DIGEST, { force: true });
    },
    verify(id, size) {
      let bytes: number;
      try {
        bytes = statSync(file(id)).size;
      } catch {
        return { kind: 'missing' };
      }
      if (bytes !== size) return { kind: 'size', bytes };
      const kept = readOrUndefined(file(id) + DIGEST)?.toString('utf8');
      const now = kept && readOrUndefined(file(id));
      return now && sha256(now) !== kept ? { kind: 'digest' } : undefined;
    },
    clear() {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    },
    sweep(isLive) {
      const owned = (name: string) => {
        try {
          return isLive(decodeURIComponent(name.endsWith(DIGEST) ? name.slice(0, -DIGEST.length) : name));
        } catch {
          return false; // not a name this store writes
        }
      };
      const orphans = readdirSync(dir).filter((name) => name.endsWith('.tmp') || !owned(name));
      for (const name of orphans) rmSync(join(dir, name), { force: true, recursive: true });
      return orphans;
    },
  };
}
