// The suite's webhook receiver (--webhook-receiver, or the mock's deliveries with --mock): records every delivery
// (arrival and answer times, headers, raw body, the payload read from JSON, XML or Form Data) and answers as checks
// script it. A script names the resources it is for (document or note ids, a document's external_id), so a check's
// 500s go only to deliveries about its own resources, never to a late delivery caused by another check. Built on the
// recording receiver of spec/runtime, which knows nothing of the mock.
import { startReceiver, type Receiver as Recording } from '../../spec/runtime/webhook-receiver.ts';
import type { WebhookFormat } from '../../spec/runtime/webhook-codec.ts';
import { readPayload } from './delivery-payload.ts';

export interface Delivery {
  /** performance.now() when the delivery arrived, and when the receiver answered it. */
  at: number;
  answeredAt: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The format the body was read as (by its Content-Type, else by its first character). */
  format?: WebhookFormat;
  /** The payload, whatever the format (XML and Form Data fields typed as JSON carries them); unset when unreadable. */
  json?: Record<string, unknown>;
  /** Why the body could not be read as a payload. */
  unreadable?: string;
  answered: number;
}

/** Whether a delivery is about `id`: its document_id, note_id or (a document event's) external_id. */
export const isAbout = (d: Pick<Delivery, 'json'>, id: string): boolean =>
  [d.json?.document_id, d.json?.note_id, d.json?.external_id].includes(id);

/** Answers scripted for the deliveries about some resources. */
interface Script {
  /** Also answers deliveries about `id` (a document id known once the upload has answered). */
  add(id: string): void;
  /** Ends the script: later deliveries are answered 200. */
  release(): void;
}

export class Receiver {
  readonly deliveries: Delivery[] = [];
  private recording?: Recording;
  private readonly scripts = new Set<{ ids: Set<string>; statuses: number[] }>();
  port = 0;

  /**
   * Answers the deliveries about one of `ids` with `statuses`, one per delivery in arrival order, then 200. Set it
   * before causing the event (with the external_id an upload will carry): an event may be sent before its cause
   * has answered.
   */
  answerFor(ids: string[], statuses: number[]): Script {
    const script = { ids: new Set(ids), statuses: statuses.slice() };
    this.scripts.add(script);
    return { add: (id) => void script.ids.add(id), release: () => void this.scripts.delete(script) };
  }

  private answerOf(d: Pick<Delivery, 'json'>): number {
    for (const s of this.scripts) if (s.statuses.length && [...s.ids].some((id) => isAbout(d, id))) return s.statuses.shift()!;
    return 200;
  }

  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    this.recording = await startReceiver({
      host,
      port,
      respond: (_, r) => {
        const body = r.body.toString('utf8');
        const read = readPayload(body, String(r.headers['content-type'] ?? ''));
        const status = this.answerOf({ json: read.payload });
        this.record({
          at: r.at,
          answeredAt: performance.now(),
          method: r.method,
          path: r.path,
          headers: r.headers,
          body,
          format: read.format,
          json: read.payload,
          unreadable: read.error,
          answered: status,
        });
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

  /** The deliveries about `id` so far (see isAbout). */
  about(id: string): Delivery[] {
    return this.deliveries.filter((d) => isAbout(d, id));
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
