// The webhook body codec: each format round-trips, the layouts are the ones the spec's `x-assumption` describes, and a
// body that breaks its layout is a WebhookParseError with a message, never a silent partial payload.
import { describe, expect, it } from 'vitest';
import { loadBundle } from './bundle.ts';
import { deref, type JsonObject } from './json-pointer.ts';
import {
  coerceFields,
  decodeWebhookBody,
  decodeXmlFields,
  encodeWebhookBody,
  WEBHOOK_FORMAT_NAMES,
  WEBHOOK_FORMATS,
  WebhookParseError,
  xmlText,
  XSI_NAMESPACE,
  type SchemaHome,
} from './webhook-codec.ts';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const payload = {
  event: 'DOCUMENT_STATUS_CHANGED',
  document_id: '2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f',
  external_id: `a<b>&"c' d=e+f%`,
  error: null,
  note: 'ünïcødé ✓',
};

describe('webhook codec: round trips', () => {
  it.each(WEBHOOK_FORMAT_NAMES)('%s: encodes with its Content-Type and decodes back to the same fields, in order', (format) => {
    const { contentType, body } = encodeWebhookBody(payload, format);
    expect(contentType).toBe(WEBHOOK_FORMATS[format]);
    const decoded = decodeWebhookBody(body, `${contentType}; charset=utf-8`);
    expect(decoded.format).toBe(format);
    // Form Data has no null: an empty value stands for it (coerceFields turns it back where the schema admits null).
    const want = format === 'Form Data' ? { ...payload, error: '' } : payload;
    expect(decoded.payload).toEqual(want);
    expect(Object.keys(decoded.payload as object)).toEqual(Object.keys(payload));
  });

  it('XML: declaration, <webhook> root declaring xsi, one child per field, escaped, xsi:nil for null', () => {
    const xml = text(encodeWebhookBody(payload, 'XML').body);
    expect(xml.startsWith(`<?xml version="1.0" encoding="UTF-8"?>\n<webhook xmlns:xsi="${XSI_NAMESPACE}">`)).toBe(true);
    expect(xml).toContain('<error xsi:nil="true"/>');
    expect(xml).toContain('<external_id>a&lt;b&gt;&amp;&quot;c&apos; d=e+f%</external_id>');
    expect(decodeXmlFields(xml).rootAttributes).toEqual({ 'xmlns:xsi': XSI_NAMESPACE });
  });

  it('XML: character references decode; an escaped ampersand stays text', () => {
    expect(decodeXmlFields('<webhook><a>&#x41;&#66;&amp;#67;</a></webhook>').fields).toEqual([['a', 'AB&#67;']]);
  });

  it('XML replaces characters XML 1.0 cannot carry', () => {
    expect(xmlText('a\u0000b\u001fc')).toBe('a\uFFFDb\uFFFDc');
  });

  it('the three formats are the media types every webhook of the spec lists', () => {
    const bundle = loadBundle();
    for (const [event, item] of Object.entries(bundle.webhooks as JsonObject)) {
      const body = deref(bundle, ((item as JsonObject).post as JsonObject).requestBody) as JsonObject;
      expect(Object.keys(body.content as JsonObject).sort(), event).toEqual(Object.values(WEBHOOK_FORMATS).sort());
      // The XML layout is stated in prose only: the codec's root and namespace are the ones it names.
      const xmlNote = String(((body.content as JsonObject)['application/xml'] as JsonObject)['x-assumption']);
      expect(xmlNote).toContain(`<webhook xmlns:xsi="${XSI_NAMESPACE}">`);
      expect(xmlNote).toContain('xsi:nil="true"');
    }
  });
});

describe('webhook codec: bodies that break the layout', () => {
  const bad: Array<[string, string, string, RegExp]> = [
    ['XML that does not parse', 'application/xml', '<webhook><event>x</webhook>', /XML body does not parse/],
    ['another root', 'application/xml', '<hook><event>x</event></hook>', /one <webhook> root element, found <hook>/],
    ['a repeated field', 'application/xml', '<webhook><event>x</event><event>y</event></webhook>', /<event> appears more than once/],
    ['a nested element', 'application/xml', '<webhook><event><b>x</b></event></webhook>', /<event> must hold text/],
    ['stray text', 'application/xml', '<webhook>oops<event>x</event></webhook>', /text outside of field elements/],
    ['a repeated form field', 'application/x-www-form-urlencoded', 'event=a&event=b', /form field event appears more than once/],
    ['JSON that does not parse', 'application/json', '{"event":', /JSON body does not parse/],
    [
      'an unknown Content-Type',
      'text/plain',
      'event=x',
      /unsupported Content-Type "text\/plain": expected application\/json, application\/xml or application\/x-www-form-urlencoded/,
    ],
  ];
  it.each(bad)('%s is a WebhookParseError', (_, type, body, message) => {
    expect(() => decodeWebhookBody(body, type)).toThrow(WebhookParseError);
    expect(() => decodeWebhookBody(body, type)).toThrow(message);
  });

  it('text/xml and +json are read as XML and JSON', () => {
    expect(decodeWebhookBody('<webhook><a>1</a></webhook>', 'text/xml').payload).toEqual({ a: '1' });
    expect(decodeWebhookBody('{"a":1}', 'application/cloudevents+json').payload).toEqual({ a: 1 });
  });
});

describe('webhook codec: text back to the schema types', () => {
  const home: SchemaHome = {
    components: {
      schemas: {
        Count: { type: 'integer' },
        Event: {
          type: 'object',
          properties: {
            n: { $ref: '#/components/schemas/Count' },
            flag: { type: 'boolean' },
            maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] },
            id: { type: 'string' },
          },
        },
      },
    },
  };
  it('numbers, booleans and nulls come back as their types; strings stay strings', () => {
    expect(coerceFields(home, { $ref: '#/components/schemas/Event' }, { n: '42', flag: 'true', maybe: '', id: '0042' })).toEqual({
      n: 42,
      flag: true,
      maybe: null,
      id: '0042',
    });
  });
  it('text that is not its type stays text (the validator then refuses it)', () => {
    expect(coerceFields(home, { $ref: '#/components/schemas/Event' }, { n: 'x', flag: 'yes', maybe: null })).toEqual({
      n: 'x',
      flag: 'yes',
      maybe: null,
    });
  });
});
