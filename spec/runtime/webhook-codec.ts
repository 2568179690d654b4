// Webhook delivery bodies in the three formats, decoded (the client's parseWebhook, the conformance layout checks, the
// tests' receivers) by the same code that encodes them (webhook-encode.ts, re-exported here; a sender imports that
// alone and never loads the XML parser). Runs in browsers: no Node
// built-ins. The spec lists the three media types of each webhook's requestBody and the payload fields in schema
// order; it states the XML and Form Data layouts only in prose (their `x-assumption`), which this module follows:
//   JSON       the payload object.
//   XML        <?xml version="1.0" encoding="UTF-8"?> then <webhook xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
//              with one child element per field in schema order, text escaped; null is <field xsi:nil="true"/>.
//   Form Data  application/x-www-form-urlencoded, one pair per field in schema order; null is an empty value.
import { XMLParser } from 'fast-xml-parser';
import { WEBHOOK_FORMATS, type WebhookFormat, XML_ROOT } from './webhook-encode.ts';

export { encodeWebhookBody, WEBHOOK_FORMAT_NAMES, WEBHOOK_FORMATS, type WebhookFormat, XSI_NAMESPACE, xmlText } from './webhook-encode.ts';

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

/** The media type of a Content-Type header, lower case, parameters dropped. */
export const mediaTypeOf = (contentType: string | null | undefined): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** The format a Content-Type names (JSON also as +json, XML also as text/xml); undefined for any other. */
function formatOfContentType(contentType: string | null | undefined): WebhookFormat | undefined {
  const type = mediaTypeOf(contentType);
  if (type === 'application/json' || type.endsWith('+json')) return 'JSON';
  if (type === 'application/xml' || type === 'text/xml') return 'XML';
  if (type === 'application/x-www-form-urlencoded') return 'Form Data';
  return undefined;
}

/** The format a Content-Type names, or a WebhookParseError listing the three it may be. */
export function requireFormat(contentType: string | null | undefined): WebhookFormat {
  const format = formatOfContentType(contentType);
  if (format) return format;
  const expected = Object.values(WEBHOOK_FORMATS);
  throw new WebhookParseError(
    `unsupported Content-Type ${JSON.stringify(contentType ?? '')}: expected ${expected.slice(0, -1).join(', ')} or ${expected.at(-1)}`,
  );
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** The five XML entities and character references, in one pass (so `&amp;#65;` stays `&#65;`); DOCTYPE entities are not expanded. */
const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
      : XML_ENTITIES[e.toLowerCase()]!,
  );
const noop = () => {};

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  processEntities: true,
  entityDecoder: { decode: unescapeXml, setExternalEntities: noop, addInputEntities: noop, reset: noop, setXmlVersion: noop },
});

export interface XmlFields {
  /** The fields in document order; null where the element is xsi:nil. */
  fields: Array<[string, string | null]>;
  /** The root element's attributes (its namespace declarations), by name. */
  rootAttributes: Record<string, string>;
}

/** An XML body as a tree (attributes as `@name`, text as `#text`), with the entity handling above; readers of other layouts use it. */
export function parseXmlTree(text: string): Record<string, unknown> {
  try {
    return xml.parse(text, true) as Record<string, unknown>;
  } catch (e) {
    throw new WebhookParseError(`XML body does not parse: ${(e as Error).message}`);
  }
}

/** Reads the XML layout: one <webhook> root, one child element per field holding text or xsi:nil, nothing else. */
export function decodeXmlFields(text: string): XmlFields {
  const doc = parseXmlTree(text);
  const roots = Object.keys(doc).filter((k) => !k.startsWith('?'));
  if (roots.length !== 1 || roots[0] !== XML_ROOT)
    throw new WebhookParseError(
      `XML body must have one <${XML_ROOT}> root element, found ${roots.map((r) => `<${r}>`).join(', ') || 'none'}`,
    );
  const root = doc[XML_ROOT];
  const out: XmlFields = { fields: [], rootAttributes: {} };
  if (root === '' || root === undefined) return out;
  if (typeof root !== 'object' || root === null || Array.isArray(root))
    throw new WebhookParseError(`<${XML_ROOT}> must contain one element per field`);
  for (const [name, value] of Object.entries(root as Record<string, unknown>)) {
    if (name.startsWith('@')) out.rootAttributes[name.slice(1)] = String(value);
    else if (name === '#text') {
      if (String(value).trim()) throw new WebhookParseError(`<${XML_ROOT}> has text outside of field elements`);
    } else if (Array.isArray(value)) throw new WebhookParseError(`XML field <${name}> appears more than once`);
    else if (value && typeof value === 'object') {
      const el = value as Record<string, unknown>;
      if (Object.keys(el).some((k) => !k.startsWith('@') && k !== '#text'))
        throw new WebhookParseError(`XML field <${name}> must hold text, not elements`);
      const nil = el['@xsi:nil'];
      out.fields.push([name, nil === 'true' || nil === '1' ? null : typeof el['#text'] === 'string' ? el['#text'] : '']);
    } else out.fields.push([name, typeof value === 'string' ? value : '']);
  }
  return out;
}

