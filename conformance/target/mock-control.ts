// The kit's mock control API (/__mock on the same host): keys, faults, webhooks, deliveries, note events.
// Used only with --mock; never sends an API key, and under --read-only nothing but GET. Like the suite's HTTP client,
// it follows no redirect, times out and reads an answer only up to MAX_ANSWER_BYTES, whatever the target is.
import { readBounded } from './answer-bounds.ts';
import { SkipCheck } from '../run/model.ts';
export interface MockKey {
  key: string;
  organization_id: string;
  provider_id: string;
  scopes: string[];
  state: 'active' | 'expired' | 'revoked';
}

/** A session as GET /__mock/sessions lists it (the API itself lists no sessions). */
export interface MockSession {
  id: string;
  organization_id: string;
  transcript_status: string;
  has_note: boolean;
  ready: boolean;
}

/** The request header a scoped fault of the control API matches (POST /__mock/faults with `scope`). */
export const FAULT_SCOPE_HEADER = 'X-Mock-Fault-Scope';

export class MockControl {
  readonly url: string;

  /**
   * `scope`: faults this view arms reach only requests carrying FAULT_SCOPE_HEADER with that value, and it clears
   * only its own; `onArm` is told when it arms one (so the check's requests start carrying the header).
   * `readOnly` (--read-only): nothing but GET is sent.
   */
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    readonly scope?: string,
    private readonly onArm?: () => void,
    private readonly readOnly = false,
  ) {
    this.url = `${new URL(baseUrl).origin}/__mock`;
  }

  /** The same control API, with faults scoped to one check. */
  withScope(scope: string, onArm: () => void): MockControl {
    const view = new MockControl(this.baseUrl, this.timeoutMs, scope, onArm, this.readOnly);
    view.secondMs = this.secondMs;
    return view;
  }

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    if (this.readOnly && method !== 'GET') throw new SkipCheck(`--read-only: needs ${method} ${this.url}${path}`);
    const res = await fetch(this.url + path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await readBounded(res);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* keep the text */
    }
    return { status: res.status, body: parsed as T };
  }

  /**
   * The mock's second in real milliseconds (1000 x its --time-scale, from GET /health), when it says: timing checks
   * then judge scaled durations against it instead of inferring the second from a retry gap, which a late timer on
   * a loaded machine inflates.
   */
  secondMs?: number;

  async health(): Promise<boolean> {
    try {
      const r = await this.call<{ time_scale?: unknown }>('GET', '/health');
      const scale = r.body?.time_scale;
      if (typeof scale === 'number' && Number.isFinite(scale) && scale > 0) this.secondMs = 1000 * scale;
      return r.status === 200;
    } catch {
      return false;
    }
  }

  async keys(): Promise<MockKey[]> {
    const r = await this.call<{ data?: MockKey[] }>('GET', '/keys');
    if (r.status !== 200 || !Array.isArray(r.body?.data)) throw new Error(`GET ${this.url}/keys answered ${r.status}`);
    return r.body.data;
  }

  async fault(f: { kind: string; count?: number; method?: string; path?: string; status?: number }): Promise<void> {
    this.onArm?.();
    const r = await this.call('POST', '/faults', this.scope === undefined ? f : { ...f, scope: this.scope });
    if (r.status >= 300) throw new Error(`POST ${this.url}/faults ${JSON.stringify(f)} answered ${r.status}: ${JSON.stringify(r.body)}`);
  }

  /** Every seeded organization's sessions with their readiness for regeneration. */
  async sessions(): Promise<MockSession[]> {
    const r = await this.call<{ data?: MockSession[] }>('GET', '/sessions');
    if (r.status !== 200 || !Array.isArray(r.body?.data)) throw new Error(`GET ${this.url}/sessions answered ${r.status}`);
    return r.body.data;
  }

  async clearFaults(): Promise<void> {
    if (this.readOnly) return; // nothing was armed
    await this.call('DELETE', this.scope === undefined ? '/faults' : `/faults?scope=${encodeURIComponent(this.scope)}`);
  }
}
