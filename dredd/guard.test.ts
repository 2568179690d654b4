// The Guard every request of a Dredd run goes through, against small loopback servers: a redirect comes back as it
// came (the key never reaches the Location), one deadline per exchange, answers read up to the bound, keys redacted
// from answers (bytes and headers), and after three silent exchanges in a row nothing more is sent. Plus Dredd
// itself: its request layer is the Guard once installed.
import { createServer, type RequestListener } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serveOnLoopback } from '../conformance/testing/broken-proxy.ts';
import { type ExchangeError, Guard } from './guard.ts';

const KEY = 'crk_all_0123456789abcdef01234567';
const servers: Array<{ close(): Promise<void> }> = [];

async function serve(handler: RequestListener): Promise<string> {
  const s = await serveOnLoopback(createServer({ requestTimeout: 0 }, handler));
  servers.push(s);
  return s.origin;
}

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as ExchangeError,
  );

describe('Guard', () => {
  it('answers a redirect as it came: the Location is never asked, so the key never travels there', async () => {
    const seenAtTarget: string[] = [];
    const target = await serve((req, res) => {
      seenAtTarget.push(String(req.headers['x-api-key']));
      res.end('{}');
    });
    const origin = await serve((_req, res) => res.writeHead(307, { Location: `${target}/elsewhere` }).end());
    const a = await new Guard().send({ method: 'GET', url: `${origin}/x`, headers: { 'X-API-Key': KEY } });
    expect(a.status).toBe(307);
    expect(a.headers.location).toBe(`${target}/elsewhere`);
    expect(seenAtTarget).toEqual([]);
  });

  it('ends an exchange at its deadline, whether the server is silent or drips its answer', async () => {
    const silent = await serve(() => undefined);
    const drip = await serve((_req, res) => {
      res.writeHead(200);
      const t = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(t));
    });
    const guard = new Guard({ timeoutMs: 300 });
    for (const origin of [silent, drip]) {
      const t0 = performance.now();
      const e = await failure(guard.send({ method: 'GET', url: origin }));
      expect(e?.kind).toBe('timeout');
      expect(e?.message).toBe('no complete answer within 300 ms (per-request timeout)');
      expect(performance.now() - t0).toBeLessThan(5000);
    }
  });

  it('reads an answer up to the bound: a declared or a streamed larger one fails, saying so', async () => {
    const declared = await serve((_req, res) => res.writeHead(200, { 'Content-Length': String(50 * 1024 * 1024) }).write('x'));
    const endless = await serve((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    const guard = new Guard({ maxAnswerBytes: 1024 * 1024 });
    expect((await failure(guard.send({ method: 'GET', url: declared })))?.message).toBe(
      'the answer (Content-Length 52428800) is larger than 1 MB: not read further',
    );
    expect((await failure(guard.send({ method: 'GET', url: endless })))?.message).toBe('the answer is larger than 1 MB: not read further');
    const fits = await serve((_req, res) => res.end(Buffer.alloc(1024 * 1024, 'y')));
    expect((await guard.send({ method: 'GET', url: fits })).body.length).toBe(1024 * 1024);
  });

  it('redacts every key it sent from the answer, in the body (even when not UTF-8) and in headers', async () => {
    const echo = await serve((req, res) => {
      const key = String(req.headers['x-api-key']);
      res.writeHead(200, { 'X-Echo': `key=${key}` }).end(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${key}|${key}`)]));
    });
    const guard = new Guard();
    const a = await guard.send({ method: 'GET', url: echo, headers: { 'X-API-Key': KEY } });
    expect(a.headers['x-echo']).toBe('key=$CLINICAL_RECORDS_KEY');
    expect(a.body.subarray(2).toString()).toBe('$CLINICAL_RECORDS_KEY|$CLINICAL_RECORDS_KEY');
    expect(a.body.includes(Buffer.from(KEY))).toBe(false);
  });

  it('after three exchanges in a row without an answer, sends nothing more, saying why', async () => {
    let requests = 0;
    const silent = await serve(() => void requests++);
    // A deadline by which a loaded machine's server has always seen the request (at 100 ms the third once timed out
    // before the server's handler ran).
    const guard = new Guard({ timeoutMs: 1000 });
    for (let i = 0; i < 3; i++) expect((await failure(guard.send({ method: 'GET', url: silent })))?.kind).toBe('timeout');
    expect(guard.stopped()).toBe('the server stopped answering (3 requests in a row without an answer within 1000 ms)');
    const e = await failure(guard.send({ method: 'GET', url: silent }));
    expect(e?.kind).toBe('stopped');
    expect(requests).toBe(3);
  });

  it('an answer between silences starts the count again', async () => {
    let n = 0;
    const flaky = await serve((_req, res) => void (n++ % 3 === 2 && res.end('ok')));
    // A deadline a loaded machine's immediate answer always meets (100 ms was missed once in CI under load).
    const guard = new Guard({ timeoutMs: 1000 });
    for (let i = 0; i < 6; i++) await guard.send({ method: 'GET', url: flaky }).catch(() => undefined);
    expect(guard.stopped()).toBeUndefined();
  });
});
