// waitForDocument(): polls one document until its extraction is terminal, bounded by a timeout.
import type { Document, DocumentStatus } from '../generated/types.ts';
import { WaitTimeoutError } from './errors.ts';

/** Terminal for one extraction run (checked against the spec's DocumentStatus enum). */
const TERMINAL: ReadonlyArray<Extract<DocumentStatus, 'completed' | 'failed'>> = ['completed', 'failed'];

export interface WaitOptions {
  /** Give up after this long (default 120 000 ms; a PDF takes roughly 10 to 30 s). */
  timeoutMs?: number;
  /** Pause between polls (default 1 000 ms). */
  intervalMs?: number;
  signal?: AbortSignal;
}

export type DocumentRef = { externalId: string; id?: never } | { id: string; externalId?: never };

export async function waitFor(fetchOnce: () => Promise<Document>, what: string, options: WaitOptions = {}): Promise<Document> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const intervalMs = options.intervalMs ?? 1_000;
  if (!(timeoutMs >= 0) || !(intervalMs >= 0)) throw new TypeError('timeoutMs and intervalMs must be numbers >= 0');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    options.signal?.throwIfAborted();
    const doc = await fetchOnce();
    if ((TERMINAL as readonly string[]).includes(doc.status)) return doc;
    const left = deadline - Date.now();
    if (left <= 0) throw new WaitTimeoutError(`${what} is still ${doc.status} after ${timeoutMs} ms`, doc);
    await new Promise((r) => setTimeout(r, Math.min(intervalMs, left)));
  }
}
