// One defect reads as one failure: the whole documented run against the mock behind a loopback proxy that breaks
// exactly one rule. The run must fail that rule's check, and at most two other checks (response checks included);
// every other check passes, is skipped, or is blocked on a setup step naming the broken rule; nothing is left behind.
// The mock behind a documented variant plays every reading of the document that combines (spec/readings.yaml).
import { beforeAll, describe, it } from 'vitest';
import { runSuite } from './runner.ts';
import { MockControl } from './mock-control.ts';
import { startBrokenProxy, type VariantKeys } from './testing/broken-proxy.ts';
import { variants } from './testing/variants.ts';
import { independentDefects } from './testing/independent-defects.ts';
import { startTestMock, suiteOptions } from './testing/check-file.ts';
import { testMockOptions } from './testing/mock-options.ts';
import { startMock } from '../mock/server.ts';
import type { RunReport } from './model.ts';

let keys: VariantKeys;

beforeAll(async () => {
  const mock = await startTestMock();
  const list = await new MockControl(mock.url, 5_000).keys().finally(() => mock.close());
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
}, 60_000);

/** The checks that did not pass on their own account: failed or timed out. */
const failing = (r: RunReport) => r.results.filter((x) => x.outcome === 'failed' || x.outcome === 'timed-out');

// The variants run four at a time (maxConcurrency in vitest.config.ts), each against a mock of its own: a run is
// mostly waiting on scaled extraction and delivery timers, and runs sharing one mock would share its organization's
// webhook deliveries and delivery queue, so one run's webhooks would slow and crowd another's timing checks.
describe.concurrent('single-defect servers: the broken rule fails, at most two other checks with it', { retry: 1 }, () => {
  const all = (k: VariantKeys) => [...variants(k), ...independentDefects(k)];
  const names = all({ main: '', scoped: [], otherOrg: '', expired: '' });
  for (const probe of names)
    it(`${probe.name} → ${probe.rule}`, async ({ expect }) => {
      const variant = all(keys).find((v) => v.name === probe.name)!;
      // The seed is deterministic: the same keys as the first mock's. A documented run's mock plays every reading the
      // document allows (--readings all): a reading never hides a defect, and a defect still reads as one failing rule.
      const own = variant.profile === 'all' ? await startTestMock() : await startMock({ ...testMockOptions, readings: 'all' });
      const proxy = await startBrokenProxy(new URL(own.url).origin, variant);
      try {
        const run = async () =>
          (await runSuite({ ...suiteOptions(`${proxy.origin}${new URL(own.url).pathname}`), profile: variant.profile ?? 'documented' }))
            .report;
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
        expect(mine.length, `no check of ${variant.rule} failed`).toBeGreaterThan(0);
        expect(others.length, others.join('\n')).toBeLessThanOrEqual(2);
        for (const b of report.results.filter((r) => r.outcome === 'blocked'))
          expect(b.reason, b.name).toMatch(/^waited for .+; [A-Z]+-\d{3} is judged by /);
        expect(report.cleanup.leftovers).toEqual([]);
      } finally {
        await proxy.close();
        await own.close();
      }
    }, 300_000);
});
