// Delivery bodies in the webhook's configured format. The source names the formats (JSON, XML, Form Data) but not
// the XML and Form Data layouts; the layout below is an assumption shared with client/webhooks.ts (parseWebhook):
//   XML:  <?xml version="1.0" encoding="UTF-8"?> then <webhook xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
//         with one child element per payload field in schema order, text escaped, null as <field xsi:nil="true"/>.
//   Form: application/x-www-form-urlencoded, one pair per field in schema order, null as an empty value.
import type { Payload } from './payloads.ts';

/** Format name (as registered) -> Content-Type of the delivery. */
export const FORMATS = {
  JSON: 'application/json',
  XML: 'application/xml',
  'Form Data': 'application/x-www-form-urlencoded',
} as const;
export type Format = keyof typeof FORMATS;
export const FORMAT_NAMES = Object.keys(FORMATS) as Format[];

export function isFormat(x: unknown): x is Format {
  return typeof x === 'string' && Object.hasOwn(FORMATS, x);
}

export interface Encoded {
  contentType: string;
  /** Encoded once per delivery, so every retry carries the same bytes. */
  body: Buffer;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes text content; characters XML 1.0 cannot carry at all (most C0 controls) become U+FFFD. */
export function xmlText(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]!);
}

export function encode(payload: Payload, format: Format): Encoded {
  const contentType = FORMATS[format];
  switch (format) {
    case 'JSON':
      return { contentType, body: Buffer.from(JSON.stringify(payload), 'utf8') };
    case 'XML': {
      const children = Object.entries(payload)
        .map(([k, v]) => (v === null ? `<${k} xsi:nil="true"/>` : `<${k}>${xmlText(String(v))}</${k}>`))
        .join('');
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<webhook xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${children}</webhook>`;
      return { contentType, body: Buffer.from(xml, 'utf8') };
    }
    case 'Form Data': {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(payload)) form.append(k, v === null ? '' : String(v));
      return { contentType, body: Buffer.from(form.toString(), 'utf8') };
    }
  }
}
