// A check's faults are scoped to it: only its own requests, which carry the scope header once it armed one, take
// them, so checks running side by side never meet each other's faults (fault-scope.test.ts).
import type { RequestSpec } from '../target/http.ts';
import { FAULT_SCOPE_HEADER, type MockControl } from '../target/mock-control.ts';

/** The check's own view of the mock's faults: armed for its requests only, cleared when it ends. */
export interface FaultScope {
  mock?: MockControl;
  spec(spec: RequestSpec): RequestSpec;
  clear(): Promise<void>;
}

/** The scope of the check `name` in the run of `prefix` (the mock's control API, when the run has it). */
export function faultScope(mock: MockControl | undefined, prefix: string, name: string): FaultScope {
  let armed = false;
  const scope = `${prefix}${name}`;
  const view = mock?.withScope(scope, () => (armed = true));
  return {
    mock: view,
    spec: (spec: RequestSpec): RequestSpec => (armed ? { ...spec, headers: { ...spec.headers, [FAULT_SCOPE_HEADER]: scope } } : spec),
    /** What the check armed and did not use goes with it (a user's own faults on the mock are left alone). */
    clear: async () => void (armed && (await view?.clearFaults().catch(() => undefined))),
  };
}
