// Webhook receiver helpers (Node): parse the three delivery formats into a typed event validated against the spec's
// webhook schemas, a deduplication key, and a constant-time check of the static secret header.
//
// Delivery layouts (the source does not show XML and Form Data; the kit's mock sends the same):
//   JSON       the payload object.
//   XML        <?xml version="1.0" encoding="UTF-8"?><webhook xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
//              with one child element per field, text content; null is <field xsi:nil="true"/>.
//   Form Data  application/x-www-form-urlencoded, one pair per field; null is an empty value.
import { createHash, timingSafeEqual } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import { webhookSpec } from '../generated/spec-values.ts';
import type { WebhookEvent, WebhookEventKind } from '../generated/types.ts';

export type { WebhookEvent, WebhookEventKind, WebhookEventOf } from '../generated/types.ts';

export class WebhookParseError extends Error {
  override name = 'WebhookParseError';
  constructor(
    message: string,
    /** ajv's errors when the payload parsed but does not match its schema. */
    readonly details: ReadonlyArray<{ path: string; message: string }> = [],
  ) {
    super(message);
  }
}

type Schema = { type?: string | readonly string[]; anyOf?: readonly Schema[]; $ref?: string; const?: unknown; enum?: readonly unknown[] };
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

function resolve(schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let i = 0; i < 16 && s?.$ref; i++) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(s.$ref)?.[1];
    s = name ? (webhookSpec.components.schemas as Record<string, Schema>)[name] : undefined;
  }
  return s;
}

/** The JSON types a property's schema admits (following $ref and anyOf). */
function typesOf(schema: Schema | undefined, out = new Set<string>()): Set<string> {
  const s = resolve(schema);
  if (!s) return out;
  if (typeof s.type === 'string') out.add(s.type);
  else if (Array.isArray(s.type)) s.type.forEach((t) => out.add(t));
  for (const v of [s.const, ...(s.enum ?? [])]) if (v !== undefined) out.add(v === null ? 'null' : typeof v);
  s.anyOf?.forEach((a) => typesOf(a, out));
  return out;
}

/** XML and Form Data carry strings: turn each back into the type its schema wants (null, number, boolean). */
function coerce(kind: WebhookEventKind, fields: Record<string, string | null>): Record<string, unknown> {
  const props = (resolve(webhookSpec.events[kind] as Schema) as { properties?: Record<string, Schema> } | undefined)?.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(fields)) {
    const types = typesOf(props[name]);
    // XML marks null with xsi:nil (raw null); Form Data sends it as an empty value.
    if (raw === null || (raw === '' && types.has('null'))) out[name] = null;
    else if ((types.has('integer') || types.has('number')) && !types.has('string') && /^-?\d+(\.\d+)?$/.test(raw)) out[name] = Number(raw);
    else if (types.has('boolean') && !types.has('string') && (raw === 'true' || raw === 'false')) out[name] = raw === 'true';
    else out[name] = raw;
  }
  return out;
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  processEntities: true,
});

function fromXml(text: string): Record<string, string | null> {
  let doc: Record<string, unknown>;
  try {
    doc = xml.parse(text, true) as Record<string, unknown>;
  } catch (e) {
    throw new WebhookParseError(`XML body does not parse: ${(e as Error).message}`);
  }
  const roots = Object.keys(doc).filter((k) => !k.startsWith('?'));
  if (roots.length !== 1 || roots[0] !== 'webhook') throw new WebhookParseError(`XML body must have one <webhook> root element, found ${roots.map((r) => `<${r}>`).join(', ') || 'none'}`);
  const root = doc.webhook;
  const fields: Record<string, string | null> = {};
  if (root === '' || root === undefined) return fields;
  if (typeof root !== 'object' || root === null) throw new WebhookParseError('<webhook> must contain one element per field');
  for (const [name, value] of Object.entries(root as Record<string, unknown>)) {
    if (name.startsWith('@')) continue; // xmlns declarations on the root
    if (name === '#text') {
      if (String(value).trim()) throw new WebhookParseError('<webhook> has text outside of field elements');
      continue;
    }
    if (Array.isArray(value)) throw new WebhookParseError(`XML field <${name}> appears more than once`);
    if (typeof value === 'string') fields[name] = value;
    else if (value && typeof value === 'object') {
      const el = value as Record<string, unknown>;
      const nil = el['@xsi:nil'];
      const children = Object.keys(el).filter((k) => !k.startsWith('@') && k !== '#text');
      if (children.length) throw new WebhookParseError(`XML field <${name}> must hold text, not elements`);
      if (nil === 'true' || nil === '1') fields[name] = null;
      else fields[name] = typeof el['#text'] === 'string' ? el['#text'] : '';
    } else fields[name] = '';
  }
  return fields;
}

function fromForm(text: string): Record<string, string | null> {
  const fields: Record<string, string | null> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (name in fields) throw new WebhookParseError(`form field ${name} appears more than once`);
    fields[name] = value;
  }
  return fields;
}

function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
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
  const type = mediaType(input.contentType ?? '');
  const { body } = input;
  const isBytes = body instanceof Uint8Array || body instanceof ArrayBuffer;
  const text = typeof body === 'string' ? body : isBytes ? new TextDecoder('utf-8', { fatal: false }).decode(body) : undefined;

  let payload: unknown;
  if (type === 'application/json' || type.endsWith('+json')) {
    if (text === undefined) payload = body;
    else
      try {
        payload = JSON.parse(text);
      } catch (e) {
        throw new WebhookParseError(`JSON body does not parse: ${(e as Error).message}`);
      }
  } else if (type === 'application/xml' || type === 'text/xml' || type === 'application/x-www-form-urlencoded') {
    if (text === undefined) throw new WebhookParseError(`a ${type} body must be a string or bytes`);
    const fields = type === 'application/x-www-form-urlencoded' ? fromForm(text) : fromXml(text);
    const kind = fields.event;
    payload = typeof kind === 'string' && (kinds as string[]).includes(kind) ? coerce(kind as WebhookEventKind, fields) : fields;
  } else throw new WebhookParseError(`unsupported Content-Type ${JSON.stringify(input.contentType ?? '')}: expected application/json, application/xml or application/x-www-form-urlencoded`);

  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new WebhookParseError('the payload must be an object');
  const kind = (payload as { event?: unknown }).event;
  if (typeof kind !== 'string' || !(kinds as string[]).includes(kind))
    throw new WebhookParseError(`unknown event ${JSON.stringify(kind)}: expected one of ${kinds.join(', ')}`);
  const validate = validatorFor(kind as WebhookEventKind);
  if (!validate(payload)) {
    const details = (validate.errors ?? []).map((e) => ({ path: e.instancePath || '/', message: e.message ?? e.keyword }));
    throw new WebhookParseError(`${kind} payload does not match its schema: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
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
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === wanted) return Array.isArray(v) ? (v.length === 1 ? v[0] : undefined) : v;
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
