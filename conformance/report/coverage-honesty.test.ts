// Honest coverage: a rule counts as checked only where some check fails when that rule alone is broken. A check's own
// rule is proven by its broken variant (layout.test.ts requires one of every check); here, every other claim (a
// `covers` entry, a schema a check validates) gets a server that breaks that rule alone, a loopback proxy in front of
// the mock or a planted webhook sender, and the checks that claim it must fail on it. The report's checked and
// not-checked lists must agree with this table, and the claims dropped for want of such a failure stay dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMock } from '../../mock/server.ts';
import { allChecks } from '../checks/index.ts';
import { responseChecks } from '../../judge/checks/index.ts';
import { Contract } from '../../spec/runtime/contract.ts';
import { type Claim, claims } from './coverage.ts';
import { MockControl } from '../target/mock-control.ts';
import type { CheckContext, RunReport } from '../run/model.ts';
import { Register } from '../../spec/runtime/register.ts';
import { runSuite } from '../run/runner.ts';
import type { Profile } from '../../spec/runtime/schemas.ts';
import { startBrokenProxy } from '../testing/broken-proxy.ts';
import { startTestMock, suiteOptions, useMockPool } from '../testing/check-file.ts';
import { droppedClaims } from '../testing/defects-dropped.ts';
import { protocolDefects } from '../testing/defects-protocol.ts';
import { resourceDefects } from '../testing/defects-resources.ts';
import { shapeDefects } from '../testing/defects-shapes.ts';
import { type Defect, type DefectKeys, PlantedSender } from '../testing/single-defect.ts';

const register = Register.load();
const source = { register, contract: new Contract(), checks: allChecks, responseChecks };
const claimed: Record<Profile, Map<string, Claim[]>> = { documented: claims(source, 'documented'), all: claims(source, 'all') };
const responseNames = new Set(responseChecks.map((c) => c.name));
const provenance = (check: string) =>
  register.resolve([...allChecks, ...responseChecks].find((c) => c.name === check)?.rule ?? '').provenance;

/** The claims on a rule other than a check's own rule, made by checks that run in `profile`. */
const borrowed = (rule: string, profile: Profile) =>
  claimed[profile].get(rule)!.filter((c) => c.kind !== 'rule' && (profile === 'all' || provenance(c.check) === 'documented'));
/**
 * The runs a row needs: in each profile whose claims differ (the documented profile's schemas are the relaxed ones),
 * the `covers` claims and the schema claims apart, since a report names either alone when the other did not run.
 */
function trials(rule: string): Array<{ profile: Profile; kind: Claim['kind']; claims: Claim[] }> {
  const key = (cs: Claim[]) => cs.map((c) => `${c.kind}:${c.check}`).join();
  const profiles: Profile[] = borrowed(rule, 'documented').length ? ['documented', 'all'] : ['all'];
  if (profiles.length === 2 && key(borrowed(rule, 'documented')) === key(borrowed(rule, 'all'))) profiles.pop();
  return profiles.flatMap((profile) =>
    (['covers', 'schema'] as const)
      .map((kind) => ({ profile, kind, claims: borrowed(rule, profile).filter((c) => c.kind === kind) }))
      .filter((t) => t.claims.length),
  );
}
const ownRules = new Set([...allChecks, ...responseChecks].map((c) => c.rule));

// Filled in once the mock lists its keys (the rows read them as requests pass).
const keys: DefectKeys = { main: '', otherOrg: '', expired: '', scoped: [] };
const rows: Defect[] = [...protocolDefects(keys), ...resourceDefects, ...shapeDefects];
const dropped = droppedClaims(keys);

let mock: RunningMock;
// The rows run side by side (describe.concurrent, maxConcurrency in vitest.config.ts): most of a row's time is a check
// waiting out its margin for an event the defect withholds. Each run takes a mock of the pool, which serves one run at
// a time, as the one mock every row once ran on in turn did.
const { onFreeMock } = useMockPool();
// A documented trial's mock plays every reading of the document that combines: a reading never hides a defect.
const { onFreeMock: onFreeReadingsMock } = useMockPool('all');

beforeAll(async () => {
  mock = await startTestMock();
  const list = await new MockControl(mock.url, 5_000).keys();
  const main = list.find((k) => k.state === 'active' && k.scopes.includes('*'))!;
  const mine = list.filter((k) => k.organization_id === main.organization_id);
  Object.assign(keys, {
    main: main.key,
    otherOrg: list.find((k) => k.organization_id !== main.organization_id && k.state === 'active')!.key,
    expired: mine.find((k) => k.state === 'expired')!.key,
    scoped: mine.filter((k) => k.state === 'active' && !k.scopes.includes('*')).map((k) => ({ key: k.key, scopes: k.scopes })),
  });
}, 60_000);

afterAll(async () => {
  await mock?.close();
});

/** The named checks to run for a row (the response checks run with any), and the driver that feeds the response checks. */
function selection(d: Defect, checks: string[]): string[] {
  return [...new Set([...checks.filter((c) => !responseNames.has(c)), ...(d.driver ? [d.driver] : [])])];
}

