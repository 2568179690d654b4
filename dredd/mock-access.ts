// With --mock: what only the kit's mock can give a transaction, through its control API (/__mock, no key):
// a key of the run's organization without a scope, sessions ready or not for regeneration, and armed faults.
// Faults are armed in the run's own scope (the X-Mock-Fault-Scope header its armed transactions carry), so they
// reach only those transactions, and clearing them never touches a fault the run did not arm (one set by hand).
import { FAULT_SCOPE_HEADER, type MockKey, type MockSession } from '../conformance/target/mock-control.ts';
import { GuardedMockControl } from './control-api.ts';
import type { Guard } from './guard.ts';

export class MockAccess {
  private readonly control: GuardedMockControl;
  private keys?: Promise<MockKey[]>;
  private sessions?: Promise<MockSession[]>;
  private readonly handedOut = new Set<string>();

  constructor(
    baseUrl: string,
    private readonly mainKey: string,
    guard: Guard,
    /** The run's fault scope (its external_id prefix is unique enough). */
    readonly scope: string,
  ) {
    this.control = new GuardedMockControl(baseUrl, guard, scope);
  }

  /** The header, and its value, that an armed transaction carries to meet its fault. */
  get scopeHeader(): [string, string] {
    return [FAULT_SCOPE_HEADER, this.scope];
  }

  private async organization(): Promise<{ org: string; keys: MockKey[] }> {
    const keys = await (this.keys ??= this.control.keys());
    const org = keys.find((k) => k.key === this.mainKey)?.organization_id;
    if (!org) throw new Error(`--mock: the key is not one of the mock's keys (GET ${this.control.url}/keys)`);
    return { org, keys };
  }

  /** An active key of the run's organization holding none of `scopes` (and not `*`). */
  async keyWithout(scopes: string[]): Promise<string | undefined> {
    const { org, keys } = await this.organization();
    return keys.find(
      (k) => k.organization_id === org && k.state === 'active' && !k.scopes.includes('*') && !scopes.some((s) => k.scopes.includes(s)),
    )?.key;
  }

  /**
   * A session of the run's organization that is (or is not) ready for regeneration, a different one each call while
   * there are (a queued regeneration may leave a session busy for the next transaction).
   */
  async session(ready: boolean): Promise<string> {
    const { org } = await this.organization();
    const all = (await (this.sessions ??= this.control.sessions())).filter((s) => s.organization_id === org && s.ready === ready);
    const found = all.find((s) => !this.handedOut.has(s.id)) ?? all[0];
    if (found) this.handedOut.add(found.id);
    if (!found)
      throw new Error(
        `--mock: GET ${this.control.url}/sessions lists no session that is ${ready ? '' : 'not '}ready for the key's organization`,
      );
    return found.id;
  }

  /** Arms a fault in the run's scope for its next matching request (count 1). */
  fault(kind: string): Promise<void> {
    return this.control.fault({ kind, count: 1 });
  }

  /** Disarms what the run armed but a transaction did not consume; faults of other scopes (or none) stay. */
  clearFaults(): Promise<void> {
    return this.control.clearFaults();
  }
}
