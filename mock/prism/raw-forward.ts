// Byte-exact forwarding to the engine over a keep-alive loopback connection: the request as received, the
// response as sent. Used for everything Prism does not route (control API, preflight, unknown paths) and by the
// validating proxy's forward step, so uploads and malformed JSON reach the engine untouched.
import http from 'node:http';

export interface Upstream {
  host: string;
  port: number;
  agent: http.Agent;
}

export interface UpstreamResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

export function createUpstream(host: string, port: number): Upstream {
  return { host, port, agent: new http.Agent({ keepAlive: true, maxSockets: 256 }) };
}

function outgoingHeaders(headers: http.IncomingHttpHeaders, bodyLength?: number): http.OutgoingHttpHeaders {
  const h: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.includes(k)) h[k] = v;
  if (bodyLength !== undefined) h['content-length'] = String(bodyLength);
  return h;
}

/** Sends a buffered request; resolves with the whole response. */
export function send(up: Upstream, method: string, path: string, headers: http.IncomingHttpHeaders, body: Buffer | undefined): Promise<UpstreamResponse> {
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
    req.on('error', reject);
    req.end(body);
  });
}

/** Streams a request straight through (large bodies: the engine refuses them without reading them whole). */
export function pipeThrough(up: Upstream, req: http.IncomingMessage, res: http.ServerResponse, prefix?: Buffer): void {
  const out = http.request(
    { host: up.host, port: up.port, method: req.method, path: req.url, agent: up.agent, headers: outgoingHeaders(req.headers) },
    (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, outgoingHeaders(upRes.headers));
      upRes.pipe(res);
    },
  );
  out.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'The mock engine did not answer' }));
  });
  if (prefix) out.write(prefix);
  req.pipe(out);
}

export function writeUpstream(res: http.ServerResponse, r: UpstreamResponse, extra: Record<string, string> = {}): void {
  res.writeHead(r.status, { ...outgoingHeaders(r.headers, r.body.length), ...extra });
  res.end(r.body);
}
