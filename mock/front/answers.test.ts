// Every answer the mock gives is documented JSON with the rate-limit headers, also where the request never reaches a
// route: a chunked body past every limit (413, not a reset connection), requests Node's parser refuses (431, bad
// Content-Length, Content-Length with Transfer-Encoding, unknown method), and a bad request target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockMode, type RunningMock } from '../server.ts';
import { rawRequest, sendChunked } from '../testing/raw-http.ts';

const expectRateLimitHeaders = (h: Record<string, string | string[] | undefined>) => {
  expect(Number(h['x-ratelimit-limit'])).toBeGreaterThan(0);
  expect(String(h['x-ratelimit-remaining'])).toMatch(/^\d+$/);
  expect(String(h['x-ratelimit-reset'])).toMatch(/^\d+$/);
};

describe.each<[MockMode, boolean]>([
  ['default', true],
  ['engine-only', false],
])('answers outside the routes, %s mode', (mode, strict) => {
  let m: RunningMock;
  let port: number;
  const violations: string[] = [];
  beforeAll(async () => {
    m = await startMock({ port: 0, mode, strict, quiet: true, onViolation: (l) => violations.push(l) });
    port = Number(new URL(m.url).port);
  });
  afterAll(async () => {
    await m?.close();
    expect(violations).toEqual([]);
  });
  const key = () => m.seed.keys[0]!.key;
  const patient = () =>
    (m.seed.patients as Array<{ id: string; organization_id: string }>).find((p) => p.organization_id === m.seed.organizations[0]!.id)!.id;

  it('ERR-014 a 20 MB JSON body sent chunked, without Content-Length, answers 413 {error} with the rate-limit headers', async () => {
    const r = await sendChunked(
      `${m.url}/patients`,
      { 'x-api-key': key(), 'content-type': 'application/json' },
      Buffer.from('{"name":"'),
      20 * 1024 * 1024,
    );
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toEqual({ error: expect.any(String) });
    expectRateLimitHeaders(r.headers);
  });

  it('a 12 MB multipart upload sent chunked answers 413 {error}', async () => {
    const boundary = 'xBOUNDARYx';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
    const r = await sendChunked(
      `${m.url}/patients/${patient()}/documents`,
      { 'x-api-key': key(), 'content-type': `multipart/form-data; boundary=${boundary}` },
      head,
      12 * 1024 * 1024,
    );
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toEqual({ error: expect.any(String) });
    expectRateLimitHeaders(r.headers);
  });

  it("requests Node's parser refuses answer JSON with the rate-limit headers", async () => {
    const cases: Array<[string, string, number]> = [
      ['headers too large', `GET /ext-api/v1/patients HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['bad Content-Length', 'POST /ext-api/v1/patients HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400],
      [
        'Content-Length with Transfer-Encoding',
        'POST /ext-api/v1/patients HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        400,
      ],
      ['unknown method', 'BREW /ext-api/v1/patients HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['no Host', 'GET /ext-api/v1/patients HTTP/1.1\r\nConnection: close\r\n\r\n', 400],
      ['a Host that is no host name', 'GET /ext-api/v1/patients HTTP/1.1\r\nHost: a/b@c\r\nConnection: close\r\n\r\n', 400],
      ['CONNECT', 'CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n', 400],
      ['HTTP/1.0 without Host (the local address stands in)', 'GET /ext-api/v1/patients HTTP/1.0\r\n\r\n', 401],
    ];
    for (const [what, bytes, status] of cases) {
      const r = await rawRequest(port, bytes);
      expect(r.status, what).toBe(status);
      expect(r.json, what).toEqual(
        status === 400 ? { error: expect.any(String), details: expect.any(Object) } : { error: expect.any(String) },
      );
      expect(r.headers['content-type'], what).toMatch(/^application\/json/);
      expectRateLimitHeaders(r.headers);
    }
  });

  it('a request target that is not a path answers 400 {error, details}', async () => {
    const r = await rawRequest(port, 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: expect.any(String), details: { target: expect.any(String) } });
    expectRateLimitHeaders(r.headers);
  });

  it('PAG-007 a page number past 2^53-1 is 400 naming page (no other page is answered instead)', async () => {
    const r = await fetch(`${m.url}/patients?page=99999999999999999999`, { headers: { 'x-api-key': key() } });
    expect(r.status).toBe(400);
    expect((await r.json()).details).toHaveProperty('page');
    const max = await fetch(`${m.url}/patients?page=${Number.MAX_SAFE_INTEGER}`, { headers: { 'x-api-key': key() } });
    expect(max.status).toBe(200);
    expect((await max.json()).meta.page).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('control: a fault with count null lasts until cleared; omitted count means once', async () => {
    const arm = await fetch(`${m.controlUrl}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'rate-limited', count: null }) });
    expect(arm.status).toBe(201);
    expect((await arm.json()).data.count).toBeNull();
    for (let i = 0; i < 3; i++) expect((await fetch(`${m.url}/providers`, { headers: { 'x-api-key': key() } })).status).toBe(429);
    await fetch(`${m.controlUrl}/faults`, { method: 'DELETE' });
    expect((await fetch(`${m.url}/providers`, { headers: { 'x-api-key': key() } })).status).toBe(200);
    const once = await fetch(`${m.controlUrl}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'rate-limited' }) });
    expect((await once.json()).data.count).toBe(1);
    await fetch(`${m.controlUrl}/faults`, { method: 'DELETE' });
  });
});
