// Network faults over HTTP, as a client meets them (node's fetch and a raw socket), in both engine modes: latency
// (fixed, a range, --latency), timeout (nothing until the client gives up; closed after the hold), drop (closed with
// no response), reset (status, headers, half the body, then ECONNRESET), malformed (a 200 whose JSON does not
// parse); each aimed by method, path and scope like `http`, and counted.
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockMode, type RunningMock, startMock } from '../server.ts';

/** Bytes a raw GET received before the connection ended, and how it ended. */
interface RawOutcome {
  bytes: string;
  ended: 'closed' | 'reset' | 'gave up';
  ms: number;
}

function rawGet(m: RunningMock, path: string, key: string, giveUpMs = 5_000): Promise<RawOutcome> {
  const url = new URL(`${m.url}${path}`);
  return new Promise((resolve) => {
    const t0 = performance.now();
    const socket = net.connect(Number(url.port), url.hostname);
    let bytes = '';
    let ended: RawOutcome['ended'] = 'closed';
    const timer = setTimeout(() => ((ended = 'gave up'), socket.destroy()), giveUpMs);
    socket.on('data', (c) => (bytes += c.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => void (ended = e.code === 'ECONNRESET' ? 'reset' : ended));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ bytes, ended, ms: performance.now() - t0 });
    });
    socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nX-API-Key: ${key}\r\n\r\n`);
  });
}

describe.each<MockMode>(['engine-only', 'default'])('network faults over HTTP (%s)', (mode) => {
  let m: RunningMock;
  const key = () => m.keys[0]!.key;
  const arm = async (body: object) => {
    const r = await fetch(`${m.controlUrl}/faults`, { method: 'POST', body: JSON.stringify(body) });
    expect(r.status, await r.clone().text()).toBe(201);
    return (await r.json()).data;
  };
  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${m.url}${path}`, { ...init, headers: { 'x-api-key': key(), ...(init.headers as Record<string, string>) } });

  // Prism judges no fault's answer: with --strict a malformed body would otherwise be a 500.
  const violations: string[] = [];
  beforeAll(async () => {
    m = await startMock({ port: 0, mode, quiet: true, strict: mode === 'default', onViolation: (l) => violations.push(l) });
  });
  afterAll(async () => {
    await m?.close();
    expect(violations).toEqual([]);
  });
  beforeEach(() => fetch(`${m.controlUrl}/faults`, { method: 'DELETE' }));

  it('latency: a fixed delay, then the answer; a range draws within it', async () => {
    await arm({ kind: 'latency', ms: 300, path: '/providers' });
    let t0 = performance.now();
    const r = await get('/providers');
    expect(r.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    await r.arrayBuffer();
    await arm({ kind: 'latency', ms: [150, 250], method: 'GET', path: '/providers' });
    t0 = performance.now();
    expect((await get('/providers')).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    expect((await get('/providers')).status).toBe(200);
    // Count 1: spent, so the second request met no fault. Its journal entry says so; a bound on its time would measure
    // the host's scheduler (three test workers on two cores).
    const [second, first] = ((await (await fetch(`${m.controlUrl}/requests?limit=2`)).json()) as { data: Array<{ fault?: unknown }> }).data;
    expect(first!.fault).toMatchObject({ kind: 'latency' });
    expect(second!.fault ?? null).toBeNull();
  });

  it('timeout: nothing arrives until the client gives up; with ms the connection is closed after it, still silent', async () => {
    await arm({ kind: 'timeout', path: '/patients' });
    const t0 = performance.now();
    const err = await get('/patients', { signal: AbortSignal.timeout(400) }).catch((e: Error) => e);
    expect((err as Error).name).toBe('TimeoutError');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(390);
    await arm({ kind: 'timeout', ms: 300, path: '/patients' });
    const raw = await rawGet(m, '/patients', key());
    expect(raw).toMatchObject({ bytes: '', ended: 'closed' });
    expect(raw.ms).toBeGreaterThanOrEqual(290);
  });

  it('drop: the connection closes with no response; fetch rejects as on a network failure', async () => {
    await arm({ kind: 'drop', method: 'GET', path: '/providers/*', count: 2 });
    const err = await get(`/providers/${crypto.randomUUID()}`).catch((e: Error) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(String((err as Error & { cause?: Error }).cause)).toMatch(/other side closed|socket hang up|ECONNRESET/);
    expect(await rawGet(m, `/providers/${crypto.randomUUID()}`, key())).toMatchObject({ bytes: '', ended: 'closed' });
    expect((await get('/providers')).status).toBe(200); // aimed at /providers/* only
  });

  it('reset: the status and headers arrive, the body stops half way with a TCP reset', async () => {
    await arm({ kind: 'reset', path: '/patients', count: 2 });
    const r = await get('/patients');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-mock-fault')).toBe('reset');
    const declared = Number(r.headers.get('content-length'));
    const err = await r.text().catch((e: Error) => e);
    expect(err).toBeInstanceOf(TypeError);
    const raw = await rawGet(m, '/patients', key());
    expect(raw.ended).toBe('reset');
    expect(raw.bytes).toMatch(/^HTTP\/1\.1 200 /);
    const body = raw.bytes.slice(raw.bytes.indexOf('\r\n\r\n') + 4);
    expect(body.length).toBe(Math.floor(declared / 2));
    expect(body.startsWith('{"data":[')).toBe(true);
  });

  it('malformed: a complete 200 whose JSON body is cut short', async () => {
    await arm({ kind: 'malformed', path: '/patients' });
    const r = await get('/patients?limit=3');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    const text = await r.text();
    expect(text.startsWith('{"data":[')).toBe(true);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect((await get('/patients?limit=3')).status).toBe(200);
  });

  it('a scoped fault reaches only its scope; an unarmed request is untouched', async () => {
    await arm({ kind: 'drop', scope: 'mine' });
    expect((await get('/providers')).status).toBe(200);
    const err = await get('/providers', { headers: { 'x-mock-fault-scope': 'mine' } }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((await (await fetch(`${m.controlUrl}/faults`)).json()).data).toEqual([]);
  });

  it("each fault reads as what it did in the journal and the HAR, with the key's label and the client's wait", async () => {
    await fetch(`${m.controlUrl}/requests`, { method: 'DELETE' });
    const label = m.keys[0]!.label;
    await arm({ kind: 'drop', path: '/providers' });
    await get('/providers').catch(() => undefined);
    await arm({ kind: 'timeout', ms: 300, path: '/patients' });
    await rawGet(m, '/patients', key());
    await arm({ kind: 'reset', path: '/patients' });
    await (await get('/patients')).text().catch(() => undefined);
    await arm({ kind: 'malformed', path: '/providers' });
    await (await get('/providers')).text();
    await arm({ kind: 'latency', ms: 120, path: '/providers' });
    await (await get('/providers')).text();
    const entries = ((await (await fetch(`${m.controlUrl}/requests`)).json()) as { data: Array<Record<string, unknown>> }).data;
    const seen = entries.reverse().map((e) => ({ fault: e.fault, key: e.key, status: e.status }));
    expect(seen).toEqual([
      { fault: { kind: 'drop', effect: 'dropped' }, key: label, status: 502 },
      { fault: { kind: 'timeout', effect: 'timed out after 300 ms' }, key: label, status: 504 },
      { fault: { kind: 'reset', effect: 'reset mid-answer' }, key: label, status: 200 },
      { fault: { kind: 'malformed', effect: 'malformed body' }, key: label, status: 200 },
      { fault: { kind: 'latency', effect: expect.stringMatching(/^delayed 120 ms$/) }, key: label, status: 200 },
    ]);
    expect(entries[1]!.duration_ms).toBe(300);
    expect(entries[4]!.duration_ms).toBeGreaterThanOrEqual(118);
    const har = (await (await fetch(`${m.controlUrl}/requests.har`)).json()) as {
      log: { entries: Array<{ response: { status: number }; _fault?: string; _error?: string; _answered?: number; time: number }> };
    };
    const [drop, timeout, reset] = har.log.entries;
    expect(drop).toMatchObject({ response: { status: 0 }, _fault: 'dropped', _error: 'dropped' });
    expect(drop).not.toHaveProperty('_answered');
    expect(timeout).toMatchObject({ response: { status: 0 }, _fault: 'timed out after 300 ms', time: 300 });
    expect(reset).toMatchObject({ response: { status: 200 }, _fault: 'reset mid-answer' });
    expect(reset).not.toHaveProperty('_error');
  });

  it('a timeout the client gives up on reads as such in the journal, with how long the client really waited', async () => {
    await fetch(`${m.controlUrl}/requests`, { method: 'DELETE' });
    await arm({ kind: 'timeout', path: '/patients' }); // held up to 120 s
    await get('/patients', { signal: AbortSignal.timeout(300) }).catch(() => undefined);
    const latest = async () =>
      (
        (await (await fetch(`${m.controlUrl}/requests?limit=1`)).json()) as {
          data: Array<{ duration_ms: number; fault: { effect: string } }>;
        }
      ).data[0]!;
    await expect
      .poll(async () => (await latest()).fault.effect, { timeout: 5_000 })
      .toMatch(/^timed out: the client gave up after \d+ ms$/);
    const e = await latest();
    expect(e.duration_ms).toBeGreaterThanOrEqual(250);
    expect(e.duration_ms).toBeLessThan(5_000);
  });

  it('bad network faults are 400 with details', async () => {
    const post = (body: object) => fetch(`${m.controlUrl}/faults`, { method: 'POST', body: JSON.stringify(body) });
    const bad = async (body: object) => (await (await post(body)).json()).details;
    expect(await bad({ kind: 'latency' })).toHaveProperty('ms');
    expect(await bad({ kind: 'latency', ms: [500, 100] })).toHaveProperty('ms');
    expect(await bad({ kind: 'latency', ms: 120_001 })).toHaveProperty('ms');
    expect(await bad({ kind: 'timeout', ms: 0 })).toHaveProperty('ms');
    expect(await bad({ kind: 'drop', ms: 5 })).toEqual({ ms: 'unknown field' });
    expect(await bad({ kind: 'reset', path: 'patients' })).toHaveProperty('path');
    expect(await bad({ kind: 'http', path: '/x', status: 500 })).toHaveProperty('method');
  });
});

describe('--latency', () => {
  it('delays every API answer, refusals included, and not the control API', async () => {
    // A gap between the delay and the bound on the undelayed answer that a loaded host's scheduling does not close.
    const m = await startMock({ port: 0, mode: 'engine-only', quiet: true, latency: [600, 700] });
    try {
      let t0 = performance.now();
      expect((await fetch(`${m.url}/providers`)).status).toBe(401);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(590);
      t0 = performance.now();
      expect((await fetch(`${m.controlUrl}/health`)).status).toBe(200);
      expect(performance.now() - t0).toBeLessThan(500);
    } finally {
      await m.close();
    }
  });
});
