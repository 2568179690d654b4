// Pacing: a spent rate-limit window is waited out and the request resent as often as asked, within a bound; an injected
// or wanted 429 is kept; the run's pauses are logged for the checks' budgets.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Contract } from '../../spec/runtime/contract.ts';
import { Http, OversizedAnswer, RateLimitExhausted, ReadOnlyRefused, TransportError, rateLimitWait, type KeyRef } from './http.ts';
import type { ReceivedResponse } from '../../judge/define.ts';
import { startHostileServer, type HostileMode, type HostileServer } from '../testing/hostile-server.ts';
import { parseJson } from './json-text.ts';

const res429 = (headers: Record<string, string>): ReceivedResponse => ({ status: 429, headers, text: '', mediaType: 'application/json' });

describe('rateLimitWait', () => {
  it('waits only when the window is spent: Retry-After, else X-RateLimit-Reset, else 1 s doubling', () => {
    expect(rateLimitWait(res429({ 'x-ratelimit-remaining': '0', 'retry-after': '7' }))).toBe(7);
    expect(rateLimitWait(res429({ 'x-ratelimit-remaining': '0', 'retry-after': '0' }))).toBe(1);
    expect(rateLimitWait(res429({ 'x-ratelimit-remaining': '0', 'retry-after': '3600' }))).toBe(3600);
    const inTen = new Date(Date.now() + 10_000).toUTCString();
    expect(rateLimitWait(res429({ 'x-ratelimit-remaining': '0', 'retry-after': inTen }))).toBeGreaterThanOrEqual(9);
    expect(
      rateLimitWait(res429({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 4) })),
    ).toBeGreaterThanOrEqual(3);
    expect(rateLimitWait(res429({ 'x-ratelimit-remaining': '0' }), 0)).toBe(1);
    expect(rateLimitWait(res429({ 'x-ratelimit-remaining': '0' }), 2)).toBe(4);
    expect(rateLimitWait(res429({ 'x-ratelimit-remaining': '0' }), 9)).toBe(30);
    expect(rateLimitWait(res429({ 'x-ratelimit-remaining': '12', 'retry-after': '7' }))).toBeUndefined();
    expect(rateLimitWait({ ...res429({ 'x-ratelimit-remaining': '0', 'retry-after': '1' }), status: 503 })).toBeUndefined();
  });
});

