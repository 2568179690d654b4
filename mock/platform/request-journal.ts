// The request journal: the last N API requests as the mock saw them (GET /__mock/requests), for a developer who wants
// to know what their app sent and why the mock refused it. A ring buffer of fixed capacity, so memory is bounded
// whatever the traffic; each entry is kept as the request left it (journal-entry.ts, filled by record-requests.ts)
// and shown, redacted, only when read (showEntry): nothing leaves the journal unredacted. Reading is linear in what
// clients sent (the path filter and redaction, literal-search.ts, redact.ts) and yields to other requests every few
// milliseconds, so 500 entries of 15 KB key-like words read in tens of milliseconds while /__mock/health keeps answering.
import { literalIndex } from './literal-search.ts';
import { showEntry, type JournalEntry, type RecordedRequest, type ShownEntry, type Violation } from './journal-entry.ts';
import type { Redactor } from './redact.ts';

export const DEFAULT_JOURNAL_SIZE = 500;
export const MAX_JOURNAL_SIZE = 100_000;
/**
 * The most the kept entries may hold, about (characters of text and bytes of bodies), whatever --journal-size says:
 * past it the oldest entries leave first. 100,000 entries of an --upstream answer's 256 KB would be 25 GB.
 */
const MAX_JOURNAL_BYTES = 64 * 1024 * 1024;
/** What a request's headers hold, about: kept by reference, their size read only by the transport (16 KB at most in node). */
const HEADERS_SIZE = 1024;

export interface JournalFilter {
  limit: number;
  status?: { exact: number } | { class: number };
  path?: string;
  since?: { id: number } | { time: number };
}

export interface RequestJournal {
  readonly capacity: number;
  /**
   * Keeps `entry`, setting its id (record-requests.ts hands it one already, 0, so that every entry has one shape), and
   * its times: `started`, Date.now() when it entered the API; `duration` in whole milliseconds.
   */
  record(entry: RecordedRequest, started: number, duration: number): void;
  /**
   * A timed-out request's real wait, reported by the transport once the connection ended (the client may give up
   * before the hold): its duration and what the fault reads as. Nothing when the entry is no longer kept.
   */
  settle(id: number, ms: number, clientGaveUp: boolean): void;
  list(filter: JournalFilter): JournalEntry[];
  /** list(), redacted, as GET /__mock/requests shows it; other work runs between slices of it (READ_SLICE_MS). */
  read(filter: JournalFilter): Promise<ShownEntry[]>;
  /**
   * read() as the JSON text of its array, in pieces, one a slice: the route streams them (one JSON.stringify of 7 MB,
   * and one write of it, each held the event loop for 20 to 50 ms on this 2-core host).
   */
  readJson(filter: JournalFilter): AsyncGenerator<string>;
  /** Attaches Prism's violations to the entry the front forwarded as `frontId`; `answered`: the status the client got. */
  addViolations(frontId: string, violations: Violation[], answered: number): void;
  clear(): void;
  /** Requests recorded since the last clear (kept or not), and the newest id. */
  stats(): { recorded: number; kept: number; last_id: number };
}

/** Longest stretch a read holds the event loop before it lets other requests through, and most text it writes at once. */
const READ_SLICE_MS = 5;
const READ_SLICE_CHARS = 256 * 1024;
/** After the I/O waiting (setImmediate: no timer's millisecond a slice; a page's runtime has only setTimeout). */
const nextTurn = () => new Promise<void>((resolve) => (globalThis.setImmediate ?? setTimeout)(resolve));

/** About how much text an entry shows: its path, query, body and error, and the rest's few hundred characters. */
const shownSize = (e: JournalEntry) =>
  300 + e.path.length + e.query.length + (e.error?.length ?? 0) + (typeof e.body === 'string' ? e.body.length : (e.body?.byteLength ?? 0));

/** About what an entry holds: what it shows, its request's and answer's headers, and an --upstream answer's kept body. */
const keptSize = (e: RecordedRequest) =>
  shownSize(e as JournalEntry) + 2 * HEADERS_SIZE + (e.upstream ? e.upstream.response.body.length : 0);

/** `each` of `items` in turn, letting other work run whenever READ_SLICE_MS have passed. */
async function inSlices<T>(items: readonly T[], each: (item: T) => void): Promise<void> {
  let since = performance.now();
  for (const item of items) {
    each(item);
    if (performance.now() - since > READ_SLICE_MS) {
      await nextTurn();
      since = performance.now();
    }
  }
}

