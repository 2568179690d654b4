// --static: Prism's plain mock (prism-http-server's createServer, as `prism mock` runs it), no engine, no state.
// Prism listens on an internal loopback port; a small front on the public port takes the gate's decisions (target,
// control API), answers GET /__mock/health (tools wait on it in every mode), refuses the rest of the control API with
// a reason, answers CORS itself (Prism's own reflects every origin, with credentials) and streams the rest through.
import http from 'node:http';
import { createServer } from '@stoplight/prism-http-server';
import { controlCorsHeaders, controlPreflightHeaders } from '../platform/control-cors.ts';
import { corsHeaders, corsRefusal, isOriginAllowed, preflight, type CorsPolicy } from '../platform/cors.ts';
import type { Refusal } from '../platform/journal-entry.ts';
import { shapeClientErrors } from '../front/client-error.ts';
import { sendJson, type Gate } from '../front/gate.ts';
import { prismOperations } from './operations.ts';
import { createUpstream, pipeThrough } from './raw-forward.ts';
import { prismLogger } from './silent-logger.ts';

/** Prism alone on `port` (the bench's baseline, and the static mode's back end). */
export async function startStaticPrism(port: number, host: string, cors = true): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((await prismOperations()) as never, {
    cors,
    config: {
      isProxy: false,
      checkSecurity: true,
      validateRequest: true,
      validateResponse: true,
      errors: false,
      mock: { dynamic: false },
    } as never,
    components: { logger: prismLogger(false) as never },
  });
  const address = await server.listen(port, host);
  return { port: Number(new URL(address).port), close: () => server.close() };
}

/**
 * Prism's HTTP layer refuses a body it cannot read (over 10 MB: 413; not JSON: 400) as `{ error: { code, message } }`;
 * the contract's shape is `{ error: <string> }`, with `details` on a 400.
 */
function documentedError(status: number, body: unknown): object | undefined {
  const e = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (!e || typeof e !== 'object' || typeof e.message !== 'string') return undefined;
  return status === 400 ? { error: e.message, details: { body: String(e.code ?? e.message) } } : { error: e.message };
}

/** The static mode: Prism behind the health front. */
export async function startStaticMock(
  port: number,
  host: string,
  opts: { gate: Gate; cors: CorsPolicy; boundHost?: string; onRefusal?: (r: Refusal) => void; internalPort?: number },
): Promise<{ port: number; close(): Promise<void> }> {
  const prism = await startStaticPrism(opts.internalPort ?? 0, '127.0.0.1', false);
  const upstream = createUpstream('127.0.0.1', prism.port);
  const front = http.createServer({ requireHostHeader: false }, (req, res) => {
    const admitted = opts.gate(req, res);
    if (!admitted) return;
    const { path } = admitted;
    const origin = req.headers.origin;
    if (!admitted.control) {
      if (origin !== undefined && !isOriginAllowed(opts.cors, origin)) opts.onRefusal?.(corsRefusal(origin, req.method === 'OPTIONS'));
      if (req.method !== 'OPTIONS')
        return pipeThrough(upstream, req, res, { cors: corsHeaders(opts.cors, origin), errorBody: documentedError });
      req.resume();
      const p = preflight(opts.cors, origin);
      if (p.body) return sendJson(res, p.status, p.body, p.headers);
      res.writeHead(p.status, p.headers);
      return void res.end();
    }
    req.resume();
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.writeHead(204, controlPreflightHeaders(opts.cors, origin, opts.boundHost));
      return void res.end();
    }
    const cors = controlCorsHeaders(opts.cors, origin, opts.boundHost);
    if (path === '/__mock/health' && (req.method === 'GET' || req.method === 'HEAD'))
      return sendJson(res, 200, { status: 'ok', mode: 'static' }, cors);
    sendJson(
      res,
      404,
      {
        error: `${req.method} ${path}: the static mode has only GET /__mock/health (no engine, no state); run without --static for the control API`,
      },
      cors,
    );
  });
  shapeClientErrors(front);
  await new Promise<void>((resolve, reject) => {
    front.once('error', (e) => void prism.close().finally(() => reject(e)));
    front.listen(port, host, () => resolve());
  });
  return {
    port: (front.address() as { port: number }).port,
    async close() {
      front.closeAllConnections();
      await new Promise<void>((r) => front.close(() => r()));
      upstream.agent.destroy();
      await prism.close();
    },
  };
}
