// One slow receiver cannot delay another (issue 32): 100 webhooks whose receivers accept the connection and never
// answer, and one healthy receiver, all registered for the same event. On the mock's clock (--time-scale 0.1: each
// attempt's 30 s timeout is 3 s) one pool of 16 slots made the healthy delivery wait for the hanging attempts' timeouts
// (52 s at scale 1); with a limit per destination it is delivered at once. Also: a header value no sender can send is
// refused at registration with details.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../server.ts';

const NOTE_ID = 'd18d6e27-0236-4c05-a587-f9d4630a0973'; // a note of the default seed's first organization

const listening = (server: net.Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** Accepts connections and never answers. */
async function hangingReceiver() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s)).on('error', () => undefined);
  });
  const port = await listening(server);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

let mock: RunningMock;
const closers: Array<() => Promise<unknown>> = [];
const control = (path: string, method: string, body: unknown) =>
  fetch(`${mock.controlUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  mock = await startMock({ port: 0, mode: 'engine-only', timeScale: 0.1, allowPrivateWebhooks: true, quiet: true });
  closers.push(() => mock.close());
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

describe('webhook delivery across destinations', () => {
  it('a healthy receiver gets its delivery at once beside 100 hanging ones', async () => {
    const hanging = await Promise.all(Array.from({ length: 100 }, hangingReceiver));
    for (const h of hanging) closers.push(h.close);
    let deliveredAt = 0;
    const healthy = http.createServer((req, res) => {
      req.resume().on('end', () => {
        deliveredAt ||= performance.now();
        res.writeHead(204).end();
      });
    });
    const port = await listening(healthy);
    closers.push(() => new Promise((r) => healthy.close(r)));
    const register = async (url: string) => {
      const r = await control('/webhooks', 'POST', { name: 'fairness', url, event: 'NOTE_UPDATED' });
      expect(r.status, await r.clone().text()).toBe(201);
    };
    // The hanging ones first: in one pool in arrival order, they took every slot before the healthy one's turn.
    for (const h of hanging) await register(h.url);
    await register(`http://127.0.0.1:${port}/hook`);

    const t0 = performance.now();
    expect((await control(`/notes/${NOTE_ID}`, 'PATCH', { content: 'Edited.' })).status).toBe(200);
    for (let i = 0; i < 100 && !deliveredAt; i++) await new Promise((r) => setTimeout(r, 50));
    expect(deliveredAt).toBeGreaterThan(0);
    // One attempt's timeout at this scale is 3 s; delivered long before any hanging attempt ends.
    expect(deliveredAt - t0).toBeLessThan(1_500);
  });

  it('a header value with a control character is refused at registration, naming it', async () => {
    const r = await control('/webhooks', 'POST', {
      name: 'bad header',
      url: 'http://127.0.0.1:9/hook',
      event: 'NOTE_UPDATED',
      headers: { 'X-Token': 'a\u0001b', 'X-Fine': 'plain value, with\ttab and é' },
    });
    expect(r.status).toBe(400);
    const body = await r.json();
    expect(Object.keys(body.details)).toEqual(['headers.X-Token']);
    expect(body.details['headers.X-Token']).toMatch(/U\+0001 at index 1/);
    const wide = await control('/webhooks', 'POST', {
      name: 'bad header',
      url: 'http://127.0.0.1:9/hook',
      event: 'NOTE_UPDATED',
      headers: { 'X-Token': 'euro €' },
    });
    expect((await wide.json()).details['headers.X-Token']).toMatch(/U\+20AC at index 5/);
  });
});
