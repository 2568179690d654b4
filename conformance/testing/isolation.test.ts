// One defect reads as one failure: the documented run against the mock behind a loopback proxy that breaks exactly one
// rule. The run must fail that rule's check, and at most two other checks (response checks included); every other
// check passes, is skipped, or is blocked on a setup step naming the broken rule; nothing is left behind.
// The mock behind a documented variant plays every reading of the document that combines (spec/readings.yaml).
// A variant's run is the checks it can reach (touched.ts): those whose traffic in a clean whole run it changes, the
// checks of its own rule, and any the clean run did not settle; every other check sends and reads what it did in the
// clean run, which it passed. Where reach cannot be told from traffic, the variant gets the whole run.
import { beforeAll, describe, it } from 'vitest';
import { runSuite } from '../run/runner.ts';
import { MockControl } from '../target/mock-control.ts';
import { startBrokenProxy, type Variant, type VariantKeys } from './broken-proxy.ts';
import { variants } from './variants.ts';
import { independentDefects } from './independent-defects.ts';
import { suiteOptions, useMockPool } from './check-file.ts';
import { reachOf, tracing, type Trace, unsettled } from './touched.ts';
import { allChecks } from '../checks/index.ts';
import type { RunningMock } from '../../mock/server.ts';
import type { Profile } from '../../spec/runtime/schemas.ts';
import type { RunReport } from '../run/model.ts';

let keys: VariantKeys;
const clean = {} as Record<Profile, { trace: Trace; unsettled: string[]; leftovers: string[] }>;

// Mocks serve one run at a time, from a pool per kind: a documented variant's plays every reading (--readings all), an
// assumed rule's (profile all) none. Runs never share a mock meanwhile, so no run's webhooks crowd another's timing.
const pools = { documented: useMockPool('all'), all: useMockPool() };
const urlOf = (m: RunningMock, origin = new URL(m.url).origin) => `${origin}${new URL(m.url).pathname}`;

beforeAll(async () => {
  const list = await pools.all.onFreeMock((m) => new MockControl(m.url, 5_000).keys());
  const star = list.find((k) => k.state === 'active' && k.scopes.includes('*'))!;
  const org = star.organization_id;
  const mine = list.filter((k) => k.organization_id === org);
  keys = {
    main: star.key,
    scoped: mine.filter((k) => k.state === 'active' && !k.scopes.includes('*')).map((k) => k.key),
    otherOrg: list.find((k) => k.organization_id !== org && k.state === 'active')!.key,
    expired: mine.find((k) => k.state === 'expired')!.key,
    revoked: mine.find((k) => k.state === 'revoked')!.key,
  };
  // The clean whole runs whose traffic tells each variant's reach, one per profile, side by side.
  await Promise.all(
    (['documented', 'all'] as const).map((profile) =>
      pools[profile].onFreeMock(async (m) => {
        const { checks, trace } = tracing(allChecks);
        const { report } = await runSuite({ ...suiteOptions(m.url), profile, checks });
        clean[profile] = { trace, unsettled: unsettled(report.results), leftovers: report.cleanup.leftovers };
      }),
    ),
  );
}, 300_000);

/** The checks that did not pass on their own account: failed or timed out. */
const failing = (r: RunReport) => r.results.filter((x) => x.outcome === 'failed' || x.outcome === 'timed-out');

/**
 * What a variant's run selects: the checks it can reach (with its own rule's and the unsettled), or all. A narrowed
 * run leaves out the other checks' cleanup too, which the clean run must then have done without a leftover.
 */
async function selectionFor(variant: Variant, fresh: () => Variant, profile: Profile): Promise<string[]> {
  if (clean[profile].leftovers.length) return [];
  const reach = await reachOf(fresh, clean[profile].trace);
  if ('whole' in reach) return [];
  const own = allChecks.filter((c) => c.rule === variant.rule).map((c) => c.name);
  return [...new Set([...own, ...reach.checks, ...clean[profile].unsettled])];
}

// The variants run four at a time (maxConcurrency in vitest.config.ts), each on a mock no other run uses meanwhile.
describe.concurrent('single-defect servers: the broken rule fails, at most two other checks with it', { retry: 1 }, () => {
  const all = (k: VariantKeys) => [...variants(k), ...independentDefects(k)];
  const names = all({ main: '', scoped: [], otherOrg: '', expired: '' });
  for (const probe of names)
    it(`${probe.name} → ${probe.rule}`, async ({ expect }) => {
      // The seed is deterministic: every mock has the first one's keys. Variants keep state: a fresh one for the reach.
      const variant = all(keys).find((v) => v.name === probe.name)!;
      const profile = variant.profile ?? 'documented';
      const only = await selectionFor(variant, () => all(keys).find((v) => v.name === probe.name)!, profile);
      await pools[profile].onFreeMock(async (own) => {
        const proxy = await startBrokenProxy(new URL(own.url).origin, variant);
        try {
          const run = async () => (await runSuite({ ...suiteOptions(urlOf(own, proxy.origin)), profile, only })).report;
          const report = await run();
          let bad = failing(report);
          // A defect fails the same checks every time; a timing check that a loaded machine upset once does not:
          // when the first run looks too wide, only what fails again counts.
          if (bad.filter((r) => r.ruleId !== variant.rule).length > 2) {
            const again = new Set(failing(await run()).map((r) => r.name));
            bad = bad.filter((r) => again.has(r.name));
          }
          const mine = bad.filter((r) => r.ruleId === variant.rule);
          const others = bad
            .filter((r) => r.ruleId !== variant.rule)
            .map((r) => `${r.name} [${r.ruleId}] ${r.outcome}: ${r.failures[0]?.expected ?? r.reason}`);
          expect(mine.length, `no check of ${variant.rule} failed (ran ${only.length || 'all'} checks)`).toBeGreaterThan(0);
          expect(others.length, others.join('\n')).toBeLessThanOrEqual(2);
          for (const b of report.results.filter((r) => r.outcome === 'blocked'))
            expect(b.reason, b.name).toMatch(/^waited for .+; [A-Z]+-\d{3} is judged by /);
          expect(report.cleanup.leftovers).toEqual([]);
        } finally {
          await proxy.close();
        }
      });
    }, 300_000);
});
