// Faults injected through POST /__mock/faults: counted kinds that features consume with take(), `http` faults that
// answer a matching request with a given status before any feature runs, and network faults (latency, timeout, drop,
// reset, malformed: network-faults.ts) taken as a matching request arrives.
// A fault armed with a `scope` reaches only requests that carry the header X-Mock-Fault-Scope with that value (a
// conformance check arms its own and sends the header), so concurrent users of one mock never take each other's.
import type { CountedFaultKind, FaultKind, Faults, NetworkFaultKind } from './deps.ts';
import { compileGlob, globMatches, type Glob } from './glob.ts';
import { requestHeader } from './request-header.ts';
import { API_BASE } from './spec.ts';

/** The request header a scoped fault matches. */
export const FAULT_SCOPE_HEADER = 'x-mock-fault-scope';
/** The fault scope a request carries, if any. */
export const faultScope = (c: Parameters<typeof requestHeader>[0]) => requestHeader(c, FAULT_SCOPE_HEADER) || undefined;

const NETWORK_FAULT_KINDS: readonly NetworkFaultKind[] = ['latency', 'timeout', 'drop', 'reset', 'malformed'];

export const FAULT_KINDS: readonly FaultKind[] = [
  'extraction-fails',
  'extraction-not-queued',
  'regeneration-unavailable',
  'rate-limited',
  'http',
  ...NETWORK_FAULT_KINDS,
];

/** Kinds aimed at requests by method and path. */
const AIMED = new Set<FaultKind>(['http', ...NETWORK_FAULT_KINDS]);
export const isAimed = (kind: FaultKind) => AIMED.has(kind);

/**
 * At most this many faults armed at once, each path at most MAX_FAULT_PATH characters: every API request is matched
 * against each armed fault (2,000 armed 2,047-character patterns held one request for 26.8 s, issue 42). Far more than
 * a test or a page arms; bench/fault-glob.ts measures a request with all of them armed.
 */
export const MAX_ARMED_FAULTS = 100;
export const MAX_FAULT_PATH = 256;

/** A fault as armed and listed. */
export interface Fault {
  id: number;
  kind: FaultKind;
  /** Occurrences left; null = until cleared. */
  count: number | null;
  method?: string;
  path?: string;
  status?: number;
  /** latency: the delay, fixed or a range [min, max]; timeout: how long the connection is held. In milliseconds. */
  ms?: number | readonly [number, number];
  /** Reaches only requests whose X-Mock-Fault-Scope header carries this value; unscoped faults reach any request. */
  scope?: string;
}

/** The request a fault may be aimed at: its method, its path relative to the API base and its whole path. */
export interface AimedRequest {
  method: string;
  rel: string;
  path: string;
  scope: string | undefined;
}

export interface EngineFaults extends Faults {
  /** True while any fault is armed: the pipeline skips reading the scope header of every request otherwise. */
  readonly armed: boolean;
  /** Arms it; undefined when MAX_ARMED_FAULTS are armed already. */
  add(f: Omit<Fault, 'id'>): Fault | undefined;
  list(): Fault[];
  /** Drops every fault, or only those of one scope. */
  clear(scope?: string): void;
  /** Consumes an `http` fault aimed at the request. */
  takeHttp(req: AimedRequest): Fault | undefined;
  /** Consumes a network fault aimed at the request. */
  takeNetwork(req: AimedRequest): Fault | undefined;
}

/** An armed fault and its path compiled once (a glob when the path has a `*`). */
interface Armed {
  fault: Fault;
  glob: Glob | undefined;
}

export function createFaults(): EngineFaults {
  let armed: Armed[] = [];
  let next = 1;
  /** The request's own scoped fault first, else an unscoped one; never another scope's. */
  const pick = (scope: string | undefined, matches: (f: Fault, a: Armed) => boolean) =>
    (scope === undefined ? undefined : armed.find((a) => a.fault.scope === scope && matches(a.fault, a))) ??
    armed.find((a) => a.fault.scope === undefined && matches(a.fault, a));
  const consume = (a: Armed) => {
    const f = a.fault;
    if (f.count !== null && --f.count <= 0) armed = armed.filter((x) => x !== a);
    return { ...f };
  };
  const aimedAt = (req: AimedRequest, network: boolean) => {
    // Faults armed with one pattern share its glob (add): it is run on the request's path once.
    const verdicts = new Map<Glob, boolean>();
    return (f: Fault, a: Armed) => {
      if (!(network ? f.kind !== 'http' && AIMED.has(f.kind) : f.kind === 'http') || (f.method !== '*' && f.method !== req.method))
        return false;
      if (!a.glob) return pathMatches(f.path!, a.glob, req);
      let v = verdicts.get(a.glob);
      if (v === undefined) verdicts.set(a.glob, (v = pathMatches(f.path!, a.glob, req)));
      return v;
    };
  };
  const takeAimed = (req: AimedRequest, network: boolean) => {
    if (!armed.length) return undefined;
    const a = pick(req.scope, aimedAt(req, network));
    return a && consume(a);
  };
  return {
    get armed() {
      return armed.length > 0;
    },
    add(f) {
      if (armed.length >= MAX_ARMED_FAULTS) return undefined;
      const fault = { ...f, id: next++ };
      // A relative glob may also match the whole path (`/**/patients`): compiled to read both in one pass.
      const glob = f.path?.includes('*') ? (armed.find((a) => a.fault.path === f.path)?.glob ?? compileGlob(f.path, API_BASE)) : undefined;
      armed.push({ fault, glob });
      return { ...fault };
    },
    list: () => armed.map((a) => ({ ...a.fault })),
    clear: (scope) => void (armed = scope === undefined ? [] : armed.filter((a) => a.fault.scope !== scope)),
    take(kind: CountedFaultKind, scope) {
      if (!armed.length) return false;
      const a = pick(scope, (x) => x.kind === kind);
      return a ? (consume(a), true) : false;
    },
    takeScoped(kind: CountedFaultKind, scope) {
      const a = armed.find((x) => x.fault.scope === scope && x.fault.kind === kind);
      return a ? (consume(a), true) : false;
    },
    takeHttp: (req) => takeAimed(req, false),
    takeNetwork: (req) => takeAimed(req, true),
  };
}

/**
 * A glob is tried on paths of at most this many characters (a longer one meets only faults with a literal path): the
 * cost of matching is the path's length times the armed globs' sizes, and no path of the contract comes near it.
 */
export const MAX_GLOB_MATCHED_PATH = 1024;

/** The path as given (relative to the API base, or absolute), or its glob: `*` one segment, `**` the rest. */
function pathMatches(pattern: string, glob: Glob | undefined, req: AimedRequest): boolean {
  if (!glob) return pattern === req.rel || pattern === req.path;
  if (req.path.length > MAX_GLOB_MATCHED_PATH) return false;
  // One pass reads the relative path as given and as under the API base (compileGlob's `under`), when that is the path.
  if (req.path === API_BASE + req.rel) return globMatches(glob, req.rel);
  return globMatches(glob, req.rel) || globMatches(glob, req.path);
}
