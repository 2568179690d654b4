// --state persistence: an append-only journal of store writes, one JSON line each, fsynced before the write is
// acknowledged; replayed at start. A torn last line (the process died mid-write, before the fsync returned and
// so before any response) is dropped; a damaged line elsewhere is a clear error, and the file is left untouched.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, ftruncateSync, writeSync } from 'node:fs';

export type JournalEntry =
  | { c: string; o: 'put'; g: string; r: { id: string } }
  | { c: string; o: 'del'; g: string; id: string };

export class StateFileError extends Error {}

export interface Journal {
  append(e: JournalEntry): void;
  /** Runs fn with one fsync at its end instead of one per write (seeding). */
  batch<T>(fn: () => T): T;
  truncate(): void;
  close(): void;
}

export function readJournal(path: string): JournalEntry[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const complete = lines.slice(0, -1); // what follows the last newline is empty, or torn by a crash mid-write
  return complete.map((line, i) => {
    try {
      const e = JSON.parse(line) as JournalEntry;
      if (!e || typeof e.c !== 'string' || (e.o !== 'put' && e.o !== 'del')) throw new Error('unknown entry');
      return e;
    } catch {
      throw new StateFileError(`State file ${path} is damaged at line ${i + 1}; move it away to start from the seed.`);
    }
  });
}

export function openJournal(path: string): Journal {
  const fd = openSync(path, 'a');
  let depth = 0;
  let dirty = false;
  return {
    append(e) {
      writeSync(fd, `${JSON.stringify(e)}\n`);
      if (depth === 0) fsyncSync(fd);
      else dirty = true;
    },
    batch(fn) {
      depth++;
      const end = () => {
        if (--depth === 0 && dirty) (fsyncSync(fd), (dirty = false));
      };
      let result;
      try {
        result = fn();
      } catch (e) {
        end();
        throw e;
      }
      // Async seeding: one fsync once every write of it is done.
      if (result instanceof Promise) return result.finally(end) as typeof result;
      end();
      return result;
    },
    truncate() {
      ftruncateSync(fd, 0);
      fsyncSync(fd);
    },
    close: () => closeSync(fd),
  };
}
