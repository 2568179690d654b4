// A webhook receiver for tests: node:http on 127.0.0.1, port 0. It records every request and answers with what
// `respond` says for the n-th request (a status, a status with headers, or 'hang' to never answer).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the request ended. */
  at: number;
}

export type Reply = number | 'hang' | { status: number; headers?: Record<string, string> };

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Resolves once `n` requests have arrived (bounded). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(respond: (n: number, req: Received) => Reply = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), at: performance.now() };
      received.push(r);
      waiters.splice(0).forEach((w) => w());
      const reply = respond(received.length, r);
      if (reply === 'hang') return; // never answers; closeAllConnections ends it
      const { status, headers } = typeof reply === 'number' ? { status: reply, headers: {} } : reply;
      res.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    async waitFor(n, timeoutMs = 5000) {
      const end = Date.now() + timeoutMs;
      while (received.length < n) {
        const left = end - Date.now();
        if (left <= 0) throw new Error(`receiver got ${received.length} of ${n} requests within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return received.slice(0, n);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The assumed XML layout parsed back (as client/webhooks.ts does): one child per field, xsi:nil -> null. */
export function parseXmlPayload(xml: string): Record<string, string | null> {
  const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false, trimValues: false }).parse(xml) as Record<string, unknown>;
  const root = parsed.webhook as Record<string, unknown>;
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(root)) {
    if (k.startsWith('@_')) continue;
    out[k] = v && typeof v === 'object' && (v as Record<string, unknown>)['@_xsi:nil'] === 'true' ? null : String(v);
  }
  return out;
}

/** A delivery body decoded by its Content-Type. */
export function decodeBody(r: Received): Record<string, string | null> {
  const type = String(r.headers['content-type'] ?? '');
  const text = r.body.toString('utf8');
  if (type.startsWith('application/json')) return JSON.parse(text) as Record<string, string | null>;
  if (type.startsWith('application/xml')) return parseXmlPayload(text);
  if (type.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  throw new Error(`unexpected content-type ${type}`);
}
