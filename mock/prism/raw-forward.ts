// Byte-exact forwarding to the engine over a keep-alive loopback connection: the request as received, the
// response as sent. Used for everything Prism does not route (control API, preflight, unknown paths) and by the
// validating proxy's forward step, so uploads and malformed JSON reach the engine untouched.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { HOP_BY_HOP } from '../platform/hop-by-hop.ts';
import { markStale, retryOnStaleSocket } from '../platform/stale-socket.ts';

export interface Upstream {
  host: string;
  port: number;
  agent: http.Agent;
}

export interface UpstreamResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body as the upstream wrote it, when it wrote a string (the in-process engine): written without a copy. */
  text?: string;
}

/**
 * Idle pooled sockets are dropped after this long, well before the engine server closes its side
 * (ENGINE_KEEP_ALIVE_MS), so a request is never written onto a socket the server is closing.
 */
const FREE_SOCKET_MS = 15_000;
/** The engine server's keep-alive timeout: longer than the pool keeps a socket idle. */
export const ENGINE_KEEP_ALIVE_MS = 60_000;

/**
 * Sockets on which a streamed request's body may have been left unread: the engine answered it with an error (a body
 * refused unread, e.g. 413) or before it was all sent. The engine's server drains such a body for a while and then
 * closes the connection (@hono/node-server's drainIncoming), so the pool must not hand the socket to the next request:
 * a streamed request cannot be replayed on a fresh socket as a buffered one is (send's retry).
 */
const unread = new WeakSet<object>();

class UpstreamAgent extends http.Agent {
  /** Node's own pools every socket (true); false makes the agent destroy it instead. */
  override keepSocketAlive(socket: Duplex): boolean {
    if (unread.has(socket)) return false;
    super.keepSocketAlive(socket);
    return true;
  }
}

export function createUpstream(host: string, port: number): Upstream {
  return { host, port, agent: new UpstreamAgent({ keepAlive: true, maxSockets: 256, timeout: FREE_SOCKET_MS }) };
}

function outgoingHeaders(headers: http.IncomingHttpHeaders, bodyLength?: number): http.OutgoingHttpHeaders {
  const h: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.includes(k)) h[k] = v;
  if (bodyLength !== undefined) h['content-length'] = String(bodyLength);
  return h;
}

/** Sends a buffered request; resolves with the whole response (once more on a fresh socket when a stale one failed). */
export function send(
  up: Upstream,
  method: string,
  path: string,
  headers: http.IncomingHttpHeaders,
  body: Buffer | undefined,
): Promise<UpstreamResponse> {
  return retryOnStaleSocket(() => sendOnce(up, method, path, headers, body));
}

function sendOnce(
  up: Upstream,
  method: string,
  path: string,
  headers: http.IncomingHttpHeaders,
  body: Buffer | undefined,
): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: up.host, port: up.port, method, path, agent: up.agent, headers: outgoingHeaders(headers, body?.length ?? 0) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => reject(markStale(e, req.reusedSocket, e.code)));
    req.end(body);
  });
}

export interface PipeOptions {
  /** Bytes already read from the request, sent first. */
  prefix?: Buffer;
  /** CORS headers that replace the upstream's (static mode: Prism's reflects every origin). */
  cors?: Readonly<Record<string, string>>;
  /** Rewrites an upstream error body (status >= 400, JSON) into the documented shape; undefined keeps it. */
  errorBody?: (status: number, body: unknown) => object | undefined;
}

/** Streams a request straight through (large bodies: the engine refuses them without reading them whole). */
export function pipeThrough(up: Upstream, req: http.IncomingMessage, res: http.ServerResponse, opts: PipeOptions = {}): void {
  const { prefix, cors, errorBody } = opts;
  const declared = req.headers['content-length'];
  const hasBody = !!prefix || req.headers['transfer-encoding'] !== undefined || (declared !== undefined && declared !== '0');
  const out = http.request(
    { host: up.host, port: up.port, method: req.method, path: req.url, agent: up.agent, headers: outgoingHeaders(req.headers) },
    (upRes) => {
      const status = upRes.statusCode ?? 502;
      if (hasBody && (status >= 400 || !req.complete || !out.writableFinished)) unread.add(upRes.socket);
      const headers = outgoingHeaders(upRes.headers);
      if (cors) for (const k of Object.keys(headers)) if (k.startsWith('access-control-')) delete headers[k];
      if (!errorBody || status < 400 || !/json/i.test(String(upRes.headers['content-type'] ?? ''))) {
        res.writeHead(status, { ...headers, ...cors });
        return void upRes.pipe(res);
      }
      const chunks: Buffer[] = [];
      upRes.on('data', (c: Buffer) => chunks.push(c));
      upRes.on('end', () => {
        const raw = Buffer.concat(chunks);
        let shaped: object | undefined;
        try {
          shaped = errorBody(status, JSON.parse(raw.toString('utf8')));
        } catch {
          shaped = undefined;
        }
        const body = shaped ? Buffer.from(JSON.stringify(shaped)) : raw;
        res.writeHead(status, {
          ...headers,
          ...cors,
          'content-type': shaped ? 'application/json' : String(headers['content-type']),
          'content-length': String(body.length),
        });
        res.end(body);
      });
    },
  );
  out.on('error', () => {
    // Mid-answer, a JSON error would corrupt the body under way: cut the connection instead.
    if (res.headersSent) return void res.destroy();
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'The mock engine did not answer' }));
  });
  if (prefix) out.write(prefix);
  req.pipe(out);
}

export function writeUpstream(res: http.ServerResponse, r: UpstreamResponse, extra: Record<string, string> = {}): void {
  const body = r.text ?? r.body;
  res.writeHead(r.status, { ...outgoingHeaders(r.headers, Buffer.byteLength(body)), ...extra });
  res.end(body);
}
