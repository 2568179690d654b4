// Faults injected through POST /__mock/faults: counted kinds that modules consume with take(), and `http`
// faults that answer a matching request with a given status before any module runs.
import type { FaultKind, Faults } from './deps.ts';

export const FAULT_KINDS: readonly FaultKind[] = [
  'extraction-fails',
  'extraction-not-queued',
  'regeneration-unavailable',
  'rate-limited',
  'http',
];

export interface Fault {
  id: number;
  kind: FaultKind;
  /** Occurrences left; null = until cleared. */
  count: number | null;
  method?: string;
  path?: string;
  status?: number;
}

export interface EngineFaults extends Faults {
  add(f: Omit<Fault, 'id'>): Fault;
  list(): Fault[];
  clear(): void;
  /** Consumes an `http` fault matching the request (path relative to the API base, or absolute). */
  takeHttp(method: string, path: string): Fault | undefined;
}

export function createFaults(): EngineFaults {
  let faults: Fault[] = [];
  let next = 1;
  const consume = (f: Fault) => {
    if (f.count !== null && --f.count <= 0) faults = faults.filter((x) => x !== f);
    return f;
  };
  return {
    add(f) {
      const fault = { ...f, id: next++ };
      faults.push(fault);
      return fault;
    },
    list: () => faults.map((f) => ({ ...f })),
    clear: () => void (faults = []),
    take(kind) {
      if (!faults.length) return false;
      const f = faults.find((x) => x.kind === kind);
      return f ? (consume(f), true) : false;
    },
    takeHttp(method, path) {
      if (!faults.length) return undefined;
      const f = faults.find(
        (x) => x.kind === 'http' && (x.method === '*' || x.method === method) && (x.path === path || pathMatches(x.path!, path)),
      );
      return f && consume(f);
    },
  };
}

/** `/patients/*` matches one segment per `*`; `/patients/**` matches the rest. */
function pathMatches(pattern: string, path: string): boolean {
  if (!pattern.includes('*')) return false;
  const re = pattern.replace(/[.+?^$()|[\]\\{}]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]+').replace(/\u0000/g, '.*');
  return new RegExp(`^${re}$`).test(path);
}
