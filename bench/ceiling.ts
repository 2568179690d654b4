// The machine's ceilings for the engine's own answers: a server that answers each benchmarked route with the bytes
// the engine answered it with (captured by run.ts), with the engine's CORS and rate-limit headers, so that body size
// and header count cost it what they cost the engine. Two of them, to show where the engine's time goes:
//   bare  node:http writing the captured bytes (nothing but HTTP and the socket);
//   hono  Hono on @hono/node-server answering c.json(<the parsed body>) with the headers set through c.header, as
//         the engine's routes and middleware do (the framework's own cost, without any of the engine's work).
//   proxy the default mode's own front and Prism validating proxy (mock/prism/proxy.ts, as `startMock` builds them)
//         handing each operation to an in-process stand-in for the engine's app.fetch that answers the captured bytes
//         (with `bare` as the upstream for what default mode streams to the engine server): what the front and
//         Prism's response validation cost by themselves, the most default mode can serve.
// All read the whole request body and parse it as JSON on POST, as any server must before it can answer a create
// (a ceiling that answers without reading the body is one no engine can reach): bare from the socket, Hono through
// `c.req.json()`, the framework's own way, proxy's stand-in through the adapter's readBody, as the engine does.
// Usage: node --import tsx bench/ceiling.ts bare|hono|proxy <bodies.json>   (prints the line run.ts waits for)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { createAdaptorServer, getRequestListener } from '@hono/node-server';
import type { AdapterEnv } from '../mock/platform/adapter.ts';
import { Hono } from 'hono';
import { corsHeaders, corsPolicy } from '../mock/platform/cors.ts';
import { createGate } from '../mock/front/gate.ts';
import { prismOperations } from '../mock/prism/operations.ts';
import { createValidatingProxy } from '../mock/prism/proxy.ts';
import { createUpstream } from '../mock/prism/raw-forward.ts';
import { prismLogger } from '../mock/prism/silent-logger.ts';

interface Captured {
  status: number;
  type: string;
  body: string;
}
type Bodies = Record<'list' | 'byId' | 'post', Captured>;

const [kind, file] = process.argv.slice(2);
const bodies = JSON.parse(readFileSync(file!, 'utf8')) as Bodies;
const pick = (method: string, path: string): Captured =>
  method === 'POST' ? bodies.post : path.endsWith('/patients') ? bodies.list : bodies.byId;
/** What the engine sends a client without Origin (autocannon) under the default policy. */
const CORS = corsHeaders(corsPolicy(), undefined);
const headers = (): Record<string, string> => ({
  ...CORS,
  'X-RateLimit-Limit': '1000000000',
  'X-RateLimit-Remaining': '999999999',
  'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 1),
});

function bare(): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST') JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const c = pick(req.method ?? 'GET', (req.url ?? '').split('?')[0]!);
      res.writeHead(c.status, { ...headers(), 'content-type': c.type, 'content-length': Buffer.byteLength(c.body) });
      res.end(c.body);
    });
  });
}

function hono() {
  const parsed = Object.fromEntries(Object.entries(bodies).map(([k, c]) => [k, { ...c, json: JSON.parse(c.body) as object }]));
  const app = new Hono();
  app.all('*', async (c) => {
    if (c.req.method === 'POST') await c.req.json();
    const which = c.req.method === 'POST' ? 'post' : c.req.path.endsWith('/patients') ? 'list' : 'byId';
    const h = headers();
    for (const k in h) c.header(k, h[k]);
    return c.json(parsed[which]!.json, parsed[which]!.status as 200);
  });
  return createAdaptorServer({ fetch: app.fetch });
}

async function proxy(): Promise<http.Server> {
  const upstreamServer = bare();
  await new Promise<void>((resolve) => upstreamServer.listen(0, '127.0.0.1', resolve));
  const upstream = createUpstream('127.0.0.1', (upstreamServer.address() as AddressInfo).port);
  const operations = await prismOperations();
  // As in default mode, where the engine's own server has put @hono/node-server's lightweight Response in place.
  getRequestListener(() => new Response());
  const engine = async (req: Request, env: AdapterEnv) => {
    if (req.method === 'POST') JSON.parse(Buffer.from((await env.readBody!(1 << 20))!).toString('utf8'));
    const c = pick(req.method, new URL(req.url).pathname);
    return new Response(c.body, { status: c.status, headers: { ...headers(), 'content-type': c.type } });
  };
  return createValidatingProxy({
    operations,
    upstream,
    engine,
    strict: false,
    logger: prismLogger(false) as never,
    gate: createGate({ boundHost: '127.0.0.1' }),
    cors: corsPolicy(),
  });
}

if (kind !== 'bare' && kind !== 'hono' && kind !== 'proxy') throw new Error('usage: bench/ceiling.ts bare|hono|proxy <bodies.json>');
const server = kind === 'bare' ? bare() : kind === 'hono' ? hono() : await proxy();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`API http://127.0.0.1:${port}/ext-api/v1`);
});
