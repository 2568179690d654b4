// Sends bytes exactly as given (request lines no HTTP client would send: dot segments, absolute-form, bad framing)
// and parses the one response; the connection is closed by the request's `Connection: close` or by the server.
// Also a chunked sender for bodies past every limit.
import http from 'node:http';
import net from 'node:net';

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export function rawRequest(port: number, bytes: string | Buffer, host = '127.0.0.1', timeoutMs = 10_000): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (e) => (clearTimeout(timer), reject(e)));
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, split < 0 ? all.length : split).toString('latin1');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
      if (!status) return reject(new Error(`no HTTP response: ${JSON.stringify(head.slice(0, 200))}`));
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      const raw = split < 0 ? Buffer.alloc(0) : all.subarray(split + 4);
      const body = (/chunked/i.test(headers['transfer-encoding'] ?? '') ? dechunk(raw) : raw).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      resolve({ status, headers, body, json });
    });
    // Not end(): a half-closed client makes Node abort a request still being answered. The request asks the server
    // to close (Connection: close), or the server closes after a refusal.
    socket.write(bytes);
  });
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!size) return Buffer.concat(out);
    out.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** A GET with the given request target, Host and extra header lines. */
export const rawGet = (target: string, host: string, extra: string[] = []) =>
  [`GET ${target} HTTP/1.1`, `Host: ${host}`, ...extra, 'Connection: close', '', ''].join('\r\n');

/** Sends `total` bytes chunked (no Content-Length); resolves with the answer, even one sent before the body ended. */
export function sendChunked(
  url: string,
  headers: Record<string, string>,
  first: Buffer,
  total: number,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.setTimeout(20_000, () => req.destroy(new Error('no answer within 20 s')));
    req.on('error', reject);
    const filler = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      if (sent === 0) req.write(first), (sent += first.length);
      while (sent < total) {
        sent += filler.length;
        if (!req.write(filler)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}
