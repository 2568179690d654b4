// Reads a webhook delivery's body, in any of the three documented formats, into the payload's fields. The source
// names the formats (JSON, XML, Form Data) but not the field layout of XML and Form Data ("not shown"), so besides the
// kit's own layout (spec/runtime/webhook-codec.ts) every reasonable one is read: any XML root, fields as child
// elements (also inside a wrapper element) or as attributes, null as xsi:nil or an empty element; Form Data as
// urlencoded or multipart pairs, bracketed names (payload[note_id]) or one field holding the JSON payload. Text values
// are then typed by the event's schema (null, numbers, booleans), as the client's parseWebhook does.
import { webhookSpec } from '../../generated/spec-values.ts';
import { coerceFields, mediaTypeOf, parseXmlTree, type WebhookFormat } from '../../spec/runtime/webhook-codec.ts';

type Fields = Record<string, string | null>;
type Obj = Record<string, unknown>;

interface ReadPayload {
  format?: WebhookFormat;
  /** The payload as JSON would carry it; undefined when the body could not be read (`error` says why). */
  payload?: Obj;
  error?: string;
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The format by Content-Type; a missing or unknown one by the body's first character. */
function formatOf(contentType: string, body: string): WebhookFormat | undefined {
  const type = mediaTypeOf(contentType);
  if (type === 'application/json' || type.endsWith('+json')) return 'JSON';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'XML';
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') return 'Form Data';
  const first = body.trimStart()[0];
  return first === '{' ? 'JSON' : first === '<' ? 'XML' : body.includes('=') ? 'Form Data' : undefined;
}

/** An element's value: its text, null where it says xsi:nil (or nil), '' when empty. */
function leafValue(v: unknown): string | null {
  if (!isObj(v)) return typeof v === 'string' ? v : '';
  const nil = Object.entries(v).find(([k]) => /^@(\w+:)?nil$/.test(k))?.[1];
  if (nil === 'true' || nil === '1') return null;
  return typeof v['#text'] === 'string' ? v['#text'] : '';
}

const childNames = (node: Obj) => Object.keys(node).filter((k) => !k.startsWith('@') && k !== '#text');

/** Leaves under `node`, depth first (a wrapper's fields too); the first of a repeated name wins. */
function xmlLeaves(node: Obj, out: Fields, depth: number): void {
  for (const name of childNames(node)) {
    const raw = node[name];
    const v = Array.isArray(raw) ? raw[0] : raw;
    if (isObj(v) && childNames(v).length && depth < 4) xmlLeaves(v, out, depth + 1);
    else if (!(name in out)) out[name] = leafValue(v);
  }
}

function xmlFields(text: string): Fields {
  const doc = parseXmlTree(text);
  const roots = Object.keys(doc).filter((k) => !k.startsWith('?') && k !== '#text');
  if (roots.length !== 1) throw new Error(`an XML body has one root element, found ${roots.length}`);
  const root = doc[roots[0]!];
  const out: Fields = {};
  if (isObj(root)) xmlLeaves(root, out, 0);
  // No child elements: the fields as the root's attributes (<event document_id="..."/>).
  if (!Object.keys(out).length && isObj(root))
    for (const [k, v] of Object.entries(root))
      if (k.startsWith('@') && !/^@xmlns/.test(k)) out[k.slice(1).replace(/^\w+:/, '')] = String(v);
  return out;
}

/** The name=value pairs of a multipart/form-data body (text parts; a file part's content as text). */
function multipartPairs(text: string, contentType: string): Array<[string, string]> {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) throw new Error('multipart/form-data without a boundary');
  const pairs: Array<[string, string]> = [];
  for (const part of text.split(`--${boundary}`).slice(1)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const name = /name="([^"]*)"/i.exec(part.slice(0, split))?.[1];
    if (name !== undefined) pairs.push([name, part.slice(split + 4).replace(/\r\n$/, '')]);
  }
  return pairs;
}

/** The fields of a Form Data body, or the payload itself when one field holds it as JSON. */
function formFields(text: string, contentType: string): { fields: Fields } | { json: Obj } {
  const pairs = /multipart\/form-data/i.test(contentType) ? multipartPairs(text, contentType) : [...new URLSearchParams(text)];
  // One field holding the whole payload as JSON (payload={...}).
  if (pairs.length === 1)
    try {
      const j = JSON.parse(pairs[0]![1]) as unknown;
      if (isObj(j)) return { json: j };
    } catch {
      /* a plain value */
    }
  const out: Fields = {};
  for (const [name, value] of pairs) {
    const field = /^\w+\[(\w+)\]$/.exec(name)?.[1] ?? name;
    if (!(field in out)) out[field] = value;
  }
  return { fields: out };
}

/**
 * Text fields typed by the schema of the event they name; a nullable field the body left out is null (attributes
 * cannot say null, and a form may leave an empty field out).
 */
function typed(fields: Fields): Obj {
  const kind = fields.event;
  const schema = typeof kind === 'string' ? (webhookSpec.events as Record<string, { $ref: string }>)[kind] : undefined;
  if (!schema) return fields;
  const named = (webhookSpec.components.schemas as Record<string, { properties?: object }>)[schema.$ref.split('/').pop()!];
  const out = coerceFields(webhookSpec, schema, fields);
  for (const name of Object.keys(named?.properties ?? {}))
    if (!(name in out) && coerceFields(webhookSpec, schema, { [name]: '' })[name] === null) out[name] = null;
  return out;
}

/** The payload of a delivery body with this Content-Type, whatever its format and layout. */
export function readPayload(body: string, contentType: string): ReadPayload {
  const format = formatOf(contentType, body);
  if (!format) return { error: `neither JSON, XML nor Form Data (Content-Type ${JSON.stringify(contentType)})` };
  try {
    if (format === 'JSON') {
      const j = JSON.parse(body) as unknown;
      return isObj(j) ? { format, payload: j } : { format, error: 'the JSON body is not an object' };
    }
    const read = format === 'XML' ? { fields: xmlFields(body) } : formFields(body, contentType);
    const payload = 'json' in read ? read.json : typed(read.fields);
    return Object.keys(payload).length ? { format, payload } : { format, error: `no fields in the ${format} body` };
  } catch (e) {
    return { format, error: (e as Error).message };
  }
}
