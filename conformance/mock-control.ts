// The kit's mock control API (/__mock on the same host): keys, faults, webhooks, deliveries, note events.
// Used only with --mock; never sends an API key.
export interface MockKey {
  key: string;
  organization_id: string;
  provider_id: string;
  scopes: string[];
  state: 'active' | 'expired' | 'revoked';
}

export interface MockSession {
  id: string;
  organization_id?: string;
  transcriptStatus: string;
  hasNote?: boolean;
  ready?: boolean;
}

export class MockControl {
  readonly url: string;

  constructor(baseUrl: string, private readonly timeoutMs: number) {
    this.url = `${new URL(baseUrl).origin}/__mock`;
  }

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(this.url + path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* keep the text */
    }
    return { status: res.status, body: parsed as T };
  }

  async health(): Promise<boolean> {
    try {
      return (await this.call('GET', '/health')).status === 200;
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
    const r = await this.call('POST', '/faults', f);
    if (r.status >= 300) throw new Error(`POST ${this.url}/faults ${JSON.stringify(f)} answered ${r.status}: ${JSON.stringify(r.body)}`);
  }

  /**
   * Sessions as the control API lists them, or undefined when it has no such route (the API itself lists no
   * sessions, so a session without a note cannot be found through it). Tolerates the shapes such a route may take.
   */
  async sessions(): Promise<MockSession[] | undefined> {
    const r = await this.call<{ data?: Array<Record<string, unknown>> }>('GET', '/sessions').catch(() => undefined);
    if (!r || r.status !== 200 || !Array.isArray(r.body?.data)) return undefined;
    return r.body.data.map((s) => {
      const transcript = s.transcript as { status?: unknown } | undefined;
      const notes = s.notes ?? s.note_ids;
      return {
        id: String(s.id),
        organization_id: typeof s.organization_id === 'string' ? s.organization_id : undefined,
        transcriptStatus: String(s.transcript_status ?? transcript?.status ?? ''),
        hasNote: typeof s.has_note === 'boolean' ? s.has_note : typeof s.note_count === 'number' ? s.note_count > 0 : Array.isArray(notes) ? notes.length > 0 : undefined,
        ready: typeof s.ready === 'boolean' ? s.ready : undefined,
      };
    });
  }

  async clearFaults(): Promise<void> {
    await this.call('DELETE', '/faults');
  }
}
