// A scripted API on 127.0.0.1 (port 0) for the client's tests: each test answers requests with its own handler
// and reads back what the client sent. Test-only; not built into dist/.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeDocx, makeZip } from '../../mock/features/documents/sample-files.ts';

interface Seen {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (req: Seen, res: ServerResponse) => void | Promise<void>;

export interface Loopback {
  baseUrl: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** Rate-limit headers as the API sends them on every response. */
export const RATE = { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '99', 'X-RateLimit-Reset': '1900000000' };

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...RATE, ...headers });
  res.end(JSON.stringify(body));
}

export async function startLoopback(handler: Handler): Promise<Loopback> {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const entry = { method: req.method!, url: new URL(req.url!, 'http://127.0.0.1'), headers: req.headers, body: Buffer.concat(chunks) };
    seen.push(entry);
    try {
      await handler(entry, res);
    } catch (e) {
      if (!res.headersSent) json(res, 500, { error: String(e) });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/ext-api/v1`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A minimal valid file of each accepted type. */
export const SAMPLES = {
  pdf: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]),
  // A real Word document (the mock's builder): the DOCX rule reads the zip's central directory for word/document.xml.
  docx: Buffer.from(makeDocx(['Report'])),
  zip: Buffer.from(makeZip([{ name: 'hello.txt', data: new TextEncoder().encode('hello') }])),
  /** The OOXML part list and a word/ part but no word/document.xml: not a Word document (the mock refuses it too). */
  looseDocx: Buffer.from(
    makeZip(['[Content_Types].xml', 'word/styles.xml'].map((name) => ({ name, data: new TextEncoder().encode('<x/>') }))),
  ),
  text: Buffer.from('just text, not a document'),
};
