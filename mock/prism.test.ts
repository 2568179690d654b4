// Prism in front of the engine (default mode): an operation the engine answers 501 is mocked by Prism from the
// spec, and with --strict a response outside the contract becomes a 500 with sl-violations and is reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeatureFactory } from './platform/deps.ts';
import { providersFeature } from './features/providers/feature.ts';
import { startMock, type RunningMock } from './server.ts';
import { sendChunked } from './testing/raw-http.ts';

// Patients answered wrongly on purpose; no feature answers appointments (-> 501 -> Prism's mock).
const broken: FeatureFactory = () => ({
  name: 'broken',
  routes(app) {
    app.get('/patients', (c) => c.json({ data: 'not a list' }));
  },
});

describe('Prism validation proxy (--strict)', () => {
  let m: RunningMock;
  const violations: string[] = [];
  beforeAll(async () => {
    m = await startMock({
      port: 0,
      strict: true,
      quiet: true,
      features: [providersFeature, broken],
      onViolation: (l) => violations.push(l),
    });
  });
  afterAll(async () => {
    await m?.close();
  });
  const key = () => m.seed.keys[0]!.key;

  it('an operation the engine does not model (501) is mocked by Prism from the spec, with live rate-limit headers', async () => {
    const r = await fetch(`${m.url}/appointments`, { headers: { 'x-api-key': key() } });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-mock-source')).toBe('prism');
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(m.rateLimit.requests);
    const body = await r.json();
    expect(Array.isArray(body.data)).toBe(true);
  });
  it('a response outside the contract becomes a 500 with sl-violations, and is reported', async () => {
    const r = await fetch(`${m.url}/patients`, { headers: { 'x-api-key': key() } });
    expect(r.status).toBe(500);
    expect(r.headers.get('sl-violations')).toContain('response');
    expect(violations.some((v) => v.includes('GET /ext-api/v1/patients'))).toBe(true);
  });
  it("the request journal carries Prism's violations on the request's own entry (a client's X-Mock-Request-Id is overwritten)", async () => {
    await fetch(`${m.url}/patients`, { headers: { 'x-api-key': key(), 'x-mock-request-id': '1' } });
    await fetch(`${m.url}/providers`, { headers: { 'x-api-key': key() } });
    const { data } = await (await fetch(`${m.controlUrl}/requests?limit=2`)).json();
    expect(data[0]).toMatchObject({ path: '/ext-api/v1/providers', status: 200 });
    expect(data[0].violations).toBeUndefined();
    expect(data[1]).toMatchObject({ path: '/ext-api/v1/patients', status: 500, engine_status: 200 });
    expect(data[1].violations).toEqual(
      expect.arrayContaining([expect.objectContaining({ location: expect.stringMatching(/^response/), severity: 'Error' })]),
    );
  });
  it('a keyless request still reaches the engine (401 with live rate-limit headers, not a Prism mock)', async () => {
    const r = await fetch(`${m.url}/providers`);
    expect(r.status).toBe(401);
    expect(r.headers.get('x-mock-source')).toBeNull();
    expect(r.headers.get('x-ratelimit-limit')).toBe(String(m.rateLimit.requests));
  });
});

describe('rate limit from options', () => {
  let m: RunningMock;
  beforeAll(async () => {
    m = await startMock({ port: 0, mode: 'engine-only', quiet: true, rateLimit: { requests: 3, seconds: 60 } });
  });
  afterAll(async () => {
    await m?.close();
  });
  it('RATE-002 RATE-003 RATE-004 past the limit: 429, exact message, Retry-After; per key', async () => {
    const get = (k: string) => fetch(`${m.url}/providers`, { headers: { 'x-api-key': k } });
    const [a, b] = [m.seed.keys[0]!.key, m.seed.keys[1]!.key];
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(a)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const r = await get(a);
    expect(await r.json()).toEqual({ error: 'Rate limit exceeded. Please retry after the window resets.' });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await get(b)).status).toBe(200);
  });
});

describe('--static: Prism plain mock behind the health front', () => {
  let m: RunningMock;
  beforeAll(async () => {
    m = await startMock({ port: 0, mode: 'static', quiet: true });
  });
  afterAll(async () => {
    await m?.close();
  });
  it('answers GET /__mock/health, and refuses the rest of the control API with the reason', async () => {
    const health = await fetch(`${m.controlUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', mode: 'static' });
    const keys = await fetch(`${m.controlUrl}/keys`);
    expect(keys.status).toBe(404);
    expect((await keys.json()).error).toMatch(/run without --static/);
  });
  it("Prism's own refusals get the documented shapes: a 20 MB chunked JSON body 413 {error}, malformed JSON 400 {error, details}", async () => {
    const headers = { 'x-api-key': 'any', 'content-type': 'application/json' };
    const big = await sendChunked(`${m.url}/patients`, headers, Buffer.from('{"name":"'), 20 * 1024 * 1024);
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toEqual({ error: expect.any(String) });
    const bad = await fetch(`${m.url}/patients`, { method: 'POST', headers, body: '{"name":' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: expect.any(String), details: { body: expect.any(String) } });
  });
  it("mocks the API from the spec's examples: a key is required, any value passes, nothing is stored", async () => {
    expect((await fetch(`${m.url}/providers`)).status).toBe(401);
    const r = await fetch(`${m.url}/patients`, { headers: { 'x-api-key': 'anything' } });
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(Array.isArray(body.data)).toBe(true);
    expect(typeof body.data[0].id).toBe('string');
  });
});
