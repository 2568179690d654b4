// --upstream in front of a loopback upstream that breaks one documented rule at a time (a create answered 200, a lookup
// miss answered 200 with an empty list, list items carrying pronouns, consent and notes, patient ids as JSON numbers):
// each exchange that shows the defect fails that rule, with its id, in the journal and in `conformance --har` of the
// journal's HAR; a status the contract does not give (418) is shown as not in the contract, never as ✓.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, setJson } from '../../conformance/testing/broken-proxy.ts';
import type { Breaks } from '../../conformance/testing/check-file.ts';
import { startSwappableProxy } from '../../conformance/testing/single-defect.ts';
import { variants } from '../../conformance/testing/variants.ts';
import { failedRules, harReport } from '../../conformance/testing/har-report.ts';
import { startMock, type RunningMock } from '../server.ts';
import { client } from '../testing/http.ts';

const dir = mkdtempSync(join(tmpdir(), 'upstream-planted-'));
const catalogue = variants({ main: '', scoped: [], otherOrg: '', expired: '' });
const variant = (name: string): Breaks => catalogue.find((v) => v.name === name)!;
/** List items carrying the fields the document keeps out of them (PAT-012, PAT-013, PAT-014). */
const listCarriesDetailFields: Breaks = {
  response(res, req) {
    const b = jsonOf(res.body);
    if (req.method !== 'GET' || !/^\/ext-api\/v1\/patients(\?|$)/.test(req.url) || !Array.isArray(b?.data)) return;
    for (const p of b.data) Object.assign(p, { pronouns: 'she/her', consent: true, notes: 'n' });
    setJson(res, b);
  },
};
const teapot: Breaks = {
  response(res, req) {
    if (req.url.endsWith('/providers')) res.status = 418;
  },
};

let upstream: RunningMock;
let swap: Awaited<ReturnType<typeof startSwappableProxy>>;
let m: RunningMock;
const lines: string[] = [];

beforeAll(async () => {
  upstream = await startMock({ mode: 'engine-only', port: 0, quiet: true });
  swap = await startSwappableProxy(new URL(upstream.url).origin);
  m = await startMock({ upstream: `${swap.origin}/ext-api/v1`, port: 0, quiet: true, onExchange: (l) => lines.push(l) });
});
afterAll(async () => {
  await m?.close();
  await swap?.close();
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

const newest = async () => (await (await fetch(`${m.controlUrl}/requests?limit=1`)).json()).data[0];
const rulesOf = (entry: { violations?: Array<{ rule_id: string }> }) => (entry.violations ?? []).map((v) => v.rule_id).sort();

describe('--upstream with a planted defect', () => {
  it('fails the rule each defect breaks on the exchange that shows it, and the HAR judges the same', async () => {
    const api = client(m);
    swap.plant(undefined);
    const created = await api.call('POST', '/patients', { body: { first_name: 'Ada' } });
    expect(created.status).toBe(201);
    expect(rulesOf(await newest())).toEqual([]);
    const cases: Array<[Breaks, () => Promise<unknown>, string[]]> = [
      [variant('create answers 200'), () => api.call('POST', '/patients', { body: { first_name: 'Bo' } }), ['PAT-021']],
      [variant('lookup miss answers 200'), () => api.call('GET', `/patients?external_id=none-${Date.now()}`), ['XID-010']],
      [listCarriesDetailFields, () => api.call('GET', '/patients?limit=2'), ['PAT-012', 'PAT-013', 'PAT-014']],
      [variant('numeric patient id'), () => api.call('GET', `/patients/${created.body.data.id}`), ['GEN-008']],
    ];
    for (const [breaks, call, rules] of cases) {
      swap.plant(breaks);
      await call();
      const e = await newest();
      expect(rulesOf(e)).toEqual(rules);
    }
    swap.plant(teapot);
    expect((await api.call('GET', '/providers')).status).toBe(418);
    const entry = await newest();
    expect(entry.violations).toBeUndefined();
    expect(entry.not_judged).toMatch(/not in the contract: 418 is not a status of GET \/providers/);
    expect(lines.at(-1)).toMatch(/^\[upstream\] · GET \/ext-api\/v1\/providers -> 418 {2}not judged: status not in the contract/);

    const har = join(dir, 'planted.har');
    writeFileSync(har, await (await fetch(`${m.controlUrl}/requests.har`)).text());
    const { code, report } = await harReport(har, join(dir, 'report'));
    expect({ code, failed: failedRules(report) }).toEqual({
      code: 1,
      failed: ['GEN-008', 'PAT-012', 'PAT-013', 'PAT-014', 'PAT-021', 'XID-010'],
    });
    // The 418, and the create's 200 (a status the contract does not list either, and a failure of PAT-021).
    expect(report.target).toMatch(/2 answered a status not in the contract/);
  });
});
