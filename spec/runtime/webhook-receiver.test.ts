// The recording receiver the tests (and the suite's --webhook-receiver) share: it records, answers as scripted,
// holds when told (the sender's give-up is recorded), and its waits are bounded.
import { afterEach, describe, expect, it } from 'vitest';
import { encodeWebhookBody } from './webhook-codec.ts';
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
});
