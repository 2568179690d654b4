// Small helpers for the mock's integration tests: a JSON client bound to a running mock and a key.
import type { RunningMock } from '../server.ts';

export interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export function client(m: RunningMock) {
  const key = (label: string) => m.seed.keys.find((k) => k.label === label)!.key;
  const call = async (
    method: string,
    path: string,
    opts: { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply> => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.key !== null) headers['x-api-key'] = opts.key ?? key('all');
    let body: string | undefined;
    if (opts.body !== undefined) (headers['content-type'] ??= 'application/json'), (body = JSON.stringify(opts.body));
    if (opts.raw !== undefined) body = opts.raw;
    const r = await fetch(`${m.url}${path}`, { method, headers, body, signal: AbortSignal.timeout(10_000) });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: r.status, headers: r.headers, body: parsed };
  };
  return { call, key };
}
