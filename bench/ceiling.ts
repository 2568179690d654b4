// The machine's ceilings for the engine's own answers: a server that answers each benchmarked route with the bytes
// the engine answered it with (captured by run.ts), with the engine's CORS and rate-limit headers, so that body size
// and header count cost it what they cost the engine. Two of them, to show where the engine's time goes:
//   bare  node:http writing the captured bytes (nothing but HTTP and the socket);
//   hono  Hono on @hono/node-server answering c.json(<the parsed body>) with the headers set through c.header, as
//         the engine's routes and middleware do (the framework's own cost, without any of the engine's work).
// Usage: node --import tsx bench/ceiling.ts bare|hono <bodies.json>   (prints the line run.ts waits for)
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { corsHeaders, corsPolicy } from '../mock/engine/cors.ts';

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
    req.resume();
    req.on('end', () => {
      const c = pick(req.method ?? 'GET', (req.url ?? '').split('?')[0]!);
      res.writeHead(c.status, { ...headers(), 'content-type': c.type, 'content-length': Buffer.byteLength(c.body) });
      res.end(c.body);
    });
  });
}

function hono() {
  const parsed = Object.fromEntries(Object.entries(bodies).map(([k, c]) => [k, { ...c, json: JSON.parse(c.body) as object }]));
  const app = new Hono();
  app.all('*', (c) => {
    const which = c.req.method === 'POST' ? 'post' : c.req.path.endsWith('/patients') ? 'list' : 'byId';
    const h = headers();
    for (const k in h) c.header(k, h[k]);
    return c.json(parsed[which]!.json, parsed[which]!.status as 200);
  });
  return createAdaptorServer({ fetch: app.fetch });
}

if (kind !== 'bare' && kind !== 'hono') throw new Error('usage: bench/ceiling.ts bare|hono <bodies.json>');
const server = kind === 'bare' ? bare() : hono();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`API http://127.0.0.1:${port}/ext-api/v1`);
});
