// The --state file, Node only: the journal of rows (journal.ts) and one file per uploaded blob beside it. Opened by
// the node runtime (mock/runtime/node.ts) and handed to the store; a page has no --state.
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openJournal, readJournal } from './journal.ts';
import type { EngineBlobs, StateFile } from './store.ts';

export function openStateFile(path: string, warn: (message: string) => void = console.warn): StateFile {
  const entries = readJournal(path, warn);
  return { path, entries, journal: openJournal(path), blobs: fileBlobs(`${path}.blobs`) };
}

/** One file per blob, written to a temporary name, fsynced and renamed, so a crash never leaves half a file. */
function fileBlobs(dir: string): EngineBlobs {
  mkdirSync(dir, { recursive: true });
  const file = (id: string) => join(dir, encodeURIComponent(id));
  return {
    put(id, bytes) {
      const tmp = `${file(id)}.tmp`;
      writeFileSync(tmp, bytes);
      const fd = openSync(tmp, 'r+');
      fsyncSync(fd);
      closeSync(fd);
      renameSync(tmp, file(id));
    },
    get(id) {
      try {
        return new Uint8Array(readFileSync(file(id)));
      } catch {
        return undefined;
      }
    },
    delete: (id) => rmSync(file(id), { force: true }),
    clear() {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    },
    sweep(isLive) {
      const owned = (name: string) => {
        try {
          return isLive(decodeURIComponent(name));
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
