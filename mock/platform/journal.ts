// --state persistence: an append-only journal of store writes, one JSON line each, fsynced before the write is
// acknowledged; replayed at start. A write is answered only once its whole line, newline included, is on disk, so
// a torn last line (the process died mid-write) or trailing blank lines hold nothing acknowledged: they are cut from
// the file at start, with a warning, before anything new is appended onto them. A damaged line elsewhere is a clear
// error naming the line and the ways out, and the file is left untouched.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, ftruncateSync, writeSync } from 'node:fs';

export type JournalEntry = { c: string; o: 'put'; g: string; r: { id: string } } | { c: string; o: 'del'; g: string; id: string };

export class StateFileError extends Error {}

export interface Journal {
  append(e: JournalEntry): void;
  /** Runs fn with one fsync at its end instead of one per write (seeding). */
  batch<T>(fn: () => T): T;
  truncate(): void;
  close(): void;
}

const NEWLINE = 0x0a;
const isBlank = (bytes: Uint8Array) => bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0d);

/** Bytes up to the end of the last complete, non-blank line: what follows is a torn line or blank lines. */
function intactLength(bytes: Uint8Array): number {
  let end = bytes.lastIndexOf(NEWLINE) + 1;
  while (end > 0) {
    const start = bytes.lastIndexOf(NEWLINE, end - 2) + 1;
    if (!isBlank(bytes.subarray(start, end - 1))) break;
    end = start;
  }
  return end;
}

/** Single-quoted for a POSIX shell. */
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function damaged(path: string, line: number, offset: number, following: number): StateFileError {
  const [p, cut, aside] = [sh(path), sh(`${path}.cut`), sh(`${path}.damaged`)];
  const intact = line > 2 ? `lines 1 to ${line - 1} are intact` : line === 2 ? 'line 1 is intact' : 'no line precedes it';
  return new StateFileError(
    [
      `State file ${path} is damaged at line ${line} (byte offset ${offset}); ${intact}, ${following} more after it.`,
      'Nothing was changed. Ways out (copy the file first to keep a record):',
      `  keep only what precedes line ${line}:  head -c ${offset} ${p} > ${cut} && mv ${cut} ${p}`,
      `  drop line ${line} only:  sed -i.bak '${line}d' ${p}`,
      `  start from the seed:  mv ${p} ${aside} && mv ${sh(`${path}.blobs`)} ${sh(`${path}.damaged.blobs`)}`,
    ].join('\n'),
  );
}

/**
 * Replays the journal. A torn or blank tail is cut from the file first (reported through `warn`); a damaged line
 * before it throws StateFileError and changes nothing.
 */
export function readJournal(path: string, warn: (message: string) => void = console.warn): JournalEntry[] {
  if (!existsSync(path)) return [];
  const bytes = readFileSync(path);
  const keep = intactLength(bytes);
  const lines = bytes.subarray(0, keep).toString('utf8').split('\n').slice(0, -1);
  const entries: JournalEntry[] = [];
  let offset = 0;
  for (const [i, line] of lines.entries()) {
    try {
      const e = JSON.parse(line) as JournalEntry;
      if (!e || typeof e.c !== 'string' || (e.o !== 'put' && e.o !== 'del')) throw new Error('unknown entry');
      entries.push(e);
    } catch {
      throw damaged(path, i + 1, offset, lines.length - i - 1);
    }
    offset += Buffer.byteLength(line) + 1;
  }
  if (keep < bytes.length) {
    cutTo(path, keep);
    const tail = bytes.subarray(keep);
    const torn = !isBlank(tail.subarray(tail.lastIndexOf(NEWLINE) + 1));
    const what = torn ? `a torn last line [${preview(tail)}]` : 'trailing blank lines';
    warn(
      `State file ${path}: cut ${tail.length} bytes at byte offset ${keep}, ${what}. Nothing acknowledged was lost: ` +
        'a write is answered only after its whole line, newline included, is fsynced.',
    );
  }
  return entries;
}

function preview(tail: Uint8Array): string {
  const text = Buffer.from(tail).toString('utf8').trim();
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function cutTo(path: string, length: number) {
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
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
        if (--depth === 0 && dirty) fsyncSync(fd), (dirty = false);
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
