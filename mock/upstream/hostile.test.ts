// --upstream in front of a hostile upstream on loopback: an endless answer, decompression bombs (gzip, brotli,
// deflate), a body at one byte a tick, an X-Mock-Fault of its own, escape sequences, and a client that goes. The
// proxy cuts each off or passes it unjudged, says so, and stays bounded: the mock's RSS under 500 MB and its health
// answering throughout (the upstream runs in a process of its own: mock/testing/hostile-upstream.ts). Each case's
// traffic is bounded and short; the figures per case, against an idle mock polled alike: bench/upstream-hostile.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../server.ts';

/** The hostile upstream's process (mock/testing/hostile-upstream.ts), once it printed its origin. */
async function startHostile(): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/testing/hostile-upstream.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the hostile upstream did not start within 20 s')), 20_000);
    child.stdout!.once('data', (d: Buffer) => {
      clearTimeout(timer);
      resolve(d.toString().trim());
    });
  });
  return { child, origin };
}

let upstream: { child: ChildProcess; origin: string };
let m: RunningMock;
const lines: string[] = [];
const healthMs: number[] = [];
let peakRss = 0;
let watching: ReturnType<typeof setInterval>;

beforeAll(async () => {
  upstream = await startHostile();
  m = await startMock({
    upstream: `${upstream.origin}/ext-api/v1`,
    port: 0,
    quiet: true,
    onExchange: (l) => lines.push(l),
    upstreamLimits: { timeoutMs: 1500, maxBytes: 32 * 1024 * 1024 },
  });
  // The health check and the RSS, every 50 ms while the cases run.
  watching = setInterval(async () => {
    const t = performance.now();
    await fetch(`${m.controlUrl}/health`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    healthMs.push(performance.now() - t);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 50);
});
afterAll(async () => {
  clearInterval(watching);
  await m?.close();
  upstream?.child.kill();
});

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${m.url}${path}`, { headers: { 'x-api-key': 'k' }, signal: AbortSignal.timeout(10_000), ...init });
const journal = async () => (await (await fetch(`${m.controlUrl}/requests?limit=1`)).json()).data[0];

describe('--upstream against a hostile upstream', () => {
  it('cuts an endless answer off at its cap with a 502 naming it', async () => {
    const r = await call('/endless');
    expect(r.status).toBe(502);
    expect((await r.json()).error).toMatch(/larger than 32 MB: cut off/);
  });

  it('cuts an answer declaring more than the cap off at once, before waiting for its body', async () => {
    const r = await call('/declared');
    expect(r.status).toBe(502);
    expect((await r.json()).error).toMatch(/larger than 32 MB: cut off/); // not "no whole answer within 1.5 s"
  });

  it('passes a decompression bomb on still compressed, unjudged and said so (gzip, brotli, deflate)', async () => {
    for (const kind of ['gzip', 'br', 'deflate'] as const) {
      const r = await call(`/bomb-${kind}`, { headers: { 'x-api-key': 'k', 'accept-encoding': kind } });
      expect(r.status).toBe(200);
      await r.body?.cancel();
      expect((await journal()).not_judged).toMatch(new RegExp(`body not judged: a ${kind} body decoding past 2 MB`));
    }
  });

  it('passes a body past what the judge reads on, kept in the journal, judged on its status and headers only', async () => {
    for (const [encoding, why] of [
      ['identity', 'a body of 1.8 MB'],
      ['gzip', 'a gzip body of 1.8 MB decoded'],
    ]) {
      const r = await call('/patients?invalid', { headers: { 'x-api-key': 'k', 'accept-encoding': encoding! } });
      expect(r.status).toBe(200);
      expect((await r.json()).data).toHaveLength(3300);
      const entry = await journal();
      expect(entry.not_judged).toBe(`body not judged: ${why}, past the judge's 256 KB`);
      expect(entry.violations ?? []).toEqual([]); // each record breaks a rule: judged, it would have violations
      expect([entry.response.body.slice(0, 9), entry.response.truncated]).toEqual(['{"data":[', true]);
    }
  });

  it('keeps the first 4 KB of a 31 MB error answer in the journal, read once', async () => {
    const r = await call('/huge-error');
    expect([r.status, (await r.arrayBuffer()).byteLength]).toEqual([500, 31 * 1024 * 1024]);
    const entry = await journal();
    expect([entry.status, entry.error]).toEqual([500, 'a'.repeat(4096)]);
  });

  it("bounds a whole answer's time, not only its silence", async () => {
    const t = performance.now();
    const r = await call('/drip');
    expect(r.status).toBe(502);
    expect((await r.json()).error).toMatch(/no whole answer within 1.5 s/);
    expect(performance.now() - t).toBeLessThan(4000);
  });

  it("ignores the upstream's X-Mock-Fault and escapes control characters in the terminal line", async () => {
    const r = await call('/providers');
    expect([r.status, await r.text()]).toEqual([200, '{"data":[],"meta":{}}']);
    expect(r.headers.get('x-mock-fault')).toBeNull();
    await (await call('/patients/%1b%5b2J%07')).text();
    const line = lines.at(-1)!;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding raw control characters is the point
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(line).toContain('\\u001b[2J\\u0007');
  });

  it('cancels the upstream request when its client goes', async () => {
    const closed = async () => Number(await (await fetch(`${upstream.origin}/closed`)).text());
    const before = await closed();
    await expect(call('/hang', { signal: AbortSignal.timeout(200) })).rejects.toThrow();
    await expect.poll(closed, { timeout: 1000 }).toBe(before + 1);
  });

  it('stayed bounded throughout: RSS under 500 MB, health within 100 ms', () => {
    expect(peakRss).toBeGreaterThan(0);
    expect(peakRss / 1024 / 1024).toBeLessThan(500);
    // Run alone at a load average of 10 on this 2-core host, the worst check took 58 to 87 ms (an unbounded bomb held
    // it 4.1 s); beside other test files (Chromium among them) a few took up to 200 ms: the median within 100 ms, none
    // past a second. Not each within 100 ms: five runs at a load of 8 to 9 had a worst check of 40 to 223 ms (during
    // the 32 MB endless answer and the bombs, the upstream process pumping beside), and an idle mock polled the same
    // way at that load had 29 to 59 ms: a per-check bound here would measure the host's scheduler. The per-check
    // figures are bench/upstream-hostile.ts's (the mock as the command, an idle one polled at the same ticks): two runs
    // at a load of 4 to 6 had a worst check of 182 and 340 ms, the idle mock's 237 and 203 ms, every case's median
    // within 9 ms, peak RSS 338 MB (before the judge's 256 KB and the journal's own copies: 2.1 s and 641 MB).
    const sorted = [...healthMs].sort((a, b) => a - b);
    expect(sorted.length).toBeGreaterThan(20);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(100);
    expect(sorted.at(-1)).toBeLessThan(1000);
  });
});
