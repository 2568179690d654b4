// GET /__mock/requests with the journal full of the probe's worst case (issue 32): 500 API requests whose query holds
// a 15 KB key-like word. Redaction was quadratic (five such entries took 4.05 s to read, health waited 3.05 s), and so
// was a long path filter (V8's indexOf past 250 characters). Now the read is linear, written and sent in slices, and
// health answers between them. The bounds are loose (a loaded 2-core host): bench/journal-worst.ts has the figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShownEntry } from '../../platform/journal-entry.ts';
import { REDACTED } from '../../platform/redact.ts';
import { startMock, type RunningMock } from '../../server.ts';

const ENTRIES = 500;
const WORD = `ab_${'a'.repeat(15_000)}_`;

describe('the request journal read back with 500 worst-case entries', () => {
  let m: RunningMock;
  beforeAll(async () => {
    m = await startMock({ port: 0, quiet: true, rateLimit: { requests: 100_000, seconds: 60 } });
    const key = m.keys.find((k) => k.label === 'all')!.key;
    const send = (query: string) => fetch(`${m.url}/patients?${query}`, { headers: { 'x-api-key': key } }).then((r) => r.arrayBuffer());
    await send(`secret=tok_${'9'.repeat(40)}`); // a key-like word: the oldest entry, redacted when shown
    for (let sent = 1; sent < ENTRIES; sent += 20)
      await Promise.all(Array.from({ length: Math.min(20, ENTRIES - sent) }, () => send(`${WORD}=1`)));
  }, 120_000);
  afterAll(async () => {
    await m?.close();
  });

  it('answers in well under a second while /__mock/health keeps answering', async () => {
    const health: number[] = [];
    let reading = true;
    const probes = (async () => {
      while (reading) {
        const t = performance.now();
        await (await fetch(`${m.controlUrl}/health`)).arrayBuffer();
        health.push(performance.now() - t);
      }
    })();
    const started = performance.now();
    const r = await fetch(`${m.controlUrl}/requests?limit=${ENTRIES}`);
    const body = (await r.json()) as { data: ShownEntry[]; meta: { kept: number } };
    const took = performance.now() - started;
    reading = false;
    await probes;
    expect(r.status).toBe(200);
    expect(body.data).toHaveLength(ENTRIES);
    expect(body.meta.kept).toBe(ENTRIES);
    expect(body.data[0]!.query).toBe(`${WORD}=1`); // not a key's shape: shown as sent
    expect(body.data[ENTRIES - 1]!.query).toBe(`secret=${REDACTED}`);
    // About 100 ms and health under 50 ms here; quadratic redaction took some 200 s for this read.
    expect(took).toBeLessThan(2_000);
    expect(Math.max(...health)).toBeLessThan(1_000);
  });

  it('filters long paths by a long pattern in linear time', async () => {
    // indexOf reads such a path back and forth: about 10 ms a path here (2 s for these 200), where this filter scans once.
    const key = m.keys.find((k) => k.label === 'all')!.key;
    const long = `/patients/${'a'.repeat(14_000)}`;
    for (let i = 0; i < 200; i += 20)
      await Promise.all(
        Array.from({ length: 20 }, async () => (await fetch(`${m.url}${long}`, { headers: { 'x-api-key': key } })).arrayBuffer()),
      );
    const started = performance.now();
    const r = await fetch(`${m.controlUrl}/requests?limit=${ENTRIES}&path=${'a'.repeat(1_000)}b${'a'.repeat(999)}`);
    expect(((await r.json()) as { data: unknown[] }).data).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1_000);
    const found = (await (await fetch(`${m.controlUrl}/requests?limit=${ENTRIES}&path=${'a'.repeat(2_000)}`)).json()) as {
      data: unknown[];
    };
    expect(found.data).toHaveLength(200);
  });
});
