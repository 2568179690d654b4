// A loopback server that plays a hostile target for the suite and Dredd: one mode per instance (switchable with
// setMode), every request answered the mode's way unless `spare` picks it, in which case it goes to `upstream` (the
// mock, say) untouched, so a run can get past its first requests and meet the hostility deep inside. Test-only;
// it binds 127.0.0.1 and nothing else.
//
// Modes:
//   redirect   every request answered 307 (even ones) or 302 (odd ones) to the same path on a second loopback origin
//              it also runs; that origin answers 200 {"data":[]} and records every X-API-Key it receives in
//              `seen.keys` (which must stay empty: a key there followed a redirect).
//   huge       200 application/json of `hugeBytes` (default 50 MB) of valid JSON, streamed with Content-Length.
//   endless    200 application/json, chunked, a body that never ends (written as fast as the client reads it).
//   silent     accepts the connection and the request, never answers (no timeout of its own).
//   escapes    answers carrying terminal escape sequences (OSC window title \x1b]0;…\x07, clear screen \x1b[2J,
//              colours, a bell, backspaces): even requests get valid JSON whose strings decode to them, odd ones the
//              raw bytes in the body; the reason phrase carries them too (200 for GET, 400 otherwise), and a header
//              carries their 8-bit forms (C1 CSI \x9b, OSC \x9d, ST \x9c), which Node's parsers let through; every
//              third answer has a raw \x1b in a header, which they refuse (the request fails). Written on the raw
//              socket, since Node's server refuses such values.
//   echo-key   echoes the request's X-API-Key back: in headers (X-Echo-Key; upper-cased, in base64, split by a dash),
//              and in the body at several places, one of them right after 280 characters (so a report that cuts
//              bodies at 300 before redacting would keep a prefix), upper-cased, split by one dash, and inside a
//              base64url token; 200 for GET, 400 otherwise.
//   not-found  404 text/html "Not Found" for every path (a base URL without the API's prefix).
//   html       200 text/html (a sign-in page) for every path.
//   rate-limited  429 {"error": ...} with Retry-After (`retryAfter`, default 60 s) and X-RateLimit-Remaining 0 for every
//              request: a window that never reopens (not in HOSTILE_MODES: the deadline tests use it, run-deadline).
// Helper: postHuge streams a body of any size (default 600 MB, never held in memory) to a URL, e.g. the suite's
// webhook receiver, and says how it was answered.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type HostileMode = 'redirect' | 'huge' | 'endless' | 'silent' | 'escapes' | 'echo-key' | 'not-found' | 'html' | 'rate-limited';
export const HOSTILE_MODES: readonly HostileMode[] = ['redirect', 'huge', 'endless', 'silent', 'escapes', 'echo-key', 'not-found', 'html'];

export interface HostileOptions {
  /** Size of each `huge` answer in bytes (default 50 MB). */
  hugeBytes?: number;
  /** Seconds of Retry-After in `rate-limited` mode (default 60). */
  retryAfter?: number;
  /** Origin to forward spared requests to (http://127.0.0.1:port). */
  upstream?: string;
  /** Requests answered by `upstream` instead (n counts every request, from 0); needs `upstream`. */
  spare?: (req: IncomingMessage, n: number) => boolean;
}

export interface Seen {
  /** Requests the hostile origin received (spared ones included). */
  requests: number;
  /** X-API-Key values that reached the redirect target: a leak, must stay empty. */
  keys: string[];
  /** Requests the redirect target received. */
  targetRequests: number;
  /** Keys the `echo-key` mode echoed back. */
  echoed: number;
}

export interface HostileServer {
  /** http://127.0.0.1:<port>; the API's base URL is `${origin}/ext-api/v1` (any path is answered). */
  origin: string;
  /** The redirect target's origin (redirect mode). */
  targetOrigin: string;
  mode: HostileMode;
  setMode(mode: HostileMode): void;
  seen: Seen;
  close(): Promise<void>;
}

