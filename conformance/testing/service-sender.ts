// Plays a deployment's webhook sender for runs without --mock (the suite's --webhook-receiver): registered with the
// mock (its control API), it takes each event the mock emits, acknowledges it at once, and delivers it on to the
// suite's receiver itself, in the layout and with the retry timing a test asks for, as a service built by others
// might. Test-only.
import { createServer, request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { encodeWebhookBody, type FlatPayload, type WebhookFormat } from '../../spec/runtime/webhook-encode.ts';
import { jsonOf, serveOnLoopback } from './broken-proxy.ts';

type Payload = Record<string, string | number | boolean | null>;
type Encode = (p: Payload) => { contentType: string; body: string };

const kit =
  (format: WebhookFormat): Encode =>
  (p) => {
    const e = encodeWebhookBody(p as FlatPayload, format);
    return { contentType: e.contentType, body: new TextDecoder().decode(e.body) };
  };

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Delivery layouts: the kit's three, and others the source allows ("Field layout of XML and Form Data: not shown"). */
export const LAYOUTS: Record<string, Encode> = {
  JSON: kit('JSON'),
  XML: kit('XML'),
  'Form Data': kit('Form Data'),
  // Another root, the fields inside a wrapper element, null as an empty element, text/xml.
  'XML, wrapped': (p) => ({
    contentType: 'text/xml; charset=utf-8',
    body: `<?xml version="1.0"?><notification><payload>${Object.entries(p)
      .map(([k, v]) => (v === null ? `<${k}/>` : `<${k}>${escapeXml(String(v))}</${k}>`))
      .join('')}</payload></notification>`,
  }),
  // The fields as attributes of one element.
  'XML, attributes': (p) => ({
    contentType: 'application/xml',
    body: `<event ${Object.entries(p)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => `${k}="${escapeXml(String(v)).replace(/"/g, '&quot;')}"`)
      .join(' ')}/>`,
  }),
  // multipart/form-data, one part per field (null as an empty part), a fresh boundary each time: a retry carries the
  // identical payload in other bytes.
  'Form Data, multipart': (p) => {
    const b = `crc${randomUUID().slice(0, 8)}`;
    const parts = Object.entries(p).map(([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v ?? ''}\r\n`);
    return { contentType: `multipart/form-data; boundary=${b}`, body: `${parts.join('')}--${b}--\r\n` };
  },
  // urlencoded, the fields under one bracketed name (payload[document_id]=...).
  'Form Data, bracketed': (p) => ({
    contentType: 'application/x-www-form-urlencoded',
    body: new URLSearchParams(Object.entries(p).map(([k, v]) => [`payload[${k}]`, v === null ? '' : String(v)])).toString(),
  }),
  // urlencoded, one field holding the JSON payload.
  'Form Data, JSON field': (p) => ({
    contentType: 'application/x-www-form-urlencoded',
    body: new URLSearchParams({ payload: JSON.stringify(p) }).toString(),
  }),
};

export interface SenderOptions {
  /** The mock's origin (its control API is /__mock). */
  mockOrigin: string;
  event: string;
  /** The receiver's URL, read when a delivery goes out (the run's receiver listens once the run starts). */
  target: () => string;
  encode?: Encode;
  /** Delays before attempts 2 and 3, ms: 1 s then 2 s, as documented, unless told. */
  backoffMs?: [number, number];
  /** Before each event, a delivery about another document, as a late one from an earlier check would be. */
  strayFirst?: boolean;
  /** Changes each payload before it is sent (a service that fills a field wrongly). */
  edit?: (payload: Payload) => void;
}

export interface Sender {
  /** Every attempt sent: the payload's document or note id and the receiver's status (0: no answer). */
  sent: Array<{ id: string; status: number }>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function post(url: string, e: { contentType: string; body: string }): Promise<number> {
  return new Promise((resolve) => {
    const body = Buffer.from(e.body);
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': e.contentType, 'content-length': body.length } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

const retryable = (s: number) => s === 0 || s === 408 || s === 429 || s >= 500;

export async function startServiceSender(o: SenderOptions): Promise<Sender> {
  const encode = o.encode ?? LAYOUTS.JSON!;
  const [b1, b2] = o.backoffMs ?? [1_000, 2_000];
  const sent: Sender['sent'] = [];
  let closed = false;

  const attempt = async (p: Payload) => {
    const status = await post(o.target(), encode(p));
    sent.push({ id: String(p.document_id ?? p.note_id), status });
    return status;
  };
  const deliver = async (p: Payload) => {
    if (o.strayFirst) await attempt({ ...p, document_id: randomUUID(), external_id: null });
    let status = 0;
    for (const wait of [0, b1, b2]) {
      await sleep(wait);
      if (closed) return;
      status = await attempt(p);
      if (!retryable(status)) return;
    }
  };

  const server = serveOnLoopback(
    createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(200).end();
        const p = jsonOf(Buffer.concat(chunks)) as Payload | undefined;
        if (p) o.edit?.(p);
        if (p && !closed) void deliver(p);
      });
    }),
  );
  const { origin, close } = await server;
  const r = await fetch(`${o.mockOrigin}/__mock/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'service-sender', url: `${origin}/in`, event: o.event }),
  });
  const id = ((await r.json()) as { data?: { id?: string } }).data?.id;
  if (!id) throw new Error(`the mock refused the sender's webhook: ${r.status}`);
  return {
    sent,
    async close() {
      closed = true;
      await fetch(`${o.mockOrigin}/__mock/webhooks/${id}`, { method: 'DELETE' });
      await close();
    },
  };
}