export function createRequestJournal(capacity: number, redact: Redactor, maxBytes = MAX_JOURNAL_BYTES): RequestJournal {
  const ring: Array<RecordedRequest | undefined> = new Array(capacity);
  const sizes = new Float64Array(capacity);
  let held = 0; // keptSize of the kept entries
  const times = new Float64Array(2 * capacity); // slot i: started at 2i, duration at 2i + 1
  let next = 0; // slot of the next entry
  let kept = 0;
  let recorded = 0;
  let lastId = 0;

  /** Slots, newest first. */
  function* newest(): Generator<number> {
    for (let i = 1; i <= kept; i++) yield (next - i + capacity) % capacity;
  }
  const listed = (slot: number): JournalEntry => ({ ...ring[slot]!, started: times[2 * slot]!, duration: times[2 * slot + 1]! });

  return {
    capacity,
    settle(id, ms, clientGaveUp) {
      const back = lastId - id;
      if (back < 0 || back >= kept) return;
      const slot = (next - 1 - back + capacity) % capacity;
      const e = ring[slot];
      if (e?.id !== id || e.fault?.kind !== 'timeout') return;
      times[2 * slot + 1] = ms;
      e.fault = { ...e.fault, text: clientGaveUp ? `timed out: the client gave up after ${ms} ms` : `timed out after ${ms} ms` };
    },
    record(entry, started, duration) {
      if (capacity === 0) return;
      entry.id = ++lastId;
      if (kept === capacity) held -= sizes[next]!;
      ring[next] = entry;
      sizes[next] = keptSize(entry);
      held += sizes[next]!;
      times[2 * next] = started;
      times[2 * next + 1] = duration;
      next = (next + 1) % capacity;
      if (kept < capacity) kept++;
      recorded++;
      // Bounded by bytes too: the oldest leave first (the newest stays, whatever its size).
      while (held > maxBytes && kept > 1) {
        const oldest = (next - kept + capacity) % capacity;
        held -= sizes[oldest]!;
        ring[oldest] = undefined;
        kept--;
      }
    },
    list(f) {
      const out: JournalEntry[] = [];
      const inPath = f.path === undefined ? undefined : literalIndex(f.path);
      for (const slot of newest()) {
        const e = ring[slot]!;
        if (f.since && 'id' in f.since && e.id <= f.since.id) break; // ids only grow: nothing older matches
        if (f.since && 'time' in f.since && times[2 * slot]! < f.since.time) continue;
        if (f.status && ('exact' in f.status ? e.status !== f.status.exact : Math.floor(e.status / 100) !== f.status.class)) continue;
        if (inPath && inPath(e.path) < 0) continue;
        out.push(listed(slot));
        if (out.length >= f.limit) break;
      }
      return out;
    },
    async read(f) {
      const shown: ShownEntry[] = [];
      await inSlices(this.list(f), (e) => shown.push(showEntry(e, redact)));
      return shown;
    },
    async *readJson(f) {
      // A slice's entries are written as one text: a text per entry (15 KB each at worst) filled the young generation,
      // and its scavenges took up to 30 ms to copy them.
      let first = true;
      let slice: ShownEntry[] = [];
      const written = () => {
        const piece = `${first ? '[' : ','}${JSON.stringify(slice).slice(1, -1)}`;
        first = false;
        slice = [];
        return piece;
      };
      let since = performance.now();
      let size = 0;
      for (const e of this.list(f)) {
        slice.push(showEntry(e, redact));
        size += shownSize(e);
        if (size > READ_SLICE_CHARS || performance.now() - since > READ_SLICE_MS) {
          yield written();
          await nextTurn();
          since = performance.now();
          size = 0;
        }
      }
      yield slice.length ? `${written()}]` : first ? '[]' : ']';
    },
    addViolations(frontId, violations, answered) {
      for (const slot of newest()) {
        const e = ring[slot]!;
        if (e.frontId === frontId) {
          (e.violations ??= []).push(...violations);
          if (answered !== e.status) [e.engine_status, e.status] = [e.status, answered];
          return;
        }
      }
    },
    clear() {
      ring.fill(undefined);
      next = kept = recorded = held = 0;
    },
    stats: () => ({ recorded, kept, last_id: lastId }),
  };
}

export type ParsedFilter = { ok: true; filter: JournalFilter } | { ok: false; details: Record<string, string> };

const QUERY_NAMES = ['limit', 'status', 'path', 'since'];

/** GET /__mock/requests's query: `limit` (1..capacity, default 100), `status` (404 or 4xx), `path` (a substring), `since` (an id or a date-time). */
export function parseJournalQuery(query: Record<string, string>, capacity: number): ParsedFilter {
  const details: Record<string, string> = {};
  for (const k of Object.keys(query)) if (!QUERY_NAMES.includes(k)) details[k] = `unknown parameter; allowed: ${QUERY_NAMES.join(', ')}`;
  const max = Math.max(1, capacity);
  const filter: JournalFilter = { limit: Math.min(100, max) };
  const { limit, status, path, since } = query;
  if (limit !== undefined) {
    if (!/^\d{1,6}$/.test(limit) || Number(limit) < 1 || Number(limit) > max)
      details.limit = `must be an integer from 1 to ${max} (the journal's size)`;
    else filter.limit = Number(limit);
  }
  if (status !== undefined) {
    if (/^[1-5]\d\d$/.test(status)) filter.status = { exact: Number(status) };
    else if (/^[1-5]xx$/i.test(status)) filter.status = { class: Number(status[0]) };
    else details.status = 'must be a status code (400) or a class (4xx)';
  }
  if (path !== undefined) {
    if (path === '' || path.length > 2000) details.path = 'must be 1 to 2000 characters (matched anywhere in the path)';
    else filter.path = path;
  }
  if (since !== undefined) {
    const time = Date.parse(since);
    if (/^\d{1,15}$/.test(since)) filter.since = { id: Number(since) };
    else if (/^\d{4}-\d\d-\d\dT/.test(since) && !Number.isNaN(time)) filter.since = { time };
    else details.since = 'must be an entry id (newer entries are listed) or an ISO date-time (entries at or after it)';
  }
  return Object.keys(details).length ? { ok: false, details } : { ok: true, filter };
}
