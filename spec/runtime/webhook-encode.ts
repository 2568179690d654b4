// Webhook delivery bodies encoded in the three formats (the mock's events simulator, the conformance suite's stand-in
// service), with the formats' names and media types. Apart from the decoding half (webhook-codec.ts, which re-exports
// all of this) so that a sender never loads an XML parser it does not use (issue 42: the mock loads only what a mode
// uses). Runs in browsers: no Node built-ins. The layouts are described in webhook-codec.ts.

/** Format name (as a webhook is registered with) -> Content-Type of the delivery. */
export const WEBHOOK_FORMATS = {
  JSON: 'application/json',
  XML: 'application/xml',
  'Form Data': 'application/x-www-form-urlencoded',
} as const;
export type WebhookFormat = keyof typeof WEBHOOK_FORMATS;
export const WEBHOOK_FORMAT_NAMES = Object.keys(WEBHOOK_FORMATS) as WebhookFormat[];

export const isWebhookFormat = (x: unknown): x is WebhookFormat => typeof x === 'string' && Object.hasOwn(WEBHOOK_FORMATS, x);

/** The XML layout's root element and the namespace its xsi:nil comes from. */
export const XML_ROOT = 'webhook';
export const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';

export type FlatPayload = Readonly<Record<string, string | number | boolean | null>>;

export interface EncodedBody {
  contentType: string;
  /** Encoded once per delivery, so every retry carries the same bytes. */
  body: Uint8Array<ArrayBuffer>;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

// biome-ignore lint/suspicious/noControlCharactersInRegex: the C0 controls XML 1.0 cannot carry, replaced on purpose
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Escapes text content; characters XML 1.0 cannot carry at all (most C0 controls) become U+FFFD. */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, '\uFFFD').replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]!);
}

/** Another XML layout (the document does not show one): the root element's name, and null as an empty element. */
export interface WebhookLayout {
  xmlRoot?: string;
  nullAsEmpty?: boolean;
}

/** The delivery body of a payload (its fields in the order given, which is schema order) in one format. */
export function encodeWebhookBody(payload: FlatPayload, format: WebhookFormat, layout: WebhookLayout = {}): EncodedBody {
  const contentType = WEBHOOK_FORMATS[format];
  const entries = Object.entries(payload);
  let text: string;
  if (format === 'JSON') text = JSON.stringify(payload);
  else if (format === 'XML') {
    const root = layout.xmlRoot ?? XML_ROOT;
    const nil = (k: string) => (layout.nullAsEmpty ? `<${k}/>` : `<${k} xsi:nil="true"/>`);
    const children = entries.map(([k, v]) => (v === null ? nil(k) : `<${k}>${xmlText(String(v))}</${k}>`)).join('');
    text = `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns:xsi="${XSI_NAMESPACE}">${children}</${root}>`;
  } else text = new URLSearchParams(entries.map(([k, v]) => [k, v === null ? '' : String(v)])).toString();
  return { contentType, body: new TextEncoder().encode(text) };
}
