// A loopback proxy in front of the mock that breaks one rule on purpose (one transformer per variant; the catalogue
// is variants.ts), so the suite's tests can prove each check fails on the right rule id. Test-only: never listens
// beyond 127.0.0.1.
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ProxyRequest {
  method: string;
  /** Path and query, e.g. /ext-api/v1/patients?limit=2 */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Variant {
  name: string;
  /** The area to run with --only, and the rule id the suite must fail on. */
  area: string;
  rule: string;
  /** `all` for a variant that breaks an assumed rule (its check runs only with --profile all). */
  profile?: 'documented' | 'all';
  request?(req: ProxyRequest): void;
  /** A promise it returns is awaited: a service that waits for something before it answers. */
  response?(res: ProxyResponse, req: ProxyRequest): unknown;
  /** Instead of answering: reset the connection, or hold it open until the client gives up. */
  drop?(req: ProxyRequest): 'reset' | 'hang' | undefined;
  /** Added to every round trip (the control API's too): a staging-like target far from the suite. */
  latencyMs?: number;
}

/** Mock keys the variants swap between (read from /__mock/keys once). */
export interface VariantKeys {
  main: string;
  scoped: string[];
  otherOrg: string;
  expired: string;
  revoked?: string;
}

// Small helpers the variants (here and in the check files' tests) are written with.
export const jsonOf = (b: Buffer): any => {
  try {
    return JSON.parse(b.toString('utf8'));
  } catch {
    return undefined;
  }
};
export const setJson = (r: { body: Buffer }, v: unknown) => {
  r.body = Buffer.from(JSON.stringify(v));
};
/** The path under the base address, without the query: /patients/123. */
export const apiPath = (req: ProxyRequest) => req.url.split('?')[0]!.replace(/^\/ext-api\/v1/, '');
export const is = (req: ProxyRequest, method: string, re: RegExp) => req.method === method && re.test(apiPath(req));
/** Replaces the response with a JSON one. */
export const answer = (res: ProxyResponse, status: number, v: unknown) => {
  res.status = status;
  res.headers['content-type'] = 'application/json';
  setJson(res, v);
};

export const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

/** Node's incoming headers as one string each, hop-by-hop ones dropped (they are the proxy's own). */
export function plainHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Starts the proxy on 127.0.0.1 (port 0) in front of `target` (an origin such as http://127.0.0.1:4010). */
/** `observe` sees every request as it arrives, the control API's (/__mock) included. */
export async function startBrokenProxy(
  target: string,
  variant?: Variant,
  observe?: (req: ProxyRequest) => void,
): Promise<{ origin: string; close(): Promise<void> }> {
  // node:http over kept-alive connections rather than fetch: the same bytes each way (fetch decoded bodies and added
  // headers of its own; nothing here compresses) for less CPU, which the isolation test's whole runs, one worker
  // thread for all of them, are bound by.
  const agent = new Agent({ keepAlive: true });
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', async () => {
      const req: ProxyRequest = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: plainHeaders(incoming.headers),
        body: Buffer.concat(chunks),
      };
      try {
        observe?.(req);
        const drop = req.url.startsWith('/__mock') ? undefined : variant?.drop?.(req);
        if (drop === 'reset') return void incoming.socket.destroy();
        if (drop === 'hang') return;
        if (variant?.latencyMs) await new Promise((r) => setTimeout(r, variant.latencyMs));
        if (!req.url.startsWith('/__mock')) variant?.request?.(req);
        const res = await forward(agent, target, req);
        if (!req.url.startsWith('/__mock')) await variant?.response?.(res, req);
        outgoing.writeHead(res.status, { ...res.headers, 'content-length': String(res.body.length) }).end(res.body);
      } catch (err) {
        outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(`broken-proxy: ${(err as Error).message}`);
      }
    });
  });
  const served = await serveOnLoopback(server);
  return {
    origin: served.origin,
    close: async () => {
      await served.close();
      agent.destroy();
    },
  };
}

/** Sends `req` to `target` as it stands (a GET without its body; redirects not followed); the whole answer, or a throw. */
function forward(agent: Agent, target: string, req: ProxyRequest): Promise<ProxyResponse> {
  const { hostname, port, host } = new URL(target);
  const body = req.body.length && req.method !== 'GET' ? req.body : undefined;
  const headers = { ...req.headers, host, ...(body ? { 'content-length': String(body.length) } : {}) };
  return new Promise((resolve, reject) => {
    const out = request(
      { hostname, port, method: req.method, path: req.url, headers, agent, signal: AbortSignal.timeout(30_000) },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('error', reject);
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 502, headers: plainHeaders(answer.headers), body: Buffer.concat(chunks) }),
        );
      },
    );
    out.on('error', reject);
    out.end(body);
  });
}

/** Listens on 127.0.0.1 at a free port; `close` drops open connections too, so a test never waits on them. */
export async function serveOnLoopback(server: Server): Promise<{ origin: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
