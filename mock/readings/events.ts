// The readings that change what a webhook delivery carries and when: other values of source, another wording of an
// extraction's failure, a relative document_url, another XML layout, jitter on the retries. The events simulator
// applies them to each built payload (mock/features/events/feature.ts).
import type { PlayedReadings } from '../platform/deps.ts';
import type { WebhookLayout } from '../../spec/runtime/webhook-encode.ts';

type Payload = Record<string, string | null>;

const OTHER_SOURCES: Record<string, string> = { api: 'REGENERATE_ENDPOINT', session: 'SYSTEM' };

/** The payload as that server sends it. */
export function shapePayload(r: PlayedReadings, payload: Payload): Payload {
  if (!r.any) return payload;
  const out = { ...payload };
  if (r.has('event-source-other') && typeof out.source === 'string') out.source = OTHER_SOURCES[out.source] ?? out.source.toUpperCase();
  if (r.has('event-error-other-words') && typeof out.error === 'string') out.error = `EXTRACTION_FAILED: ${out.error}`;
  if (r.has('document-url-relative') && typeof out.document_url === 'string' && /^https?:\/\//.test(out.document_url)) {
    const u = new URL(out.document_url);
    out.document_url = u.pathname + u.search;
  }
  return out;
}

/** The XML layout that server writes (the kit's: <webhook>, xsi:nil for null). */
export const payloadLayout = (r: PlayedReadings): WebhookLayout | undefined =>
  r.has('xml-root-event') ? { xmlRoot: 'event', nullAsEmpty: true } : undefined;

/** retry-jitter: up to 20 % more than each documented delay (the cap of 5 s still holds). */
export const retryJitter = (r: PlayedReadings): (() => number) | undefined =>
  r.has('retry-jitter') ? () => Math.random() * 0.2 : undefined;
