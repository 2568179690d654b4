// A recording webhook receiver: node:http on a loopback address (port 0 unless told), recording every request and
// answering the n-th with what `respond` scripts (a status, a status with headers and body, or 'hold' to never
// answer, so a sender's timeout can be seen). The tests of the mock, the client and the conformance suite use it,
// and the suite's own --webhook-receiver builds on it, so whatever a sender does must not end the process: a body
// over `maxBodyBytes` is answered 413 unread (a 600 MB POST is never held in memory), a sender that resets mid-body
// or a `respond` that throws (answered 500) is that request's problem only. Node only: never imported by client/.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { decodeWebhookBody } from './webhook-codec.ts';

export interface Received {
  method: string;
  /** Path and query as requested. */
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the request arrived (its headers; `respond` runs once its body has too). */
  at: number;
  /** performance.now() when the answer was sent or the sender let go; unset before. */
  end?: number;
  /** The status answered; unset while held. */
  status?: number;
  /** The body went past maxBodyBytes: answered 413, `body` empty. */
  oversized?: boolean;
}

/** What to answer: a status, a status with headers (and body), or 'hold' (never answer; close() ends it). */
export type Reply = number | 'hold' | { status: number; headers?: Record<string, string>; body?: string };

export interface ReceiverOptions {
  /** The reply to the n-th request (1-based); 200 when not given. */
  respond?: (n: number, req: Received) => Reply;
  /** 127.0.0.1 unless told. */
  host?: string;
  /** 0 (a free port) unless told. */
  port?: number;
  /** Bodies over this many bytes are answered 413 and not read (default MAX_WEBHOOK_BODY_BYTES). */
  maxBodyBytes?: number;
}

/** A webhook payload is a few hundred bytes; 1 MB leaves room for any format and stops a flood early. */
const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

export interface Receiver {
  /** A URL on the receiver: http://host:port/hook. */
  url: string;
  origin: string;
  port: number;
  received: Received[];
  /** Resolves with the first `n` requests once they have arrived; rejects after `timeoutMs`. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  /** True once `pred` holds (looked at on each request and at least every `pollMs`), false after `timeoutMs`. */
  waitUntil(pred: () => boolean, timeoutMs: number, pollMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function startReceiver(options: ReceiverOptions | ReceiverOptions['respond'] = {}): Promise<Receiver> {
  const opts = typeof options === 'function' ? { respond: options } : options;
  const { respond = () => 200, host = '127.0.0.1', port = 0, maxBodyBytes = MAX_WEBHOOK_BODY_BYTES } = opts;
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const notify = () => {
    for (const w of waiters.splice(0)) w();
  };
  const server = http.createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    let size = 0;
    // A sender that resets the connection mid-body ends only its own request.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    const tooLarge = () => {
      const r: Received = { method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body: Buffer.alloc(0), at };
      r.status = 413;
      r.oversized = true;
      received.push(r);
      chunks.length = 0;
      req.removeAllListeners('data');
      // The rest of the body is never read: once the socket's buffers are full the sender's writes stop.
      req.pause();
      lingerOnClose(req.socket);
      res.writeHead(413, { 'Content-Type': 'text/plain', Connection: 'close' });
      res.end(`body over ${maxBodyBytes} bytes`, () => {
        r.end = performance.now();
        notify();
      });
    };
    if (Number(req.headers['content-length']) > maxBodyBytes) {
      tooLarge();
      return;
    }
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBodyBytes) tooLarge();
      else chunks.push(c);
    });
    req.on('end', () => {
      if (size > maxBodyBytes) return;
      const r: Received = { method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks), at };
      received.push(r);
      res.on('close', () => {
        r.end ??= performance.now();
        notify();
      });
      let reply: Reply;
      try {
        reply = respond(received.length, r);
      } catch {
        reply = 500; // the script's error is this delivery's answer, not the end of the receiver
      }
      if (reply !== 'hold') {
        const { status, headers, body } = typeof reply === 'number' ? { status: reply, headers: {}, body: undefined } : reply;
        r.status = status;
        res.on('finish', () => (r.end ??= performance.now()));
        res.writeHead(status, headers).end(status === 204 || status === 304 ? undefined : body);
      }
      notify();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      // Once listening, an error of the server (a socket it cannot accept) is no reason to end the process.
      server.on('error', () => undefined);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
  const until = (pred: () => boolean, timeoutMs: number, pollMs = 250) => waitUntil(pred, timeoutMs, waiters, pollMs);
  return {
    url: `${origin}/hook`,
    origin,
    port: bound,
    received,
    async waitFor(n, timeoutMs = 5000) {
      if (!(await until(() => received.length >= n, timeoutMs)))
        throw new Error(`receiver got ${received.length} of ${n} requests within ${timeoutMs} ms`);
      return received.slice(0, n);
    },
    waitUntil: until,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How long a socket answered 413 stays half-open for its sender to read the answer and let go. */
const LINGER_MS = 2_000;

/**
 * A lingering close (as web servers do after an early answer): a socket destroyed with unread bytes in it sends a
 * reset, and a reset that reaches the sender before it has read the 413 drops the answer from its receive queue (a
 * loaded machine lost it so). Node's server ends a `Connection: close` exchange with the socket's destroySoon: here
 * that only half-closes it, and the socket is destroyed LINGER_MS from now unless the sender has let go by then.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => void socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** A recorded delivery's body decoded by its Content-Type (XML and Form Data fields as text, as sent). */
export function decodeBody(r: Received): Record<string, string | null> {
  return decodeWebhookBody(r.body, String(r.headers['content-type'] ?? '')).payload as Record<string, string | null>;
}

/**
 * Waits until `pred` holds or `timeoutMs` passes, looking again on each arrival (whoever records one calls and
 * empties `waiters`) and at least every `pollMs`.
 */
async function waitUntil(pred: () => boolean, timeoutMs: number, waiters: Array<() => void>, pollMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!pred()) {
    const left = deadline - performance.now();
    if (left <= 0) return false;
    await new Promise<void>((r) => {
      const t = setTimeout(r, Math.min(left, pollMs));
      waiters.push(() => {
        clearTimeout(t);
        r();
      });
    });
  }
  return true;
}
