// One set of figures: a run against a defective target (the provider read by id answers 404, failing checks of several
// areas), whole and in two shards of one seed; the merged shards give exactly the whole run's figures, every one of
// them, and the console, JUnit and HTML reports of either say the same numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../run/model.ts';
import { runSuite } from '../run/runner.ts';
import { answer, is } from '../testing/broken-proxy.ts';
import { suiteOptions, useTestMock } from '../testing/check-file.ts';
import { startSwappableProxy } from '../testing/single-defect.ts';
import { renderConsole } from './console.ts';
import { failedHeading, figures, type Figures } from './figures.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { mergeReports } from './merge.ts';

const { mock } = useTestMock();
// Areas whose checks read providers (and the response checks); a small exploration of the same seed in each.
const ONLY = ['prv', 'pag', 'gen', 'explore'];

/** Every count each reporter prints must be the report's figure. */
function reportersAgree(report: RunReport, f: Figures): void {
  const text = renderConsole(report);
  expect(text).toContain(`${f.passed} passed, ${f.failed} failed, ${f.skipped} skipped`);
  expect(text).toContain(`; ${f.coveredBySchemas} more rules checked through the schema checks; ${f.notChecked} rules not checked`);
  expect(text).toContain(`\n${failedHeading(f)}:\n`);
  expect(renderJunit(report)).toContain(
    `tests="${f.checks}" failures="${f.failed}" errors="${f.timedOut}" skipped="${f.skipped + f.blocked}"`,
  );
  const html = renderHtml(report);
  for (const s of [`✓ ${f.passed} passed`, `✗ ${f.failed} failed`, `- ${f.skipped} skipped`, `${f.notChecked} rules not checked`])
    expect(html).toContain(s);
  expect(html).toContain(`Failed rules: ${failedHeading(f)}`);
  // An area's heading counts passed over the checks that ran: a skipped check is not "not passed".
  for (const [, passed, ran] of html.matchAll(/<small>(\d+)\/(\d+) passed/g)) expect(Number(passed)).toBeLessThanOrEqual(Number(ran));
  expect(html).not.toMatch(/<small>0\/0 passed/);
}

describe('one set of figures', { timeout: 180_000 }, () => {
  let proxy: Awaited<ReturnType<typeof startSwappableProxy>>;
  let whole: RunReport;
  let shards: RunReport[];

  beforeAll(async () => {
    proxy = await startSwappableProxy(new URL(mock().url).origin);
    proxy.plant({ response: (res, req) => void (is(req, 'GET', /^\/providers\/[^/]+$/) && answer(res, 404, { error: 'Not found' })) });
    const url = `${proxy.origin}${new URL(mock().url).pathname}`;
    const run = (shard?: { k: number; of: number }) =>
      runSuite({ ...suiteOptions(url), profile: 'documented', only: ONLY, explore: { seed: 5, budget: 60 }, shard }).then((r) => r.report);
    whole = await run();
    shards = [await run({ k: 1, of: 2 }), await run({ k: 2, of: 2 })];
  }, 180_000);
  afterAll(() => proxy?.close());

  it('merging the shards gives every figure of the whole run', () => {
    const merged = mergeReports(shards);
    const f = figures(whole);
    expect(f.failed).toBeGreaterThan(1);
    expect(f.causes).toBeGreaterThan(0);
    expect(figures(merged)).toEqual(f);
    const outcomes = (r: RunReport) => r.results.map((x) => `${x.name} ${x.explored?.operation ?? ''} ${x.outcome}`).sort();
    expect(outcomes(merged)).toEqual(outcomes(whole));
    expect(merged.coveredBySchemas.map((c) => c.ruleId).sort()).toEqual(whole.coveredBySchemas.map((c) => c.ruleId).sort());
    expect(merged.notChecked.map((c) => c.ruleId).sort()).toEqual(whole.notChecked.map((c) => c.ruleId).sort());
    expect(merged.exploration!.cases).toBe(whole.exploration!.cases);
  });

  it('the console, JUnit and HTML reports say the same figures, whole or merged', () => {
    reportersAgree(whole, figures(whole));
    const merged = mergeReports(shards);
    reportersAgree(merged, figures(merged));
  });
});