const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'x');
const ESCAPES = ['\x1b]0;pwned-title\x07', '\x1b[2J', '\x1b[31m', '\x1b[0m', '\x07', '\x08\x08'] as const;
const ESC = ESCAPES.join('');

/** Starts the hostile server (and, for redirects, its second origin) on free loopback ports. */
export async function startHostileServer(mode: HostileMode, opts: HostileOptions = {}): Promise<HostileServer> {
  const seen: Seen = { requests: 0, keys: [], targetRequests: 0, echoed: 0 };
  const target = await listen((req, res) => {
    seen.targetRequests++;
    const key = req.headers['x-api-key'];
    if (key) seen.keys.push(String(key));
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":[]}');
  });
  const targetOrigin = originOf(target);
  const server: HostileServer = {
    origin: '',
    targetOrigin,
    mode,
    seen,
    setMode: (m) => void (server.mode = m),
    close: async () => void (await Promise.all([stop(main), stop(target)])),
  };
  const main = await listen((req, res) => {
    const n = seen.requests++;
    if (opts.upstream && opts.spare?.(req, n)) forward(opts.upstream, req, res);
    else answer(server.mode, n, req, res, { targetOrigin, hugeBytes: opts.hugeBytes ?? 50 * MB, retryAfter: opts.retryAfter ?? 60, seen });
  });
  server.origin = originOf(main);
  return server;
}

interface Ctx {
  targetOrigin: string;
  hugeBytes: number;
  retryAfter: number;
  seen: Seen;
}

function answer(mode: HostileMode, n: number, req: IncomingMessage, res: ServerResponse, ctx: Ctx): void {
  if (mode !== 'silent') req.resume();
  const json = { 'Content-Type': 'application/json' };
  switch (mode) {
    case 'redirect':
      res.writeHead(n % 2 ? 302 : 307, { Location: `${ctx.targetOrigin}${req.url}` }).end();
      return;
    case 'huge': {
      const head = Buffer.from('{"data":"');
      const tail = Buffer.from('"}');
      res.writeHead(200, { ...json, 'Content-Length': String(ctx.hugeBytes) });
      res.write(head);
      pump(res, ctx.hugeBytes - head.length - tail.length, () => res.end(tail));
      return;
    }
    case 'endless':
      res.writeHead(200, json);
      res.write('{"data":"');
      pump(res, Number.POSITIVE_INFINITY, () => {});
      return;
    case 'silent':
      return; // the request timeouts are off (listen), so nothing ever answers
    case 'escapes':
      rawEscapes(req, res.socket!, n);
      return;
    case 'echo-key': {
      const key = String(req.headers['x-api-key'] ?? '');
      if (key) ctx.seen.echoed++;
      const status = req.method === 'GET' ? 200 : 400;
      // Besides the key itself: upper-cased, split by one dash, and in base64 (alone, and inside an encoded document).
      const b64 = Buffer.from(key).toString('base64');
      const token = Buffer.from(JSON.stringify({ sub: 'client', key })).toString('base64url');
      const split = `${key.slice(0, 14)}-${key.slice(14)}`;
      const body = {
        error: `${'e'.repeat(280)}${key} refused`,
        data: [{ id: key, name: `key=${key}`, external_id: key.toUpperCase(), notes: split, token }],
        details: { key: [`the key ${key} is not valid`, `KEY ${key.toUpperCase()}`, `wrapped ${split}`] },
      };
      const headers = { 'X-Echo-Key': key, 'X-Echo-Key-Upper': key.toUpperCase(), 'X-Echo-Key-B64': b64, 'X-Echo-Split': split };
      res.writeHead(status, { ...json, ...headers, 'WWW-Authenticate': `ApiKey key="${key}"` }).end(JSON.stringify(body));
      return;
    }
    case 'not-found':
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html><body><h1>Not Found</h1></body></html>');
      return;
    case 'html':
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Sign in</title><form>…</form>');
      return;
    case 'rate-limited': {
      const reset = String(Math.ceil(Date.now() / 1000) + ctx.retryAfter);
      const limits = { 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset };
      res
        .writeHead(429, { ...json, ...limits, 'Retry-After': String(ctx.retryAfter) })
        .end(JSON.stringify({ error: 'Rate limit exceeded. Please retry after the window resets.' }));
      return;
    }
  }
}

