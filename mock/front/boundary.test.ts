// The control API's boundary in every mode, seen from the public socket: a non-loopback peer (injected into the
// front: the test's connections are loopback) cannot reach /__mock by dot segments, their percent-encoded forms or
// an absolute-form target, nor by forging the peer header; a loopback peer with a foreign Host (DNS rebinding) or a
// foreign page's Origin is refused too. Normalized targets reach the same place from loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PEER_HEADER } from '../platform/loopback.ts';
import { startMock, type MockMode, type RunningMock } from '../server.ts';
import { rawGet, rawRequest } from '../testing/raw-http.ts';

const REMOTE = '203.0.113.9'; // TEST-NET-3: another machine

const TRAVERSALS = [
  '/__mock/keys',
  '/ext-api/v1/../../__mock/keys',
  '/ext-api/v1/%2e%2e/%2E%2e/__mock/keys',
  '/ext-api/v1/.%2e/.%2E/__mock/keys',
  '/ext-api/v1/..\\..\\__mock/keys',
  '/ext-api/v1/patients/../../../__mock/reset',
];

describe.each<MockMode>(['default', 'engine-only', 'static'])('control API boundary, %s mode', (mode) => {
  let m: RunningMock;
  let peer = REMOTE;
  let port: number;
  let host: string;
  beforeAll(async () => {
    m = await startMock({ port: 0, mode, strict: mode === 'default', quiet: true, peerOf: () => peer });
    port = Number(new URL(m.url).port);
    host = `127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await m?.close();
  });
  const send = (target: string, extra: string[] = [], h = host) => rawRequest(port, rawGet(target, h, extra));

  it('refuses a non-loopback peer whatever the target spells, absolute-form included, and a forged peer header', async () => {
    peer = REMOTE;
    const targets = [...TRAVERSALS, `http://${host}/__mock/keys`, `http://${host}/ext-api/v1/../../__mock/keys`];
    for (const target of targets) {
      for (const extra of [[], [`${PEER_HEADER}: 127.0.0.1`]]) {
        const r = await send(target, extra);
        expect(r.status, `${target} ${extra.join()}`).toBe(403);
        expect(r.json, target).toEqual({ error: 'The control API answers loopback clients only' });
        expect(r.body).not.toContain('crk_');
        expect(r.headers['access-control-allow-origin']).toBeUndefined();
      }
    }
  });

  it('normalizes before deciding: from loopback the same targets reach the control API', async () => {
    peer = '127.0.0.1';
    const r = await send('/ext-api/v1/%2e%2e/%2e%2e/__mock/health');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'ok' });
    expect((await send(`http://${host}/ext-api/v1/../../__mock/health`)).status).toBe(200);
    // An absolute-form target whose authority is not the Host header is ambiguous: refused.
    const mismatch = await send('http://127.0.0.1:1/__mock/health');
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.details).toHaveProperty('target');
    expect((await send('*')).status).toBe(400);
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign page, even from loopback; loopback names pass', async () => {
    peer = '127.0.0.1';
    for (const h of [`evil.example:${port}`, `127.0.0.1.nip.io:${port}`, `localhost.evil.example:${port}`]) {
      const r = await send('/__mock/health', [], h);
      expect(r.status, h).toBe(403);
      expect(r.json.error, h).toMatch(/Host/);
    }
    expect((await send('/__mock/health', [], '')).json).toEqual({ error: 'Bad Host header', details: { host: 'is required' } });
    for (const h of [`localhost:${port}`, `[::1]:${port}`, `127.8.9.10:${port}`, 'localhost'])
      expect((await send('/__mock/health', [], h)).status, h).toBe(200);
    const page = await send('/__mock/health', ['Origin: https://evil.example']);
    expect(page.status).toBe(403);
    expect(page.json.error).toMatch(/other origins/);
    const local = await send('/__mock/health', ['Origin: http://localhost:5173']);
    expect(local.status).toBe(200);
    // A loopback page may read it (a dev server's page arms its own faults); the foreign one above got no CORS headers.
    expect(local.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the engine behind the default front sees the real peer', () => {
  let m: RunningMock;
  let peer = '198.51.100.1';
  beforeAll(async () => {
    m = await startMock({ port: 0, quiet: true, strict: true, peerOf: () => peer, rateLimit: { requests: 3, seconds: 60 } });
  });
  afterAll(async () => {
    await m?.close();
  });
  it('counts keyless and wrong-key requests per client address, whatever peer header the client sends', async () => {
    const get = (key: string, extra: Record<string, string> = {}) =>
      fetch(`${m.url}/providers`, { headers: { 'x-api-key': key, ...extra } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await get(`crk_guess_${i}`, { [PEER_HEADER]: `10.0.0.${i}` })).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const limited = await get('crk_guess_x');
    expect(await limited.json()).toEqual({ error: 'Rate limit exceeded. Please retry after the window resets.' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another client's bucket is its own; an active key has its own too.
    peer = '198.51.100.2';
    expect((await get('crk_guess_y')).status).toBe(401);
    peer = '198.51.100.1';
    expect((await get(m.seed.keys[0]!.key)).status).toBe(200);
  });
});
