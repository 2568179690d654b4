// The suite's webhook receiver (--webhook-receiver): records every delivery (arrival time, headers, raw body, parsed
// JSON) and answers with the status a check scripts for it, so retries and their backoff can be observed. Built on
// the recording receiver of spec/runtime, which knows nothing of the mock.
import { startReceiver, type Receiver as Recording } from '../spec/runtime/webhook-receiver.ts';

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
  private recording?: Recording;
  private script: number[] = [];
  port = 0;

  /** The next statuses to answer, in order (then 200). */
  answerNext(statuses: number[]): void {
    this.script = statuses.slice();
  }

  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    this.recording = await startReceiver({
      host,
      port,
      respond: (_, r) => {
        const body = r.body.toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const status = this.script.shift() ?? 200;
        this.record({ at: r.at, method: r.method, path: r.path, headers: r.headers, body, json, answered: status });
        return { status, headers: { 'Content-Type': 'text/plain' }, body: status < 300 ? 'ok' : 'retry' };
      },
    });
    this.port = this.recording.port;
    return this.port;
  }

  /** Keeps one delivery (a test subclass may alter it first, to play a service that sends wrong payloads). */
  protected record(d: Delivery): void {
    this.deliveries.push(d);
  }

  /** Waits until `pred` holds for the recorded deliveries, or the deadline passes. */
  async waitFor(pred: (d: Delivery[]) => boolean, timeoutMs: number): Promise<boolean> {
    if (!this.recording) return pred(this.deliveries);
    return this.recording.waitUntil(() => pred(this.deliveries), timeoutMs, 250);
  }

  async close(): Promise<void> {
    await this.recording?.close();
  }
}
