// The mock's own HAR judged by `conformance --har`: after the README's calls (its curl lines, the refusals of its
// step 3 a client makes on purpose, its faults) against the default mock, the file passes: what the journal did not
// keep (a success's body) is not judged, and the headers it keeps (the request's, the key masked; the answer's) are.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harReport } from '../../../conformance/testing/har-report.ts';
import { startMock, type RunningMock } from '../../server.ts';

const dir = mkdtempSync(join(tmpdir(), 'har-judged-'));
let m: RunningMock;
beforeAll(async () => {
  m = await startMock({ port: 0, quiet: true });
});
afterAll(async () => {
  await m?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the mock's HAR after the README's calls", () => {
  it('is judged clean by conformance --har (exit 0), keys masked in its request headers', async () => {
    const key = (label: string) => m.keys.find((k) => k.label === label)!.key;
    const send = (path: string, k: string, init: RequestInit = {}) =>
      fetch(`${m.url}${path}`, { ...init, headers: { 'X-API-Key': k, ...(init.headers as Record<string, string>) } });
    const json = { 'Content-Type': 'application/json' };
    const ada = JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace', external_id: `my-${Date.now()}` });
    // Step 2's curl lines, then step 3's refusals a client makes on purpose with a key, then step 4's faults.
    expect((await send('/patients', key('all'))).status).toBe(200);
    expect((await send('/patients', key('all'), { method: 'POST', headers: json, body: ada })).status).toBe(201);
    const reader = m.keys.find((k) => k.scopes?.join() === 'patients:read')!.key;
    expect((await send('/patients', reader, { method: 'POST', headers: json, body: '{"first_name":"A"}' })).status).toBe(403);
    expect((await send('/patients', key('expired'))).status).toBe(401);
    expect((await send('/patients', key('all'), { method: 'POST', headers: json, body: ada })).status).toBe(409);
    expect((await send('/patients?page=0', key('all'))).status).toBe(400);
    const arm = (fault: object) => fetch(`${m.controlUrl}/faults`, { method: 'POST', body: JSON.stringify(fault) });
    await arm({ kind: 'rate-limited', count: 1 });
    expect((await send('/patients', key('all'))).status).toBe(429);
    await arm({ kind: 'http', method: 'GET', path: '/patients', status: 404, count: 1 });
    expect((await send('/patients', key('all'))).status).toBe(404);

    const text = await (await fetch(`${m.controlUrl}/requests.har`)).text();
    for (const label of ['all', 'expired']) expect(text).not.toContain(key(label));
    const har = JSON.parse(text);
    expect(har.log.entries[0].request.headers).toContainEqual({ name: 'x-api-key', value: '[redacted]' });
    const file = join(dir, 'mock.har');
    writeFileSync(file, text);
    const { code, report } = await harReport(file, join(dir, 'report'));
    const failed = report.results.filter((r) => r.outcome === 'failed');
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    // What the journal kept was judged: the key on every request, the 409's existing, the answers' rate-limit headers.
    const outcome = (name: string) => report.results.find((r) => r.name === name)?.outcome;
    expect(['request_carries_key', 'conflict_names_existing', 'rate_limit_headers'].map(outcome)).toEqual(['passed', 'passed', 'passed']);
    // The share of the documented exchange rules this traffic exercised, and --min-coverage as a gate on it.
    const cov = report.ruleCoverage!;
    expect(cov).toMatchObject({ of: 'documented exchange rules', total: 126 });
    expect(cov.exercised).toBeGreaterThan(10);
    expect(cov.exercised + cov.missed.length).toBe(cov.total);
    expect(cov.missed).toContain('REGEN-001'); // no regeneration in this traffic
    const gate = await harReport(file, join(dir, 'gate'), ['--min-coverage', '100']);
    expect(gate.code).toBe(1);
    expect(gate.err).toMatch(new RegExp(`rule coverage ${cov.percent} % is below --min-coverage 100 %`));
    expect((await harReport(file, join(dir, 'gate'), ['--min-coverage', `${Math.floor(cov.percent)}%`])).code).toBe(0);
  });
});
