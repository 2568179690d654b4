// --upstream: the mock as a validation proxy in front of a loopback upstream (an engine-only mock), and in front of
// the same behind a small proxy that breaks one rule (conformance/testing/broken-proxy.ts). Clean traffic shows no
// violation; the broken rule shows on the right exchange with its rule id, in the journal, the terminal and the HAR;
// --upstream-errors turns it into a 502; faults apply in front of the upstream, which never sees them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as conformance } from '../../conformance/cli.ts';
import { startBrokenProxy } from '../../conformance/testing/broken-proxy.ts';
import { variants } from '../../conformance/testing/variants.ts';
import { startMock, type RunningMock } from '../server.ts';
import { client } from '../testing/http.ts';

let upstream: RunningMock;
let broken: { origin: string; close(): Promise<void> };
const started: RunningMock[] = [];
const dir = mkdtempSync(join(tmpdir(), 'upstream-'));

async function proxy(target: string, upstreamErrors = false): Promise<{ m: RunningMock; lines: string[] }> {
  const lines: string[] = [];
  const m = await startMock({ upstream: target, upstreamErrors, port: 0, quiet: true, onExchange: (l) => lines.push(l) });
  started.push(m);
  return { m, lines };
}
const journal = async (m: RunningMock) => (await (await fetch(`${m.controlUrl}/requests?limit=50`)).json()).data as any[];
const upstreamSeen = async () => (await (await fetch(`${upstream.controlUrl}/requests?limit=1`)).json()).meta.recorded as number;

/**
 * The journal's HAR judged by `conformance --har`: the exit code, and whether its failures are the journal's
 * violations (check, rule id, exchange count) exactly.
 */
async function harRoundTrip(m: RunningMock, name: string) {
  const har = join(dir, `${name}.har`);
  writeFileSync(har, await (await fetch(`${m.controlUrl}/requests.har`)).text());
  const out = join(dir, name);
  const code = await conformance(
    ['--har', har, '--reporter', 'json', '--out', out],
    () => {},
    () => {},
  );
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  const failed = report.results.filter((r: any) => r.outcome === 'failed').map((r: any) => `${r.name} ${r.ruleId} x${r.failures.length}`);
  const seen = new Map<string, number>();
  for (const e of await journal(m))
    for (const v of e.violations ?? []) seen.set(`${v.check} ${v.rule_id}`, (seen.get(`${v.check} ${v.rule_id}`) ?? 0) + 1);
  return { code, failed, journal: [...seen].map(([k, n]) => `${k} x${n}`) };
}

/** A few exchanges a frontend makes: a list, a create, a lookup, a refused create (unknown field). */
async function traffic(m: RunningMock) {
  const api = client(m);
  const list = await api.call('GET', '/patients');
  const created = await api.call('POST', '/patients', { body: { first_name: 'Ada', external_id: `up-${Date.now()}` } });
  const lookup = await api.call('GET', `/patients?external_id=${created.body.data.external_id}`);
  const refused = await api.call('POST', '/patients', { body: { first_name: 'Ada', crc_unknown_field: 1 } });
  return { list, created, lookup, refused };
}

