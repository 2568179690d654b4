// The mock's control API (/__mock) as the suite reads it (conformance/target/mock-control.ts: keys, sessions, faults), sent
// through the run's Guard: a target that only claims to be the mock gets the same deadline, answer bound and
// no-redirect policy as the API itself. Its answers are read unredacted (the key list is what the run needs); they
// reach the output only inside an error message, which the runner redacts with every key the mock listed.
import { MockControl } from '../conformance/target/mock-control.ts';
import type { Guard } from './guard.ts';

export class GuardedMockControl extends MockControl {
  constructor(
    baseUrl: string,
    private readonly guard: Guard,
    scope?: string,
  ) {
    super(baseUrl, guard.limits.timeoutMs, scope);
  }

  override async call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const a = await this.guard.send({
      method,
      url: this.url + path,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      unredacted: true,
    });
    const text = a.body.toString('utf8');
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* keep the text */
    }
    return { status: a.status, body: parsed as T };
  }
}
