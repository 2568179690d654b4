// Every resource the run creates is recorded the moment a create answers 2xx (whatever check sent it, even a
// negative case a broken server wrongly accepted) and deleted at the end, newest first, even after a failure or
// Ctrl-C. Only resources created by this run are ever deleted.
import type { Contract } from '../../spec/runtime/contract.ts';
import type { Http, KeyRef } from '../target/http.ts';
import type { Exchange } from '../../judge/define.ts';

interface Created {
  deletePath: string;
  label: string;
  /** The role of the key that created it (KeyRef.role): only that key's organization can delete it. */
  keyRole?: string;
}

export class Cleanup {
  private readonly created: Created[] = [];
  private readonly deleted = new Set<string>();
  removed = 0;
  /** What was left behind, each once, with how many times it happened. */
  private readonly left = new Map<string, number>();
  /** Keys other than the main one that create resources (another organization's), by role. */
  private readonly keys = new Map<string, KeyRef>();

  constructor(
    private readonly contract: Contract,
    private readonly prefix: string,
  ) {}

  get count(): number {
    return this.created.length;
  }

  /** Each left-behind resource once: "… (seen 80 times)" when the same one came back again and again. */
  get leftovers(): string[] {
    return [...this.left].map(([what, n]) => (n > 1 ? `${what} (seen ${n} times)` : what));
  }

  private leave(what: string): void {
    this.left.set(what, (this.left.get(what) ?? 0) + 1);
  }

  /** A check that creates with a key other than the main one names it first, so the end deletes with that key. */
  deleteWith(key: KeyRef): void {
    this.keys.set(key.role, key);
  }

  /** Watches every exchange: a 2xx POST that created something with an id is remembered with its DELETE path. */
  observe(ex: Exchange): void {
    const op = ex.operation;
    if (op?.method !== 'POST' || ex.response.status < 200 || ex.response.status > 299) return;
    const data = (ex.response.json as { data?: { id?: unknown; external_id?: unknown } } | undefined)?.data;
    if (!data || (typeof data.id !== 'string' && typeof data.id !== 'number')) return;
    const del = this.contract.operations.find(
      (o) => o.method === 'DELETE' && new RegExp(`^${escapeRe(op.template)}/\\{[^}/]+\\}$`).test(o.template),
    );
    if (!del) return; // not a create (extract, regenerate)
    const deletePath = `${ex.request.path.replace(/\/$/, '')}/${encodeURIComponent(String(data.id))}`;
    if (!this.created.some((c) => c.deletePath === deletePath))
      this.created.push({
        deletePath,
        label: `${op.operationId} ${String(data.id)} (${String(data.external_id ?? '')})`,
        keyRole: ex.request.keyRole,
      });
    if (typeof data.external_id === 'string' && !data.external_id.startsWith(this.prefix))
      this.leave(`created without the run prefix: ${deletePath}`);
  }

  /** A check that deleted its own resource says so, so the end does not delete twice. */
  observeDelete(ex: Exchange): void {
    if (ex.request.method === 'DELETE' && (ex.response.status === 200 || ex.response.status === 204 || ex.response.status === 404))
      this.deleted.add(ex.request.path);
  }

  /** Deletes what the run created, newest first; past `until` (performance.now() time) the rest is left, each named. */
  async run(http: Http, key: KeyRef, until = Infinity): Promise<void> {
    for (const c of [...this.created].reverse()) {
      if (this.deleted.has(c.deletePath)) {
        this.removed++;
        continue;
      }
      if (performance.now() > until) {
        this.leave(`${c.label}: not deleted, the cleanup's time after --max-time ran out`);
        continue;
      }
      // Another organization's resource answers 404 to the main key: it is deleted with the key that created it.
      const own = (c.keyRole && this.keys.get(c.keyRole)) || key;
      try {
        const ex = await http.send('cleanup', { method: 'DELETE', path: c.deletePath, key: own });
        if (ex.response.status < 300 || ex.response.status === 404) this.removed++;
        else this.leave(`${c.label}: DELETE answered ${ex.response.status}`);
      } catch (err) {
        this.leave(`${c.label}: ${(err as Error).message}`);
      }
    }
  }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
}
