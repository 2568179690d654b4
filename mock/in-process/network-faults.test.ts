// Network faults in process, as a fetch meets them: through createMock's fetch and behind MSW's setupServer (the
// app's own global fetch). A drop rejects as a network failure, a timeout stays pending until the caller aborts (or
// rejects once its hold is over), a reset resolves and fails reading the body, malformed is a 200 that does not
// parse, latency delays; strict mode judges none of them.
import v8 from 'node:v8';
import vm from 'node:vm';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clinicalRecordsHandlers } from '../msw.ts';
import { createMock } from './node.ts';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const mock = await createMock({ strict: true });
const key = mock.keys.find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
const arm = async (body: object) => {
  const r = await mock.fetch(`${mock.controlUrl}/faults`, { method: 'POST', body: JSON.stringify(body) });
  expect(r.status, await r.clone().text()).toBe(201);
};
afterAll(() => mock.close());
beforeEach(() => mock.reset());

/** Each way in: createMock's own fetch, and the global fetch behind MSW. */
describe.each([
  ['mock.fetch', (url: string, init?: RequestInit) => mock.fetch(url, init)],
  ['MSW setupServer', (url: string, init?: RequestInit) => fetch(url, init)],
] as const)('through %s', (way, fetchWith) => {
  const server = setupServer(...clinicalRecordsHandlers(mock));
  if (way === 'MSW setupServer') {
    beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
    afterAll(() => server.close());
  }
  const get = (path: string, init: RequestInit = {}) => fetchWith(`${mock.baseUrl}${path}`, { ...init, headers: { 'x-api-key': key } });

  it('drop: fetch rejects with a TypeError, as on a network failure', async () => {
    await arm({ kind: 'drop', path: '/providers' });
    await expect(get('/providers')).rejects.toBeInstanceOf(TypeError);
    expect((await get('/providers')).status).toBe(200);
  });

  it('timeout: pending until the caller aborts; with ms it rejects as a closed connection after it', async () => {
    await arm({ kind: 'timeout', path: '/patients' });
    const t0 = performance.now();
    const pending = get('/patients', { signal: AbortSignal.timeout(300) }).catch((e: Error) => e);
    // Collected meanwhile, a request nothing held would never hear its caller's abort.
    for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 30)).then(collectGarbage);
    const aborted = await pending;
    expect((aborted as Error).name).toBe('TimeoutError');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    // The journal says how long the caller really waited (it gave up at 300 ms of a 120 s hold).
    const held = (
      (await (await mock.fetch(`${mock.controlUrl}/requests?limit=1`)).json()) as {
        data: Array<{ duration_ms: number; fault: { effect: string } }>;
      }
    ).data[0]!;
    expect(held.fault.effect).toMatch(/^timed out: the client gave up after \d+ ms$/);
    expect(held.duration_ms).toBeGreaterThanOrEqual(250);
    expect(held.duration_ms).toBeLessThan(5_000);
    await arm({ kind: 'timeout', path: '/patients', ms: 200 });
    const t1 = performance.now();
    await expect(get('/patients')).rejects.toBeInstanceOf(TypeError);
    expect(performance.now() - t1).toBeGreaterThanOrEqual(190);
  });

  it('reset: the answer arrives, reading its body fails', async () => {
    await arm({ kind: 'reset', path: '/patients' });
    const r = await get('/patients');
    expect(r.status).toBe(200);
    await expect(r.text()).rejects.toBeInstanceOf(TypeError);
  });

  it('malformed: a 200 whose JSON is cut short (strict judges it not)', async () => {
    await arm({ kind: 'malformed', path: '/patients' });
    const r = await get('/patients');
    expect(r.status).toBe(200);
    await expect(r.json()).rejects.toBeInstanceOf(SyntaxError);
  });

  it('latency: the answer waits', async () => {
    await arm({ kind: 'latency', path: '/providers', ms: 200 });
    const t0 = performance.now();
    expect((await get('/providers')).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
  });
});

describe('the latency option', () => {
  it('delays every API answer; a bad value is refused', async () => {
    const slow = await createMock({ latency: '150-200' });
    try {
      const t0 = performance.now();
      expect((await slow.fetch(`${slow.baseUrl}/providers`)).status).toBe(401);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    } finally {
      await slow.close();
    }
    await expect(createMock({ latency: [300, 100] })).rejects.toThrow(/latency must be/);
    await expect(createMock({ latency: 'soon' })).rejects.toThrow(/latency must be/);
  });
});
