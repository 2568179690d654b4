// The browser boundary of the API: which page origins may read answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockMode, type RunningMock } from '../server.ts';
import { corsHeaders, corsPolicy, parseCorsOrigin } from './cors.ts';

describe('CORS policy', () => {
  it('allows loopback pages on any port by default, adds --cors-origin values, opens with *', () => {
    const p = corsPolicy();
    for (const o of ['http://localhost:5173', 'https://127.0.0.1:8443', 'http://[::1]:3000'])
      expect(corsHeaders(p, o)['Access-Control-Allow-Origin'], o).toBe(o);
    for (const o of ['https://evil.example', 'http://localhost.evil.example', 'null', undefined])
      expect(corsHeaders(p, o)['Access-Control-Allow-Origin']).toBeUndefined();
    expect(corsHeaders(corsPolicy(['https://app.example.test']), 'https://app.example.test')['Access-Control-Allow-Origin']).toBe(
      'https://app.example.test',
    );
    expect(corsHeaders(corsPolicy(['*']), 'https://evil.example')['Access-Control-Allow-Origin']).toBe('*');
  });
  it('reads --cors-origin values', () => {
    expect(parseCorsOrigin('https://App.Example.test:8443/')).toBe('https://app.example.test:8443');
    expect(parseCorsOrigin('*')).toBe('*');
    for (const bad of ['app.example.test', 'https://x.test/path', 'ftp://x.test', 'https://x.test?q', ''])
      expect(parseCorsOrigin(bad), bad).toBeUndefined();
  });
});

describe.each<MockMode>(['default', 'engine-only', 'static'])('CORS of the running mock, %s mode', (mode) => {
  let m: RunningMock;
  beforeAll(async () => {
    m = await startMock({ port: 0, mode, strict: mode === 'default', quiet: true, corsOrigins: ['https://app.example.test'] });
  });
  afterAll(async () => {
    await m?.close();
  });
  const get = (url: string, origin: string) => fetch(url, { headers: { origin, 'x-api-key': m.seed.keys[0]!.key } });
  const preflight = (url: string, origin: string) =>
    fetch(url, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key' },
    });

  it('a foreign page gets no CORS headers and its preflight is refused; allowed pages get theirs', async () => {
    const evil = await get(`${m.url}/patients`, 'https://evil.example');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await preflight(`${m.url}/patients`, 'https://evil.example');
    expect(pre.status).toBe(403);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect((await pre.json()).error).toMatch(/--cors-origin https:\/\/evil.example/);
    for (const origin of ['http://localhost:5173', 'https://app.example.test']) {
      expect((await get(`${m.url}/patients`, origin)).headers.get('access-control-allow-origin')).toBe(origin);
      const ok = await preflight(`${m.url}/patients`, origin);
      expect(ok.status).toBe(204);
      expect(ok.headers.get('access-control-allow-origin')).toBe(origin);
    }
  });
  it('the control API answers CORS to loopback pages only, preflight too, never to the pages --cors-origin adds', async () => {
    const r = await fetch(`${m.controlUrl}/health`, { headers: { origin: 'http://localhost:5173' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const pre = await fetch(`${m.controlUrl}/faults`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/content-type/i);
    expect(pre.headers.get('access-control-allow-methods')).toContain('DELETE');
    // Allowed for the API by --cors-origin, still refused by the control API's loopback rule.
    for (const origin of ['https://app.example.test', 'https://evil.example']) {
      const foreign = await fetch(`${m.controlUrl}/health`, { headers: { origin } });
      expect(foreign.status, origin).toBe(403);
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    }
  });
  it('the API lets a page send X-Mock-Fault-Scope', async () => {
    const pre = await fetch(`${m.url}/patients`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key,x-mock-fault-scope',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-mock-fault-scope');
  });
});