describe('Http.send against a rate-limited target', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  /** Answers the first `limited` requests 429 with the given remaining count, then 200. */
  async function target(limited: number, remaining: string): Promise<string> {
    let n = 0;
    server = createServer((_req, res) => {
      const spent = n++ < limited;
      res.writeHead(spent ? 429 : 200, {
        'Content-Type': 'application/json',
        'X-RateLimit-Remaining': spent ? remaining : '9',
        ...(spent ? { 'Retry-After': '1' } : {}),
      });
      res.end(JSON.stringify(spent ? { error: 'Rate limit exceeded. Please retry after the window resets.' } : { data: [] }));
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/ext-api/v1`;
  }

  it('records each 429, pauses for Retry-After and resends as often as the target asks', async () => {
    const http = new Http(await target(2, '0'), new Contract(), { concurrency: 1, timeoutMs: 5000 });
    const t = performance.now();
    const ex = await http.send('c', { method: 'GET', path: '/providers' });
    expect(ex.response.status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(1900);
    expect(http.exchanges.map((e) => e.response.status)).toEqual([429, 429, 200]);
    expect(http.pacing.pauses).toBe(2);
    expect(http.pacing.seconds).toBeCloseTo(2, 1);
    expect(http.pausedSince(t)).toBeCloseTo(2000, -2);
    expect(http.pausedSince(performance.now())).toBe(0);
  });

  it('gives up past the patience bound, or at once when Retry-After asks for more, never returning the 429', async () => {
    const http = new Http(await target(10, '0'), new Contract(), { concurrency: 1, timeoutMs: 5000, rateLimitPatienceMs: 1500 });
    const t = performance.now();
    await expect(http.send('c', { method: 'GET', path: '/providers' })).rejects.toThrow(RateLimitExhausted);
    expect(performance.now() - t).toBeGreaterThanOrEqual(900);
    expect(performance.now() - t).toBeLessThan(1900);
    expect(http.exchanges.map((e) => e.response.status)).toEqual([429, 429]);
    await new Promise<void>((r) => server!.close(() => r()));
    const impatient = new Http(await target(1, '0'), new Contract(), { concurrency: 1, timeoutMs: 5000, rateLimitPatienceMs: 500 });
    await expect(impatient.send('c', { method: 'GET', path: '/providers' })).rejects.toThrow(/asked for 1 s more/);
  });

  it('holds further requests of the same key while its window is spent, instead of knocking', async () => {
    const http = new Http(await target(1, '0'), new Contract(), { concurrency: 2, timeoutMs: 5000 });
    const first = http.send('c', { method: 'GET', path: '/providers' });
    await new Promise((r) => setTimeout(r, 200));
    const second = await http.send('c', { method: 'GET', path: '/patients' });
    expect((await first).response.status).toBe(200);
    expect(second.response.status).toBe(200);
    // Only the first request met the spent window; the second waited for it to reopen.
    expect(http.exchanges.map((e) => `${e.request.path} ${e.response.status}`).sort()).toEqual([
      '/patients 200',
      '/providers 200',
      '/providers 429',
    ]);
    expect(http.pacing.pauses).toBe(1);
  });

  it('counts concurrent pauses of one spent window once in the paused time', async () => {
    const http = new Http(await target(3, '0'), new Contract(), { concurrency: 3, timeoutMs: 5000 });
    const all = await Promise.all([1, 2, 3].map(() => http.send('c', { method: 'GET', path: '/providers' })));
    expect(all.map((ex) => ex.response.status)).toEqual([200, 200, 200]);
    expect(http.pacing.pauses).toBe(3);
    expect(http.pacing.seconds).toBeGreaterThanOrEqual(1);
    expect(http.pacing.seconds).toBeLessThan(1.5);
  });

  it('keeps an injected 429 (window not spent) and one the check asked for', async () => {
    const http = new Http(await target(2, '5'), new Contract(), { concurrency: 1, timeoutMs: 5000 });
    expect((await http.send('c', { method: 'GET', path: '/providers' })).response.status).toBe(429);
    await new Promise<void>((r) => server!.close(() => r()));
    const http2 = new Http(await target(1, '0'), new Contract(), { concurrency: 1, timeoutMs: 5000 });
    expect((await http2.send('c', { method: 'GET', path: '/providers', acceptRateLimited: true })).response.status).toBe(429);
    expect(http.pacing.pauses + http2.pacing.pauses).toBe(0);
  });

  it('stops pausing when the run is interrupted', async () => {
    const abort = new AbortController();
    const http = new Http(await target(1, '0'), new Contract(), { concurrency: 1, timeoutMs: 5000, signal: abort.signal });
    setTimeout(() => abort.abort(), 50);
    const t = performance.now();
    await expect(http.send('c', { method: 'GET', path: '/providers' })).rejects.toThrow(TransportError);
    expect(performance.now() - t).toBeLessThan(800);
  });
});

describe('Http under --read-only', () => {
  it('refuses every POST, PATCH, PUT and DELETE before anything is sent; reads go out', async () => {
    let received = 0;
    const srv = createServer((_req, res) => {
      received++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":[]}');
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const http = new Http(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/ext-api/v1`, new Contract(), {
        concurrency: 1,
        timeoutMs: 5_000,
        readOnly: true,
      });
      for (const method of ['POST', 'patch', 'PUT', 'DELETE'])
        await expect(http.send('t', { method, path: '/patients', json: {} })).rejects.toBeInstanceOf(ReadOnlyRefused);
      expect(received).toBe(0);
      expect((await http.send('t', { method: 'GET', path: '/patients' })).response.status).toBe(200);
      expect(received).toBe(1);
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});

describe('JSON as the suite reads it', () => {
  it('keeps integers too large for a JS number as their digits, leaves everything else as JSON.parse does', () => {
    expect(
      parseJson('{"id":3563043618421525443,"s":"1234567890123456789\\"","n":12,"f":1.5e300,"neg":-9007199254740993,"a":[1,2.5]}'),
    ).toEqual({
      id: '3563043618421525443',
      s: '1234567890123456789"',
      n: 12,
      f: 1.5e300,
      neg: '-9007199254740993',
      a: [1, 2.5],
    });
  });
});

describe('Http against a hostile target', () => {
  const key: KeyRef = { role: 'main', value: 'crk_9f1c2b7a04d84e0c8a5d3e6f7b8c9d0e', envVar: 'CLINICAL_RECORDS_KEY' };
  let hostile: HostileServer | undefined;
  afterEach(async () => {
    await hostile?.close();
    hostile = undefined;
  });
  const client = async (mode: HostileMode, timeoutMs = 5_000) => {
    hostile = await startHostileServer(mode);
    return new Http(`${hostile.origin}/ext-api/v1`, new Contract(), { concurrency: 2, timeoutMs });
  };

  it('answers a redirect as it came, never following it: the second origin gets no request, no key', async () => {
    const http = await client('redirect');
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push((await http.send('c', { method: 'GET', path: '/patients', key })).response.status);
    expect(statuses).toEqual([307, 302]);
    expect(hostile!.seen).toMatchObject({ requests: 2, targetRequests: 0, keys: [] });
  });

  it('reads no answer past 10 MB: a 50 MB one (Content-Length) and an endless one fail saying so, at once', async () => {
    for (const mode of ['huge', 'endless'] as const) {
      const http = await client(mode);
      const t = performance.now();
      const err = await http.send('c', { method: 'GET', path: '/patients', key }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OversizedAnswer);
      expect((err as OversizedAnswer).message).toMatch(
        /answered 200, but its answer (of 50 MB \(Content-Length\) is )?over the 10 MB bound/,
      );
      expect([(err as OversizedAnswer).status, (err as OversizedAnswer).mediaType]).toEqual([200, 'application/json']);
      expect(performance.now() - t).toBeLessThan(4_000);
      await hostile!.close();
      hostile = undefined;
    }
  });

  it('gives up on a target that never answers after its timeout', async () => {
    const http = await client('silent', 300);
    const t = performance.now();
    await expect(http.send('c', { method: 'GET', path: '/patients', key })).rejects.toThrow(/no answer within 300 ms/);
    expect(performance.now() - t).toBeLessThan(2_000);
  });

  it('replaces a key the target echoes (body, JSON, headers) by its variable before anything reads the answer', async () => {
    const http = await client('echo-key');
    const ex = await http.send('c', { method: 'POST', path: '/patients', key, json: {} });
    expect(ex.response.status).toBe(400);
    const everything = JSON.stringify(ex.response);
    expect(everything).not.toContain(key.value.slice(4, 16));
    expect(ex.response.headers['x-echo-key']).toBe('$CLINICAL_RECORDS_KEY');
    expect((ex.response.json as { data: Array<{ id: string }> }).data[0]!.id).toBe('$CLINICAL_RECORDS_KEY');
    // A check that cuts the body at 300 characters gets no prefix of the key either.
    expect(ex.response.text.slice(0, 300)).toMatch(/e{280}\$CLINICAL/);
  });

  it("replaces the run's other keys too, even one this client has not sent yet", async () => {
    const http = await client('echo-key');
    const other: KeyRef = { role: 'otherOrg', value: 'crk_org2_5e0d1c2b3a4f5e6d7c8b9a0f', envVar: 'CLINICAL_RECORDS_OTHER_ORG_KEY' };
    http.knowKeys([key, other]);
    const ex = await http.send('c', { method: 'GET', path: '/patients', rawKey: other.value });
    expect(ex.response.headers['x-echo-key']).toBe('$CLINICAL_RECORDS_OTHER_ORG_KEY');
    expect(ex.response.text).not.toContain(other.value.slice(9, 21));
  });

  it('keeps the exchange log bounded: past its budget, exchanges are logged without their bodies', async () => {
    hostile = await startHostileServer('huge', { hugeBytes: 9 * 1024 * 1024 });
    const http = new Http(`${hostile.origin}/ext-api/v1`, new Contract(), { concurrency: 2, timeoutMs: 10_000 });
    for (let i = 0; i < 5; i++)
      expect((await http.send('c', { method: 'GET', path: '/patients' })).response.text.length).toBe(9 * 1024 * 1024);
    expect(http.exchanges.map((e) => e.response.text.length > 0)).toEqual([true, true, true, false, false]);
  });
});
