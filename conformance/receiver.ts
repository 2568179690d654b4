// A webhook receiver: records every delivery (arrival time, headers, raw body) and answers with the status a
// check scripts for it, so retries and their backoff can be observed.
import { createServer, type Server } from 'node:http';

export interface Delivery {
  at: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json?: unknown;
  answered: number;
}

export class Receiver {
  readonly deliveries: Delivery[] = [];
  private server?: Server;
  private script: number[] = [];
  private waiters: Array<() => void> = [];
  port = 0;

  /** The next statuses to answer, in order (then 200). */
  answerNext(statuses: number[]): void {
    this.script = statuses.slice();
  }

  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const status = this.script.shift() ?? 200;
        this.record({ at: performance.now(), method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body, json, answered: status });
        res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status < 300 ? 'ok' : 'retry');
        for (const w of this.waiters.splice(0)) w();
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
    const addr = this.server.address();
    this.port = typeof addr === 'object' && addr ? addr.port : port;
    return this.port;
  }

  /** Keeps one delivery (a test subclass may alter it first, to play a service that sends wrong payloads). */
  protected record(d: Delivery): void {
    this.deliveries.push(d);
  }

  /** Waits until `pred` holds for the recorded deliveries, or the deadline passes. */
  waitFor(pred: (d: Delivery[]) => boolean, timeoutMs: number): Promise<boolean> {
    return waitUntil(() => pred(this.deliveries), timeoutMs, this.waiters, 250);
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections?.();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }
}

/**
 * Waits until `pred` holds or `timeoutMs` passes, looking again on each arrival (whoever records one calls and
 * empties `waiters`) and at least every `pollMs`. Also the waiting of the webhook checks' own probe.
 */
export async function waitUntil(pred: () => boolean, timeoutMs: number, waiters: Array<() => void>, pollMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!pred()) {
    const left = deadline - performance.now();
    if (left <= 0) return false;
    await new Promise<void>((r) => {
      const t = setTimeout(r, Math.min(left, pollMs));
      waiters.push(() => {
        clearTimeout(t);
        r();
      });
    });
  }
  return true;
}
