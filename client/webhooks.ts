// Webhook receiver helpers: parse the three delivery formats (decoded by spec/runtime/webhook-codec.ts, the codec
// the mock encodes with) into a typed event validated against the spec's webhook schemas, a deduplication key, and
// a constant-time check of the static secret header (Node: node:crypto).
import { createHash, timingSafeEqual } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { webhookSpec } from '../generated/spec-values.ts';
import type { WebhookEvent, WebhookEventKind } from '../generated/types.ts';
import { coerceFields, decodeWebhookBody, mediaTypeOf, requireFormat, WebhookParseError } from '../spec/runtime/webhook-codec.ts';

export type { WebhookEvent, WebhookEventKind, WebhookEventOf } from '../generated/types.ts';
export { WebhookParseError };

const SPEC_ID = 'webhooks.json';
const kinds = Object.keys(webhookSpec.events) as WebhookEventKind[];

let validators: Map<string, ValidateFunction> | undefined;
/** Compiled on first use: a receiver that never parses pays nothing. */
function validatorFor(kind: WebhookEventKind): ValidateFunction {
  if (!validators) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats.default(ajv);
    ajv.addVocabulary(['events', 'components']);
    ajv.addSchema({ $id: SPEC_ID, ...webhookSpec });
    validators = new Map(kinds.map((k) => [k, ajv.getSchema(`${SPEC_ID}#/events/${k}`)!]));
  }
  return validators.get(kind)!;
}

export interface ParseWebhookInput {
  /** The raw request body (string or bytes), or an already parsed JSON object. */
  body: string | Uint8Array | ArrayBuffer | object;
  /** The delivery's Content-Type header. */
  contentType: string | null | undefined;
}

/** Parses a delivery in any of the three formats and validates it against the schema of its event kind. */
export function parseWebhook(input: ParseWebhookInput): WebhookEvent {
  if (!input || typeof input !== 'object') throw new WebhookParseError('parseWebhook needs { body, contentType }');
  const { body } = input;
  const format = requireFormat(input.contentType);
  let payload: unknown;
  if (typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer) {
    payload = decodeWebhookBody(body, input.contentType).payload;
    const fields = payload as Record<string, string | null>;
    if (format !== 'JSON' && (kinds as string[]).includes(fields.event as string))
      payload = coerceFields(webhookSpec, webhookSpec.events[fields.event as WebhookEventKind], fields);
  } else if (format === 'JSON')
    payload = body; // already parsed
  else throw new WebhookParseError(`a ${mediaTypeOf(input.contentType)} body must be a string or bytes`);

  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new WebhookParseError('the payload must be an object');
  const kind = (payload as { event?: unknown }).event;
  if (typeof kind !== 'string' || !(kinds as string[]).includes(kind))
    throw new WebhookParseError(`unknown event ${JSON.stringify(kind)}: expected one of ${kinds.join(', ')}`);
  const validate = validatorFor(kind as WebhookEventKind);
  if (!validate(payload)) {
    const details = (validate.errors ?? []).map((e) => ({ path: e.instancePath || '/', message: e.message ?? e.keyword }));
    throw new WebhookParseError(
      `${kind} payload does not match its schema: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`,
      details,
    );
  }
  return payload as WebhookEvent;
}

/** event + resource id + timestamp: one note or document legitimately emits several events, so not the id alone. */
export function webhookDedupeKey(event: WebhookEvent): string {
  const resourceId = 'note_id' in event ? event.note_id : event.document_id;
  return `${event.event}:${resourceId}:${event.timestamp}`;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function headerValue(headers: HeaderBag, name: string): string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers))
    if (k.toLowerCase() === wanted) return Array.isArray(v) ? (v.length === 1 ? v[0] : undefined) : v;
  return undefined;
}

/**
 * True when the static header `name` carries exactly `secret`. Compares SHA-256 digests with timingSafeEqual, so
 * the time taken does not depend on where the values differ or on their lengths.
 */
export function checkStaticHeader(headers: HeaderBag, name: string, secret: string): boolean {
  if (!headers || typeof headers !== 'object') throw new TypeError('headers must be a Headers or a plain header object');
  if (typeof name !== 'string' || !name) throw new TypeError('name must be a non-empty header name');
  if (typeof secret !== 'string' || !secret) throw new TypeError('secret must be a non-empty string');
  const value = headerValue(headers, name);
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  const equal = timingSafeEqual(digest(value ?? ''), digest(secret));
  return value !== undefined && equal;
}
