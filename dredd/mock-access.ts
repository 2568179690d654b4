// With --mock: what only the kit's mock can give a transaction, through its control API (/__mock, no key):
// a key of the run's organization without a scope, sessions ready or not for regeneration, and armed faults.
import { MockControl, type MockKey, type MockSession } from '../conformance/mock-control.ts';

export class MockAccess {
  private readonly control: MockControl;
  private keys?: Promise<MockKey[]>;
  private sessions?: Promise<MockSession[]>;
  private readonly handedOut = new Set<string>();

  constructor(
    baseUrl: string,
    private readonly mainKey: string,
  ) {
    this.control = new MockControl(baseUrl, 10_000);
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

  /** Arms a fault for the next matching request (count 1). */
  fault(kind: string): Promise<void> {
    return this.control.fault({ kind, count: 1 });
  }

  /** Disarms what a transaction armed but did not consume (its request never reached the fault). */
  clearFaults(): Promise<void> {
    return this.control.clearFaults();
  }
}