/** Writes `bytes` of filler with backpressure (never more than a chunk buffered), then `done`. */
function pump(res: ServerResponse, bytes: number, done: () => void): void {
  let left = bytes;
  const more = () => {
    while (left > 0 && !res.destroyed) {
      const chunk = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
      left -= chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    if (!res.destroyed) done();
  };
  more();
}

/** An answer whose head and body carry terminal escapes, written past Node's header validation. */
function rawEscapes(req: IncomingMessage, socket: Socket, n: number): void {
  const status = req.method === 'GET' ? `200 OK${ESC}` : `400 Bad${ESC} Request`;
  const c1 = n % 3 === 2 ? ESC : '\x9b2J\x9d0;c1-title\x9c';
  const body =
    n % 2 === 0
      ? JSON.stringify({ error: `bad${ESC}`, data: [{ id: `id${ESC}`, name: ESC }], details: { [`f${ESC}`]: [ESC] } })
      : `{"error":"bad${ESC}","data":[{"id":"${ESC}"}]}`;
  const bytes = Buffer.from(body, 'utf8');
  socket.end(
    Buffer.concat([
      Buffer.from(
        `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nX-Evil: ${c1}\r\n` +
          `X-RateLimit-Limit: 10${c1}\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`,
        'latin1',
      ),
      bytes,
    ]),
  );
}

/** Passes a spared request to the upstream untouched. */
function forward(upstream: string, req: IncomingMessage, res: ServerResponse): void {
  const up = new URL(upstream);
  const out = request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => res.destroy());
  req.pipe(out);
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  // No request or header timeouts: `silent` must stay silent for as long as the client waits.
  const server = createServer({ requestTimeout: 0, headersTimeout: 0, keepAliveTimeout: 1000 }, handler);
  server.on('clientError', (_, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const originOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

async function stop(s: Server): Promise<void> {
  s.closeAllConnections();
  await new Promise<void>((resolve) => s.close(() => resolve()));
}

export interface HugePost {
  /** The status the receiver answered with, if it answered. */
  status?: number;
  /** Bytes written before it answered or closed the connection. */
  sent: number;
  /** Why the upload stopped, when it did not complete (ECONNRESET, EPIPE, ...). */
  error?: string;
  ms: number;
}

/**
 * POSTs `bytes` (default 600 MB) of JSON-looking filler to `url`, streamed; resolves when answered or cut off.
 * `chunked`: no Content-Length, so the receiver cannot refuse it from the head and must count what it reads.
 */
export function postHuge(url: string, bytes = 600 * MB, timeoutMs = 60_000, chunked = false): Promise<HugePost> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    let sent = 0;
    let status: number | undefined;
    const done = (error?: string) => {
      clearTimeout(timer);
      resolve({ status, sent, error: status ? undefined : error, ms: performance.now() - t0 });
      req.destroy();
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    const req = request(
      url,
      { method: 'POST', headers: { 'Content-Type': 'application/json', ...(chunked ? {} : { 'Content-Length': String(bytes) }) } },
      (res) => {
        status = res.statusCode;
        res.resume();
        res.on('end', () => done());
        res.on('error', () => done());
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
    const write = () => {
      while (sent < bytes && !req.destroyed && status === undefined) {
        const chunk = bytes - sent >= CHUNK.length ? CHUNK : CHUNK.subarray(0, bytes - sent);
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      if (sent >= bytes && !req.destroyed) req.end();
    };
    write();
  });
}
