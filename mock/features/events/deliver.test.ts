import { afterEach, describe, expect, it } from 'vitest';
import { nodeRuntime } from '../../runtime/node.ts';
import { createClock, type EngineClock } from '../../platform/clock.ts';
import { createDeliverer, type Deliverer, type DelivererOptions, type Delivery } from './deliver.ts';
import { encodeWebhookBody as encode } from '../../../spec/runtime/webhook-codec.ts';
import { startReceiver, type Receiver, type Reply } from '../../../spec/runtime/webhook-receiver.ts';

const payload = { event: 'NOTE_CREATED', note_id: 'n1', source: null };
const encoded = encode(payload, 'JSON');

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function setup(timeScale: number, extra: Partial<DelivererOptions> = {}): { deliverer: Deliverer; clock: EngineClock } {
  const clock = createClock(timeScale);
  const deliverer = createDeliverer({
    clock,
    allowPrivate: true,
    send: nodeRuntime.webhooks.send,
    resolve: nodeRuntime.webhooks.resolve,
    ...extra,
  });
  cleanup.push(
    () => deliverer.close(),
    () => clock.cancelAll(),
  );
  return { deliverer, clock };
}

async function receiver(respond?: (n: number) => Reply): Promise<Receiver> {
  const r = await startReceiver(respond);
  cleanup.push(() => r.close());
  return r;
}