/** Reads the Form Data layout: one pair per field, each name once. */
function decodeFormFields(text: string): Array<[string, string]> {
  const pairs = [...new URLSearchParams(text)];
  const names = pairs.map(([name]) => name);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated !== undefined) throw new WebhookParseError(`form field ${repeated} appears more than once`);
  return pairs;
}

export interface DecodedBody {
  format: WebhookFormat;
  /** JSON: the parsed value. XML and Form Data: the fields as text (XML's xsi:nil as null), in body order. */
  payload: unknown;
}

/** A delivery body in any of the three formats, by its Content-Type; a WebhookParseError when it is none of them. */
export function decodeWebhookBody(body: string | Uint8Array | ArrayBuffer, contentType: string | null | undefined): DecodedBody {
  const format = requireFormat(contentType);
  const text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: false }).decode(body);
  if (format === 'XML') return { format, payload: Object.fromEntries(decodeXmlFields(text).fields) };
  if (format === 'Form Data') return { format, payload: Object.fromEntries(decodeFormFields(text)) };
  try {
    return { format, payload: JSON.parse(text) as unknown };
  } catch (e) {
    throw new WebhookParseError(`JSON body does not parse: ${(e as Error).message}`);
  }
}

type Schema = { type?: string | readonly string[]; anyOf?: readonly Schema[]; $ref?: string; const?: unknown; enum?: readonly unknown[] };
/** Where `#/components/schemas/<name>` refs resolve: the bundled spec, or the client's generated webhook subset. */
export type SchemaHome = { readonly components: { readonly schemas: Readonly<Record<string, unknown>> } };

function resolveSchema(home: SchemaHome, schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let i = 0; i < 16 && s?.$ref; i++) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(s.$ref)?.[1];
    s = name ? (home.components.schemas[name] as Schema | undefined) : undefined;
  }
  return s;
}

/** The JSON types a property's schema admits (following $ref and anyOf). */
function typesOf(home: SchemaHome, schema: Schema | undefined, out = new Set<string>()): Set<string> {
  const s = resolveSchema(home, schema);
  if (!s) return out;
  if (typeof s.type === 'string') out.add(s.type);
  else if (Array.isArray(s.type)) for (const t of s.type) out.add(t);
  for (const v of [s.const, ...(s.enum ?? [])]) if (v !== undefined) out.add(v === null ? 'null' : typeof v);
  for (const a of s.anyOf ?? []) typesOf(home, a, out);
  return out;
}

/**
 * XML and Form Data carry text: each field back as the type its property in `schema` wants (null, number,
 * boolean). Form Data's empty value is null where the property admits null; XML's null is already null.
 */
export function coerceFields(home: SchemaHome, schema: unknown, fields: Record<string, string | null>): Record<string, unknown> {
  const props = (resolveSchema(home, schema as Schema) as { properties?: Record<string, Schema> } | undefined)?.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(fields)) {
    const types = typesOf(home, props[name]);
    if (raw === null || (raw === '' && types.has('null'))) out[name] = null;
    else if ((types.has('integer') || types.has('number')) && !types.has('string') && /^-?\d+(\.\d+)?$/.test(raw)) out[name] = Number(raw);
    else if (types.has('boolean') && !types.has('string') && (raw === 'true' || raw === 'false')) out[name] = raw === 'true';
    else out[name] = raw;
  }
  return out;
}
