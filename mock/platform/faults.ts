// Faults injected through POST /__mock/faults: counted kinds that features consume with take(), and `http`
// faults that answer a matching request with a given status before any feature runs.
// A fault armed with a `scope` reaches only requests that carry the header X-Mock-Fault-Scope with that value (a
// conformance check arms its own and sends the header), so concurrent users of one mock never take each other's.
import type { FaultKind, Faults } from './deps.ts';
import { requestHeader } from './request-header.ts';

/** The request header a scoped fault matches. */
const FAULT_SCOPE_HEADER = 'x-mock-fault-scope';
/** The fault scope a request carries, if any. */
export const faultScope = (c: Parameters<typeof requestHeader>[0]) => requestHeader(c, FAULT_SCOPE_HEADER) || undefined;

export const FAULT_KINDS: readonly FaultKind[] = [
  'extraction-fails',
  'extraction-not-queued',
  'regeneration-unavailable',
  'rate-limited',
  'http',
];

interface Fault {
  id: number;
  kind: FaultKind;
  /** Occurrences left; null = until cleared. */
  count: number | null;
  method?: string;
  path?: string;
  status?: number;
  /** Reaches only requests whose X-Mock-Fault-Scope header carries this value; unscoped faults reach any request. */
  scope?: string;
}

export interface EngineFaults extends Faults {
  /** True while any fault is armed: the pipeline skips reading the scope header of every request otherwise. */
  readonly armed: boolean;
  add(f: Omit<Fault, 'id'>): Fault;
  list(): Fault[];
  /** Drops every fault, or only those of one scope. */
  clear(scope?: string): void;
  /** Consumes an `http` fault matching the request (path relative to the API base, or absolute). */
  takeHttp(method: string, path: string, scope?: string): Fault | undefined;
}

export function createFaults(): EngineFaults {
  let faults: Fault[] = [];
  let next = 1;
  /** The request's own scoped fault first, else an unscoped one; never another scope's. */
  const pick = (scope: string | undefined, matches: (f: Fault) => boolean) =>
    (scope === undefined ? undefined : faults.find((x) => x.scope === scope && matches(x))) ??
    faults.find((x) => x.scope === undefined && matches(x));
  const consume = (f: Fault) => {
    if (f.count !== null && --f.count <= 0) faults = faults.filter((x) => x !== f);
    return f;
  };
  return {
    get armed() {
      return faults.length > 0;
    },
    add(f) {
      const fault = { ...f, id: next++ };
      faults.push(fault);
      return fault;
    },
    list: () => faults.map((f) => ({ ...f })),
    clear: (scope) => void (faults = scope === undefined ? [] : faults.filter((f) => f.scope !== scope)),
    take(kind, scope) {
      if (!faults.length) return false;
      const f = pick(scope, (x) => x.kind === kind);
      return f ? (consume(f), true) : false;
    },
    takeScoped(kind, scope) {
      const f = faults.find((x) => x.scope === scope && x.kind === kind);
      return f ? (consume(f), true) : false;
    },
    takeHttp(method, path, scope) {
      if (!faults.length) return undefined;
      const f = pick(
        scope,
        (x) => x.kind === 'http' && (x.method === '*' || x.method === method) && (x.path === path || pathMatches(x.path!, path)),
      );
      return f && consume(f);
    },
  };
}

/** `/patients/*` matches one segment per `*`; `/patients/**` matches the rest. */
function pathMatches(pattern: string, path: string): boolean {
  if (!pattern.includes('*')) return false;
  const literal = (s: string) => s.replace(/[.+?^$()|[\]\\{}]/g, '\\$&');
  const re = pattern
    .split('**')
    .map((part) => part.split('*').map(literal).join('[^/]+'))
    .join('.*');
  return new RegExp(`^${re}$`).test(path);
}
