// The Store: organization-scoped, in-memory collections (O(1) by id and external_id, O(limit) pages), made durable
// by the journal when --state is given (state-file.ts, Node only: the engine gets it from its runtime). Single-threaded writes make "check external_id, then insert" atomic, so
// concurrent creates with one external_id yield exactly one row.
import { DuplicateId, ExternalIdConflict, type BlobStore, type Collection, type Store } from './deps.ts';
import type { Journal, JournalEntry } from './journal.ts';

/** A --state file opened (state-file.ts): what it held, its journal, its blob folder. */
export interface StateFile {
  path: string;
  entries: readonly JournalEntry[];
  journal: Journal;
  blobs: EngineBlobs;
}

export interface EngineStore extends Store {
  /** Drops every row and blob (reset); the journal is emptied too. */
  clear(): void;
  /** Many writes, one fsync. */
  batch<T>(fn: () => T): T;
  /** True when state was loaded from a non-empty --state file (so the seed is not loaded again). */
  readonly restored: boolean;
  close(): void;
}

type Row = { id: string; external_id?: string | null };

class OrgRows<T extends Row> {
  constructor(readonly org: string) {}
  rows: T[] = [];
  byId = new Map<string, T>();
  byExt = new Map<string, T>();
}

class MemoryCollection<T extends Row> implements Collection<T> {
  // No global id -> organization index: organizations are few, and an index would cost an entry per row.
  private orgs = new Map<string, OrgRows<T>>();
  constructor(
    private name: string,
    private journal: Journal | undefined,
    /** The row holding an external_id in another collection of the same namespace (XID-016), if any. */
    private heldElsewhere: (org: string, externalId: string) => Row | undefined = () => undefined,
  ) {}

  private org(org: string, create = false): OrgRows<T> | undefined {
    let o = this.orgs.get(org);
    if (!o && create) this.orgs.set(org, (o = new OrgRows<T>(org)));
    return o;
  }
  get(org: string, id: string) {
    return this.orgs.get(org)?.byId.get(id);
  }
  all(org: string) {
    return this.orgs.get(org)?.rows ?? [];
  }
  page(org: string, offset: number, limit: number) {
    return this.orgs.get(org)?.rows.slice(offset, offset + limit) ?? [];
  }
  count(org: string) {
    return this.orgs.get(org)?.rows.length ?? 0;
  }
  findByExternalId(org: string, externalId: string) {
    return this.orgs.get(org)?.byExt.get(externalId);
  }
  orgOf(id: string) {
    for (const o of this.orgs.values()) if (o.byId.has(id)) return o.org; // values(): no [key, value] pair per organization
    return undefined;
  }
  insert(org: string, row: T): T {
    const o = this.org(org, true)!;
    const ext = row.external_id;
    if (ext != null) {
      const existing = o.byExt.get(ext) ?? this.heldElsewhere(org, ext);
      if (existing) throw new ExternalIdConflict({ id: existing.id, external_id: ext });
    }
    if (this.orgOf(row.id) !== undefined) throw new DuplicateId(this.name, row.id);
    this.journal?.append({ c: this.name, o: 'put', g: org, r: row });
    this.apply(org, row);
    return row;
  }
  put(org: string, row: T): T {
    const o = this.org(org, true)!;
    const old = o.byId.get(row.id);
    const fixed = old && old.external_id != null ? { ...row, external_id: old.external_id } : row;
    this.journal?.append({ c: this.name, o: 'put', g: org, r: fixed });
    this.apply(org, fixed);
    return fixed;
  }
  delete(org: string, id: string): boolean {
    if (!this.orgs.get(org)?.byId.has(id)) return false;
    this.journal?.append({ c: this.name, o: 'del', g: org, id });
    this.remove(org, id);
    return true;
  }
  /** Applies a put without journaling (replay and the methods above). */
  apply(org: string, row: T) {
    const o = this.org(org, true)!;
    const old = o.byId.get(row.id);
    if (old) {
      o.rows[o.rows.indexOf(old)] = row;
      if (old.external_id != null) o.byExt.delete(old.external_id);
    } else o.rows.push(row);
    o.byId.set(row.id, row);
    if (row.external_id != null) o.byExt.set(row.external_id, row);
  }
  remove(org: string, id: string) {
    const o = this.orgs.get(org);
    const row = o?.byId.get(id);
    if (!o || !row) return;
    o.rows.splice(o.rows.indexOf(row), 1);
    o.byId.delete(id);
    if (row.external_id != null) o.byExt.delete(row.external_id);
  }
  clear() {
    this.orgs.clear();
  }
}

/**
 * `externalIdNamespace`: collections whose external_ids share one namespace per organization (the contract's
 * ExternalIdInUse: a value held by a row of one of them is a conflict on an insert into any other).
 */
export function createStore(
  opts: { state?: StateFile; warn?: (message: string) => void; externalIdNamespace?: readonly string[] } = {},
): EngineStore {
  const warn = opts.warn ?? console.warn;
  const entries = opts.state?.entries ?? [];
  const journal = opts.state?.journal;
  const collections = new Map<string, MemoryCollection<Row>>();
  const shared = opts.externalIdNamespace ?? [];
  const collection = (name: string): MemoryCollection<Row> => {
    let c = collections.get(name);
    if (!c) {
      const others = shared.includes(name) ? shared.filter((n) => n !== name) : [];
      const heldElsewhere = (org: string, ext: string) =>
        others.map((n) => collection(n).findByExternalId(org, ext)).find((r) => r !== undefined);
      collections.set(name, (c = new MemoryCollection<Row>(name, journal, heldElsewhere)));
    }
    return c;
  };
  for (const e of entries) {
    if (e.o === 'put') collection(e.c).apply(e.g, e.r);
    else collection(e.c).remove(e.g, e.id);
  }
  const blobs = opts.state?.blobs ?? memoryBlobs();
  if (opts.state) {
    const swept = blobs.sweep((id) => [...collections.values()].some((c) => c.orgOf(id) !== undefined));
    if (swept.length)
      warn(`State file ${opts.state.path}: removed ${swept.length} orphan blob file(s) left by an interrupted write: ${swept.join(', ')}`);
  }
  return {
    collection: <T extends { id: string }>(name: string) => collection(name) as unknown as Collection<T>,
    blobs,
    restored: entries.length > 0,
    batch: (fn) => (journal ? journal.batch(fn) : fn()),
    clear() {
      for (const c of collections.values()) c.clear();
      journal?.truncate();
      blobs.clear();
    },
    close: () => journal?.close(),
  };
}

export type EngineBlobs = BlobStore & {
  clear(): void;
  /** Removes what no row owns (a `.tmp` of a write cut short, or bytes stored before their row); returns the names. */
  sweep(isLive: (id: string) => boolean): string[];
};

function memoryBlobs(): EngineBlobs {
  const m = new Map<string, Uint8Array>();
  return {
    put: (id, b) => void m.set(id, b),
    get: (id) => m.get(id),
    delete: (id) => void m.delete(id),
    verify: (id, size) => {
      const b = m.get(id);
      return !b ? { kind: 'missing' } : b.length !== size ? { kind: 'size', bytes: b.length } : undefined;
    },
    clear: () => m.clear(),
    sweep: () => [],
  };
}