beforeAll(async () => {
  upstream = await startMock({ mode: 'engine-only', port: 0, quiet: true });
  const rateHeader = variants({ main: '', scoped: [], otherOrg: '', expired: '' }).find((v) => v.rule === 'RATE-001')!;
  broken = await startBrokenProxy(new URL(upstream.url).origin, rateHeader);
});
afterAll(async () => {
  for (const m of started) await m.close();
  await broken?.close();
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('--upstream', () => {
  it('passes clean traffic through unchanged (the key too, never shown) and finds no violation of the server', async () => {
    const { m, lines } = await proxy(upstream.url);
    const { list, created, lookup, refused } = await traffic(m);
    expect([list.status, created.status, lookup.status, refused.status]).toEqual([200, 201, 200, 400]);
    expect(list.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(lookup.body.data).toHaveLength(1);
    const entries = await journal(m);
    // The unknown field is the app's bug: a request violation, on that exchange only.
    const byStatus = entries.map(
      (e) => `${e.method} ${e.status} ${(e.violations ?? []).map((v: any) => `${v.side} ${v.rule_id}`).join(',')}`,
    );
    expect(byStatus.reverse()).toEqual(['GET 200 ', 'POST 201 ', 'GET 200 ', 'POST 400 request GEN-010']);
    const first = entries.at(-1); // newest first
    expect(first.response.status).toBe(200);
    expect(first.response.body).toContain('"meta"');
    expect(first.request.headers['x-api-key']).toBe('[redacted]');
    const key = client(m).key('all');
    expect(JSON.stringify(entries)).not.toContain(key);
    expect(await (await fetch(`${m.controlUrl}/requests.har`)).text()).not.toContain(key);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(/✗ POST \/ext-api\/v1\/patients -> 400 .*app GEN-010 request_body_conformance at request\.body/);
    const trip = await harRoundTrip(m, 'clean');
    expect(trip).toEqual({ code: 1, failed: ['request_body_conformance GEN-010 x1'], journal: ['request_body_conformance GEN-010 x1'] });
  });

  it('shows the broken rule on the exchange that broke it, with its id, sentence and place; the HAR judges the same', async () => {
    const { m, lines } = await proxy(`${broken.origin}/ext-api/v1`);
    await client(m).call('GET', '/providers');
    const [entry] = await journal(m);
    expect(entry.violations).toEqual([
      expect.objectContaining({ rule_id: 'RATE-001', check: 'rate_limit_headers', side: 'response', location: 'response.headers' }),
    ]);
    expect(entry.violations[0].rule).toMatch(/X-RateLimit/);
    expect(lines[0]).toMatch(/✗ GET \/ext-api\/v1\/providers -> 200 .*service RATE-001 rate_limit_headers/);

    expect(await harRoundTrip(m, 'broken')).toEqual({
      code: 1,
      failed: ['rate_limit_headers RATE-001 x1'],
      journal: ['rate_limit_headers RATE-001 x1'],
    });
  });

  it('shows a broken 409 (no existing) on the conflicting create only, and the HAR judges the same', async () => {
    const noExisting = variants({ main: '', scoped: [], otherOrg: '', expired: '' }).find((v) => v.rule === 'XID-006')!;
    const conflictBroken = await startBrokenProxy(new URL(upstream.url).origin, noExisting);
    try {
      const { m } = await proxy(`${conflictBroken.origin}/ext-api/v1`);
      const body = { first_name: 'Ada', external_id: `dup-${Date.now()}` };
      expect((await client(m).call('POST', '/patients', { body })).status).toBe(201);
      expect((await client(m).call('POST', '/patients', { body })).status).toBe(409);
      const [conflict, created] = await journal(m);
      expect(created.violations).toBeUndefined();
      expect(conflict.violations).toEqual([
        expect.objectContaining({ rule_id: 'XID-006', check: 'conflict_names_existing', location: 'response.body/existing' }),
      ]);
      expect(await harRoundTrip(m, 'conflict')).toEqual({
        code: 1,
        failed: ['conflict_names_existing XID-006 x1'],
        journal: ['conflict_names_existing XID-006 x1'],
      });
    } finally {
      await conflictBroken.close();
    }
  });

  it('marks an exchange no operation of the contract matches as not judged, never as passing', async () => {
    const { m, lines } = await proxy(upstream.url);
    const res = await client(m).call('GET', '/reports?year=2026');
    expect(res.status).toBe(404); // the upstream's own answer
    const [entry] = await journal(m);
    expect(entry.violations).toBeUndefined();
    expect(entry.not_judged).toBe('no operation of the contract is GET /reports');
    expect(lines).toEqual(['[upstream] · GET /ext-api/v1/reports -> 404  not judged: no operation of the contract is GET /reports']);
    const har = await (await fetch(`${m.controlUrl}/requests.har`)).json();
    expect(har.log.entries[0]._not_judged).toBe(entry.not_judged);
  });

  it('--upstream-errors answers a violating response with 502 and the violations', async () => {
    const { m } = await proxy(`${broken.origin}/ext-api/v1`, true);
    const r = await client(m).call('GET', '/providers');
    expect(r.status).toBe(502);
    expect(r.body.violations).toEqual([expect.objectContaining({ rule_id: 'RATE-001', location: 'response.headers' })]);
    const [entry] = await journal(m);
    expect([entry.status, entry.engine_status]).toEqual([502, 200]);
  });

  it('acts faults out in front of the upstream, which never sees those requests; refuses the engine-only kinds', async () => {
    const { m } = await proxy(upstream.url);
    const before = await upstreamSeen();
    const arm = (body: object) => fetch(`${m.controlUrl}/faults`, { method: 'POST', body: JSON.stringify(body) });
    expect((await arm({ kind: 'rate-limited', count: 1 })).status).toBe(201);
    expect((await arm({ kind: 'http', method: 'GET', path: '/providers', status: 503, count: 1 })).status).toBe(201);
    expect((await arm({ kind: 'drop', method: 'GET', path: '/appointments', count: 1 })).status).toBe(201);
    expect((await client(m).call('GET', '/patients')).status).toBe(429);
    expect((await client(m).call('GET', '/providers')).status).toBe(503);
    await expect(client(m).call('GET', '/appointments')).rejects.toThrow(/fetch failed/);
    expect(await upstreamSeen()).toBe(before);
    const refused = await arm({ kind: 'extraction-fails' });
    expect(refused.status).toBe(400);
    expect((await refused.json()).details.kind).toMatch(/needs the mock's engine/);
  });

  it("never shows the client's key, even where a finding quotes what the client sent", async () => {
    const { m, lines } = await proxy(upstream.url);
    const key = client(m).key('all');
    const r = await client(m).call('POST', '/patients', { raw: `{"first_name": "${key}`, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(lines[0]).toMatch(/app GEN-010 request_body_conformance at request\.body: malformed JSON/);
    const shown = JSON.stringify(await journal(m));
    expect(shown).toContain('malformed JSON');
    for (const text of [lines[0]!, shown]) expect(text).not.toContain(key);
  });

  it('an upstream that does not answer is a 502 naming it', async () => {
    const { m } = await proxy('http://127.0.0.1:9/ext-api/v1');
    const r = await client(m).call('GET', '/patients');
    expect(r.status).toBe(502);
    expect(r.body.error).toMatch(/did not answer/);
  });
});