/** Runs `only` on a free mock through a proxy with the row's defect planted (its transformers fresh for the run). */
function plant(d: Defect, profile: Profile, only: string[]): Promise<RunReport> {
  return (profile === 'documented' ? onFreeReadingsMock : onFreeMock)(async (m) => {
    const breaks = (typeof d.breaks === 'function' ? d.breaks() : d.breaks) ?? {};
    const proxy = await startBrokenProxy(new URL(m.url).origin, { name: d.defect, area: '', rule: d.rule, ...breaks });
    try {
      const receiver = d.deliver ? new PlantedSender(d.deliver) : undefined;
      return (await runSuite({ ...suiteOptions(`${proxy.origin}${new URL(m.url).pathname}`), profile, only, receiver })).report;
    } finally {
      await proxy.close();
    }
  });
}

const failed = (r: RunReport) => r.results.filter((x) => x.outcome === 'failed').map((x) => x.name);

describe.concurrent('every claim fails on a server that breaks its rule alone', { retry: 2 }, () => {
  it('the checks these rows run pass when nothing is broken', async ({ expect }) => {
    const only = [
      ...new Set(
        rows.flatMap((d) =>
          selection(
            d,
            borrowed(d.rule, 'all').map((c) => c.check),
          ),
        ),
      ),
    ];
    const report = await plant({ rule: '', defect: 'none' }, 'all', only);
    expect(report.results.filter((r) => r.outcome !== 'passed' && r.outcome !== 'skipped').map((r) => `${r.name}: ${r.outcome}`)).toEqual(
      [],
    );
  }, 120_000);

  for (const d of rows)
    it(`${d.rule}: ${d.defect}`, async ({ expect }) => {
      const runs = trials(d.rule);
      expect(runs.length, `${d.rule} is claimed (other than as a check's own rule)`).toBeGreaterThan(0);
      const failing = new Set<string>();
      for (const { profile, kind, claims } of runs) {
        const named = claims.filter((c) => !c.response).map((c) => c.check);
        if (!named.length) expect(d.driver, 'a driver for the response checks').toBeDefined();
        const report = await plant(d, profile, selection(d, named));
        for (const n of failed(report)) failing.add(n);
        // A `covers` claim is judged with the response checks that always run beside it; a schema claim by its own check.
        const judges = new Set([...claims.map((c) => c.check), ...(kind === 'covers' ? responseNames : [])]);
        expect(
          failed(report).filter((n) => judges.has(n)),
          `${profile} profile, ${kind} claim: one of ${[...judges].join(', ')} fails`,
        ).not.toEqual([]);
      }
      for (const c of d.caughtBy ?? []) expect([...failing], `${c} fails`).toContain(c);
    }, 120_000);
});

describe.concurrent('claims dropped: a server with the defect passes the checks that made them', { retry: 2 }, () => {
  for (const d of dropped)
    it(`${d.rule}: ${d.defect} (${d.formerly.join(', ')})`, async ({ expect }) => {
      for (const p of ['documented', 'all'] as const) expect(borrowed(d.rule, p).filter((c) => d.formerly.includes(c.check))).toEqual([]);
      const report = await plant(d, 'all', selection(d, d.formerly));
      for (const name of d.formerly) expect(report.results.find((r) => r.name === name)?.outcome, name).toBe('passed');
    }, 90_000);
});

/** A run of every check that does nothing but pass: the report claims what the checks' metadata claims. */
async function claimingReport(profile: Profile): Promise<RunReport> {
  const pass = async (ctx: CheckContext) => {
    await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main, query: { limit: 1 } });
    ctx.expect(true, { expected: 'nothing', actual: 'nothing' });
  };
  const checks = allChecks.map((c) => ({ ...c, run: pass }));
  return (await runSuite({ ...suiteOptions(mock.url), profile, checks })).report;
}

describe("the report's checked and not-checked lists agree with the table", () => {
  const tabled = new Set(rows.map((d) => d.rule));

  for (const profile of ['all', 'documented'] as const)
    it(`--profile ${profile}: every rule checked is a check's own rule or has a row; no row for a rule not checked`, async () => {
      const report = await claimingReport(profile);
      const notChecked = new Set(report.notChecked.map((r) => r.ruleId));
      const checked = register.rules.map((r) => r.id).filter((id) => !notChecked.has(id));
      expect(
        checked.filter((id) => !ownRules.has(id) && !tabled.has(id)),
        'checked without a row',
      ).toEqual([]);
      if (profile === 'all')
        expect(
          [...tabled].filter((id) => notChecked.has(id)),
          'a row for a rule not checked',
        ).toEqual([]);
      // A dropped claim is not given as the reason (a check that would have checked it, had it run).
      for (const d of dropped.filter((x) => notChecked.has(x.rule))) {
        const reason = report.notChecked.find((r) => r.ruleId === d.rule)!.reason;
        for (const c of d.formerly) expect(reason, d.rule).not.toMatch(new RegExp(`^${c} skipped|checked by [^:]*\\b${c}\\b`));
      }
    }, 60_000);
});