/** Waits (bounded) until the delivery leaves `pending`. */
async function settled(d: Delivery, timeoutMs = 5000): Promise<Delivery> {
  const end = Date.now() + timeoutMs;
  while (d.state === 'pending') {
    if (Date.now() > end) throw new Error(`delivery still pending after ${timeoutMs} ms: ${JSON.stringify(d)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return d;
}

const target = (url: string, headers: Record<string, string> = {}) => ({ webhook_id: 'wh1', url, headers });

describe('delivery: POST, retries with backoff, no redirects, timeout', () => {
  it('EVT-034, EVT-035, EVT-036, EVT-037: 500, 500, 200: three byte-identical POSTs, gaps close to 1 s then 2 s (scaled), delivered', async () => {
    const scale = 0.2; // 1 s -> 200 ms, 2 s -> 400 ms: large enough against scheduling jitter
    const rcv = await receiver((n) => (n < 3 ? 500 : 200));
    const { deliverer } = setup(scale);
    const d = deliverer.enqueue(target(rcv.url), 'NOTE_CREATED', payload, encoded);
    expect(d.state).toBe('pending'); // enqueue returns at once; the POSTs happen in the background
    const got = await rcv.waitFor(3);
    await settled(d);
    expect(got.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
    for (const r of got) expect(r.body.equals(encoded.body)).toBe(true);
    const gap1 = got[1]!.at - got[0]!.at;
    const gap2 = got[2]!.at - got[1]!.at;
    expect(gap1).toBeGreaterThanOrEqual(1000 * scale - 5);
    expect(gap1).toBeLessThan(1000 * scale + 200);
    expect(gap2).toBeGreaterThanOrEqual(2000 * scale - 5);
    expect(gap2).toBeLessThan(2000 * scale + 200);
    expect(gap2 / gap1).toBeGreaterThan(1.4);
    expect(gap2 / gap1).toBeLessThan(2.6);
    expect(d.state).toBe('delivered');
    expect(d.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(d.attempts.map((a) => a.delay_ms)).toEqual([0, 1000, 2000]); // simulated: the log says what scale blurs
    for (const a of d.attempts) {
      expect(Number.isNaN(Date.parse(a.at))).toBe(false);
      expect(a.duration_ms).toBeGreaterThanOrEqual(0);
    }
  });

  it('EVT-032, EVT-029, EVT-041: sends POST with the Content-Type of the format and the static headers, which cannot replace Content-Type', async () => {
    const rcv = await receiver();
    const { deliverer } = setup(0.01);
    const xml = encode(payload, 'XML');
    const d = deliverer.enqueue(target(rcv.url, { 'X-Secret': 's3cr3t', 'Content-Type': 'text/plain' }), 'NOTE_CREATED', payload, xml);
    const [r] = await rcv.waitFor(1);
    await settled(d);
    expect(r!.headers['content-type']).toBe('application/xml');
    expect(r!.headers['x-secret']).toBe('s3cr3t');
    expect(r!.path).toBe('/hook');
    expect(r!.body.equals(xml.body)).toBe(true);
  });

  it.each([
    [[408, 200], 'delivered', 2],
    [[429, 200], 'delivered', 2],
    [[502, 503, 504], 'failed', 3],
    [[404], 'failed', 1],
    [[400], 'failed', 1],
    [[201], 'delivered', 1],
    [[204], 'delivered', 1],
  ] as const)('EVT-036, EVT-045: statuses %j -> %s after %i attempt(s)', async (statuses, state, attempts) => {
    const rcv = await receiver((n) => statuses[n - 1] ?? 200);
    const { deliverer } = setup(0.01);
    const d = await settled(deliverer.enqueue(target(rcv.url), 'NOTE_CREATED', payload, encoded));
    expect(d.state).toBe(state);
    expect(d.attempts.map((a) => a.status)).toEqual(statuses.slice(0, attempts));
    expect(rcv.received).toHaveLength(attempts);
  });

  it('EVT-038: a 3xx is a failure and is not followed (the Location target receives nothing)', async () => {
    const elsewhere = await receiver();
    const rcv = await receiver(() => ({ status: 302, headers: { location: elsewhere.url } }));
    const { deliverer } = setup(0.01);
    const d = await settled(deliverer.enqueue(target(rcv.url), 'NOTE_CREATED', payload, encoded));
    await new Promise((r) => setTimeout(r, 50));
    expect(d.state).toBe('failed');
    expect(d.attempts).toEqual([expect.objectContaining({ status: 302 })]);
    expect(rcv.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('EVT-033: a receiver that never answers is given up after the (scaled) 30 s timeout, 3 times, and recorded failed', async () => {
    const scale = 0.01; // 30 s -> 300 ms
    const rcv = await receiver(() => 'hold');
    const { deliverer } = setup(scale);
    const t0 = performance.now();
    const d = await settled(deliverer.enqueue(target(rcv.url), 'NOTE_CREATED', payload, encoded), 5000);
    const took = performance.now() - t0;
    expect(d.state).toBe('failed');
    expect(d.attempts).toHaveLength(3);
    for (const a of d.attempts) {
      expect(a.error).toMatch(/timed out after 30000 ms/);
      expect(a.timeout_ms).toBe(30_000);
      expect(a.duration_ms).toBeGreaterThanOrEqual(30_000 * scale - 20);
      expect(a.duration_ms).toBeLessThan(30_000 * scale + 250);
    }
    expect(took).toBeGreaterThanOrEqual((3 * 30_000 + 3000) * scale - 30);
    expect(rcv.received).toHaveLength(3);
  });

  it('connection errors are retried, then recorded failed', async () => {
    const rcv = await receiver();
    const url = rcv.url;
    await rcv.close(); // nothing listens on the port now
    const { deliverer } = setup(0.01);
    const d = await settled(deliverer.enqueue(target(url), 'NOTE_CREATED', payload, encoded));
    expect(d.state).toBe('failed');
    expect(d.attempts).toHaveLength(3);
    expect(d.attempts[0]!.error).toMatch(/connection error: ECONNREFUSED/);
  });

  it('a slow receiver does not hold up another delivery', async () => {
    const slow = await receiver(() => 'hold');
    const fast = await receiver();
    const { deliverer } = setup(1); // real 30 s timeout: the slow one stays pending for the whole test
    const a = deliverer.enqueue(target(slow.url), 'NOTE_CREATED', payload, encoded);
    await slow.waitFor(1);
    const b = await settled(deliverer.enqueue(target(fast.url), 'NOTE_CREATED', payload, encoded), 2000);
    expect(b.state).toBe('delivered');
    expect(a.state).toBe('pending');
  });

  it('the concurrency bound queues attempts instead of dropping them', async () => {
    const rcv = await receiver();
    const { deliverer } = setup(0.01, { concurrency: 2 });
    const all = Array.from({ length: 10 }, () => deliverer.enqueue(target(rcv.url), 'NOTE_CREATED', payload, encoded));
    for (const d of all) await settled(d);
    expect(all.every((d) => d.state === 'delivered')).toBe(true);
    expect(rcv.received).toHaveLength(10);
  });

  it('EVT-040: re-checks the destination before each attempt: a refused one is never contacted', async () => {
    const rcv = await receiver();
    const { deliverer } = setup(0.01, { allowPrivate: false });
    const d = await settled(deliverer.enqueue(target(rcv.url), 'NOTE_CREATED', payload, encoded));
    expect(d.state).toBe('failed');
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]!.error).toMatch(/destination refused: .*--allow-private-webhooks/);
    expect(rcv.received).toHaveLength(0);
  });

  it('stops retrying once the webhook is deleted', async () => {
    let registered = true;
    const rcv = await receiver(() => 500);
    const { deliverer } = setup(0.05, { isRegistered: () => registered });
    const d = deliverer.enqueue(target(rcv.url), 'NOTE_CREATED', payload, encoded);
    await rcv.waitFor(1);
    registered = false;
    await settled(d);
    expect(d.state).toBe('failed');
    expect(d.attempts.at(-1)!.error).toMatch(/deleted/);
    expect(rcv.received).toHaveLength(1);
  });

  it('keeps a bounded history (oldest dropped) and filters by webhook and event', async () => {
    const rcv = await receiver();
    const { deliverer } = setup(0.01, { historyLimit: 5 });
    const all = Array.from({ length: 8 }, (_, i) =>
      deliverer.enqueue(
        { webhook_id: i % 2 ? 'odd' : 'even', url: rcv.url, headers: {} },
        i < 4 ? 'NOTE_CREATED' : 'NOTE_UPDATED',
        payload,
        encoded,
      ),
    );
    for (const d of all) await settled(d);
    expect(deliverer.list().map((d) => d.id)).toEqual(all.slice(3).map((d) => d.id));
    expect(deliverer.list({ webhook_id: 'odd' }).every((d) => d.webhook_id === 'odd')).toBe(true);
    expect(deliverer.list({ event: 'NOTE_CREATED' })).toHaveLength(1);
  });

  it('clear() and close() abort in-flight deliveries promptly', async () => {
    const rcv = await receiver(() => 'hold');
    const { deliverer } = setup(1);
    deliverer.enqueue(target(rcv.url), 'NOTE_CREATED', payload, encoded);
    await rcv.waitFor(1);
    deliverer.clear();
    expect(deliverer.list()).toEqual([]);
    const t0 = performance.now();
    await deliverer.idle();
    await deliverer.close();
    expect(performance.now() - t0).toBeLessThan(1000);
    const late = deliverer.enqueue(target(rcv.url), 'NOTE_CREATED', payload, encoded);
    expect(late.state).toBe('failed');
  });
});
