// The run's first requests (target-probe.ts: is the target the API, is the key taken) reach the mock before any
// check, so with --mock a fault the user armed before the run (unscoped: every request may take it) could be taken
// by them, unseen. The run lists the mock's faults before the probe and after it, arms again what the probe took, so
// the checks meet each fault as the user meant, and says so; a probe that failed names the faults it may have met.
import type { MockControl } from '../target/mock-control.ts';

/** A fault as GET /__mock/faults lists it. */
interface ListedFault {
  id: number;
  kind: string;
  /** Occurrences left; null: until cleared. */
  count: number | null;
  method?: string;
  path?: string;
  status?: number;
  ms?: number | [number, number];
  scope?: string;
}

/** The mock's armed faults, or undefined when the control API does not list them (its health check says why later). */
export async function faultsNow(mock: MockControl): Promise<ListedFault[] | undefined> {
  const r = await mock.call<{ data?: ListedFault[] }>('GET', '/faults').catch(() => undefined);
  return r?.status === 200 && Array.isArray(r.body?.data) ? r.body.data : undefined;
}

const shown = (f: ListedFault, n: number | null) =>
  `${f.kind}${f.method || f.path ? ` ${f.method ?? '*'} ${f.path ?? '*'}` : ''}${f.status ? ` → ${f.status}` : ''} ×${n ?? '∞'}`;

/** What the faults armed before the run were, for the reason of a probe that failed. */
export const armedText = (faults: ListedFault[]) => faults.map((f) => shown(f, f.count)).join(', ');

/**
 * Arms again, unscoped as before, every occurrence of a counted fault the probe took (listed `before` it, fewer or gone
 * after); returns the sentence the run prints, or undefined when the probe took none.
 */
export async function giveBackFaults(mock: MockControl, before: ListedFault[]): Promise<string | undefined> {
  const after = await faultsNow(mock);
  if (!after) return undefined;
  const taken: string[] = [];
  for (const f of before) {
    if (f.scope !== undefined || f.count === null) continue;
    const n = f.count - (after.find((a) => a.id === f.id)?.count ?? 0);
    if (n <= 0) continue;
    const { kind, method, path, status, ms } = f;
    await mock.fault({ kind, count: n, method, path, status, ...(ms === undefined ? {} : { ms }) } as Parameters<MockControl['fault']>[0]);
    taken.push(shown(f, n));
  }
  return taken.length
    ? `the suite's first requests (its probe of the target) took faults armed before the run: ${taken.join(', ')}; armed again, so the checks meet them`
    : undefined;
}
