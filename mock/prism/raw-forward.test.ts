// The forward step to the engine: a pooled keep-alive socket the server closes as a request goes out is retried
// once on a fresh socket (the race that surfaced as Prism's "socket hang up" 500), never more.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createUpstream, send, type Upstream } from './raw-forward.ts';

let server: Server | undefined;
let upstream: Upstream | undefined;
afterEach(async () => {
  upstream?.agent.destroy();
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
});

/** A server that drops every connection at its `dropAt`-th request, unanswered (as one closing an idle socket). */
async function start(dropAt: number): Promise<{ up: Upstream; seen: () => number }> {
  let seen = 0;
  server = createServer((req, res) => {
    const socket = req.socket as typeof req.socket & { n?: number };
    socket.n = (socket.n ?? 0) + 1;
    seen++;
    if (socket.n === dropAt) return void socket.destroy();
    req.resume();
    req.on('end', () => res.end(JSON.stringify({ n: socket.n })));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  upstream = createUpstream('127.0.0.1', (server.address() as AddressInfo).port);
  return { up: upstream, seen: () => seen };
}

describe('send to the engine over the keep-alive pool', () => {
  it('retries once, on a fresh socket, when a reused socket is closed under the request', async () => {
    const { up, seen } = await start(2);
    expect((await send(up, 'POST', '/a', {}, Buffer.from('{}'))).status).toBe(200);
    const second = await send(up, 'PATCH', '/b', { 'content-type': 'text/plain' }, Buffer.from('{}'));
    expect(second.status).toBe(200);
    expect(JSON.parse(second.body.toString())).toEqual({ n: 1 });
    expect(seen()).toBe(3);
  });

  it('does not retry a failure on a fresh socket', async () => {
    const { up, seen } = await start(1);
    await expect(send(up, 'GET', '/a', {}, undefined)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(seen()).toBe(1);
  });
});
