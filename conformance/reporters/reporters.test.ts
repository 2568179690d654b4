// The reports of one run with every outcome: blocked and timed-out checks appear as such in the console, JUnit, JSON
// and HTML; identical evidence is shown once; the HTML opens on the failed rules and is looked at in headless Chromium.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumSkipReason, dumpDom, screenshot } from '../../scripts/testing/chromium.ts';
import type { CheckResult, Failure, RunReport } from '../model.ts';
import { renderConsole } from './console.ts';
import { groupFailures, renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';

const fail = (message: string, actual = '200'): Failure => ({
  ruleId: 'ERR-017',
  message,
  expected: 'one of 201, 400 for POST /patients',
  actual,
  curl: `curl -X POST '${message}'`,
});
const result = (name: string, area: string, outcome: CheckResult['outcome'], extra: Partial<CheckResult> = {}): CheckResult => ({
  name,
  area,
  ruleId: `${area}-001`,
  rule: `the rule of ${name}`,
  provenance: 'documented',
  outcome,
  failures: [],
  assertions: 1,
  ms: 10,
  ...extra,
});

const report: RunReport = {
  target: 'http://127.0.0.1:1/ext-api/v1',
  runId: 'r1',
  profile: 'documented',
  startedAt: '2026-11-23T00:00:00.000Z',
  seconds: 3.2,
  results: [
    result('status_code_conformance', 'ERR', 'failed', {
      ruleId: 'ERR-017',
      failures: [
        fail('POST /patients (sent by a)'),
        fail('POST /patients (sent by b)'),
        fail('POST /patients (sent by c)'),
        fail('GET /x', '500'),
      ],
    }),
    result('slow_check', 'DOC', 'timed-out', {
      reason: 'no result within 30 s (--check-timeout): still waiting for the answer to GET /patients/1/documents',
    }),
    result('needs_a_patient', 'PAT', 'blocked', {
      reason: 'waited for a patient to work on (POST /patients); PAT-021 is judged by valid_bodies_accepted failed',
      blockedBy: { waitedFor: 'a patient', ruleId: 'PAT-021', checks: ['valid_bodies_accepted'] },
    }),
    result('fine', 'PAT', 'passed'),
    result('not_here', 'PAT', 'skipped', { reason: 'needs --other-org-key' }),
  ],
  notChecked: [],
  coveredBySchemas: [],
  cleanup: { created: 3, removed: 2, leftovers: ['created without the run prefix: /patients/1 (seen 80 times)'] },
  interrupted: false,
  pacing: { pauses: 0, seconds: 0 },
};

describe('reports of blocked and timed-out checks', () => {
  it('console: each outcome named, with its reason; leftovers once each', () => {
    const out = renderConsole(report);
    expect(out).toMatch(/Timed out:\n {2}⏱ slow_check \[DOC-001\]: no result within 30 s/);
    expect(out).toMatch(/Blocked \(a setup step of theirs did not work\):\n {2}⊘ needs_a_patient \[PAT-001\]: waited for a patient/);
    expect(out).toMatch(/1 passed, 1 failed, 1 skipped, 1 blocked, 1 timed out/);
    expect(out.match(/created without the run prefix/g)).toHaveLength(1);
    expect(out).toContain('(seen 80 times)');
  });

  it('JUnit: blocked is skipped with the reason, timed out an error with what it waited for', () => {
    const xml = renderJunit(report);
    expect(xml).toMatch(/<skipped message="blocked: waited for a patient to work on/);
    expect(xml).toMatch(/<error message="timed out: no result within 30 s[^"]*" type="timed-out">/);
    expect(xml).toMatch(/<testsuites [^>]*failures="1" errors="1" skipped="2"/);
  });

  it('groups identical evidence: one example and how many more', () => {
    const groups = groupFailures(report.results[0]!.failures);
    expect(groups.map((g) => [g.example.message, g.more.length])).toEqual([
      ['POST /patients (sent by a)', 2],
      ['GET /x', 0],
    ]);
    expect(renderHtml(report)).toContain('2 more like this');
  });
});

const skip = chromiumSkipReason();
describe.skipIf(!!skip)(`the HTML report in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('opens on the failed rules linked to their evidence, has a bar per area and an outcome filter that hides rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crc-html-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, renderHtml(report));
    const dom = await dumpDom(`file://${file}`);
    // The failed rules come first, before any area table, each linking to an element that exists.
    const failedAt = dom.indexOf('id="failed-rules"');
    expect(failedAt).toBeGreaterThan(0);
    expect(failedAt).toBeLessThan(dom.indexOf('id="area-'));
    for (const href of ['#check-status_code_conformance', '#check-slow_check']) {
      expect(dom).toContain(`href="${href}"`);
      expect(dom).toContain(`id="${href.slice(1)}"`);
    }
    expect(dom).toContain('2 more like this');
    for (const a of ['ERR', 'DOC', 'PAT']) expect(dom).toMatch(new RegExp(`<div class="area-bar"><a href="#area-${a}">`));
    expect(dom).toMatch(/<tbody class="check blocked"[^>]*>.*blocked: waited for a patient/s);
    // The filter works in the browser: showing only failed checks changes what is drawn.
    const all = await screenshot(`file://${file}`, { width: 900, height: 1400 });
    const onlyFailed = await screenshot(`file://${file}#show-failed`, { width: 900, height: 1400 });
    expect(all.subarray(1, 4).toString()).toBe('PNG');
    expect(all.length).toBeGreaterThan(5_000);
    expect(onlyFailed.equals(all)).toBe(false);
  }, 60_000);
});
