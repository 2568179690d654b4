// The recording receiver the tests (and the suite's --webhook-receiver) share: it records, answers as scripted,
// holds when told (the sender's give-up is recorded), and its waits are bounded.
import { afterEach, describe, expect, it } from 'vitest';
import { encodeWebhookBody } from './webhook-codec.ts';
import { request } from 'node:http';
import { connect } from 'node:net';
import { decodeBody, startReceiver, type Receiver } from './webhook-receiver.ts';

let open: Receiver[] = [];
afterEach(async () => {
  await Promise.all(open.map((r) => r.close()));
  open = [];
});
const start = async (...args: Parameters<typeof startReceiver>) => {
  const r = await startReceiver(...args);
  open.push(r);
  return r;
};

describe('recording webhook receiver', () => {
  it('records each request and answers the n-th as scripted, on loopback', async () => {
    const r = await start((n) => (n === 1 ? { status: 503, headers: { 'retry-after': '1' }, body: 'busy' } : 204));
    expect(r.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hook$/);
    const { body, contentType } = encodeWebhookBody({ event: 'NOTE_UPDATED', source: null }, 'XML');
    const first = await fetch(`${r.url}?a=1`, { method: 'POST', body, headers: { 'content-type': contentType } });
    expect([first.status, first.headers.get('retry-after'), await first.text()]).toEqual([503, '1', 'busy']);
    expect((await fetch(r.url, { method: 'PUT', body: 'x' })).status).toBe(204);
    const [a, b] = await r.waitFor(2);
    expect([a!.method, a!.path, a!.status, b!.method, b!.status]).toEqual(['POST', '/hook?a=1', 503, 'PUT', 204]);
    expect(decodeBody(a!)).toEqual({ event: 'NOTE_UPDATED', source: null });
    expect(a!.end).toBeGreaterThanOrEqual(a!.at);
  });

  it("'hold' never answers; the sender's giving up is recorded as the end", async () => {
    const r = await start({ respond: () => 'hold' });
    const gaveUp = await fetch(r.url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(150) }).catch((e: Error) => e.name);
    expect(gaveUp).toBe('TimeoutError');
    expect(await r.waitUntil(() => r.received[0]?.end !== undefined, 2000, 20)).toBe(true);
    expect(r.received[0]!.status).toBeUndefined();
  });

  it('bounds its waits', async () => {
    const r = await start();
    await expect(r.waitFor(1, 50)).rejects.toThrow('receiver got 0 of 1 requests within 50 ms');
    expect(await r.waitUntil(() => false, 30, 10)).toBe(false);
  });

  /** POSTs `bytes` of filler, chunked unless `declared`, and resolves with the status (or the transport error). */
  const flood = (url: string, bytes: number, declared = false) =>
    new Promise<number | string>((resolve) => {
      const req = request(url, { method: 'POST', headers: declared ? { 'content-length': String(bytes) } : {} }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const write = () => {
        while (sent < bytes && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', write);
        }
        req.end();
      };
      write();
    });

  it('answers a body over its bound 413 without reading it, declared or not, and goes on answering', async () => {
    const r = await start({ maxBodyBytes: 1024 * 1024 });
    expect(await flood(r.url, 8 * 1024 * 1024, true)).toBe(413);
    expect(await flood(r.url, 8 * 1024 * 1024)).toBe(413);
    expect((await fetch(r.url, { method: 'POST', body: '{"ok":true}' })).status).toBe(200);
    expect(r.received.map((x) => [x.status, x.oversized ?? false, x.body.length])).toEqual([
      [413, true, 0],
      [413, true, 0],
      [200, false, 11],
    ]);
  });

  it('lets a sender still writing read its 413: the connection is half-closed, not reset', async () => {
    const r = await start({ maxBodyBytes: 1024 * 1024 });
    const { port } = new URL(r.url);
    const ended = await new Promise<string>((resolve) => {
      let answer = '';
      const s = connect(Number(port), '127.0.0.1', () => {
        s.write(`POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`);
        for (let i = 0; i < 8; i++) s.write(Buffer.alloc(1024 * 1024, 'x'));
        // Busy (a loaded sender) before reading: a reset sent meanwhile ended the connection with ECONNRESET.
        setTimeout(() => {
          for (const end = Date.now() + 300; Date.now() < end; );
        }, 50);
      });
      s.on('data', (d) => (answer += d));
      s.on('error', (e: NodeJS.ErrnoException) => resolve(`${e.code}: ${answer.slice(0, 30)}`));
      s.on('end', () => (s.end(), resolve(answer.slice(0, 30))));
    });
    expect(ended).toBe('HTTP/1.1 413 Payload Too Large');
  });

  it('a respond that throws answers 500 and the receiver lives on; a sender that resets mid-body ends nothing', async () => {
    const r = await start((n) => {
      if (n === 1) throw new Error('script bug');
      return 200;
    });
    expect((await fetch(r.url, { method: 'POST', body: '{}' })).status).toBe(500);
    const cut = request(r.url, { method: 'POST', headers: { 'content-length': '1000' } });
    cut.on('error', () => undefined);
    cut.write('partial');
    await new Promise((res) => setTimeout(res, 50));
    cut.destroy();
    await new Promise((res) => setTimeout(res, 50));
    expect((await fetch(r.url, { method: 'POST', body: '{}' })).status).toBe(200);
  });
});
