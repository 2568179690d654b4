// --static: Prism's plain mock (prism-http-server's createServer, as `prism mock` runs it), no engine, no state.
// Prism listens on an internal loopback port; a small front on the public port answers GET /__mock/health (tools
// wait on it in every mode), refuses the rest of the control API with a reason, and streams everything else through.
import http from 'node:http';
import { createServer } from '@stoplight/prism-http-server';
import { isLoopback } from '../control/loopback.ts';
import { prismOperations } from './operations.ts';
import { createUpstream, pipeThrough } from './raw-forward.ts';
import { prismLogger } from './silent-logger.ts';

/** Prism alone on `port` (the bench's baseline, and the static mode's back end). */
export async function startStaticPrism(port: number, host: string): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((await prismOperations()) as never, {
    cors: true,
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

/** The static mode: Prism behind the health front. */
export async function startStaticMock(port: number, host: string): Promise<{ port: number; close(): Promise<void> }> {
  const prism = await startStaticPrism(0, '127.0.0.1');
  const upstream = createUpstream('127.0.0.1', prism.port);
  const json = (res: http.ServerResponse, status: number, body: object) => {
    res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(JSON.stringify(body));
  };
  const front = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path !== '/__mock' && !path.startsWith('/__mock/')) return pipeThrough(upstream, req, res);
    req.resume();
    if (!isLoopback(req.socket.remoteAddress)) return json(res, 403, { error: 'The control API answers loopback clients only' });
    if (path === '/__mock/health' && (req.method === 'GET' || req.method === 'HEAD')) return json(res, 200, { status: 'ok', mode: 'static' });
    json(res, 404, { error: `${req.method} ${path}: the static mode has only GET /__mock/health (no engine, no state); run without --static for the control API` });
  });
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
