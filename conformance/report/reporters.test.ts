// The reports of one run with every outcome: blocked and timed-out checks appear as such in the console, JUnit, JSON
// and HTML; identical evidence is shown once; each area is printed once; whatever the target sent is shown, never
// obeyed (control characters spelled out everywhere). The HTML is looked at in headless Chromium: it opens on the
// failures by cause, its filter leaves no empty tables, curl lines wrap between words with a copy button, and at
// 390 px nothing is wider than the screen.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, dumpDom, launchBrowser, screenshot } from '../../scripts/testing/chromium.ts';
import { causesOf } from './causes.ts';
import { toCurl } from './curl.ts';
import type { CheckResult, Failure, RunReport } from '../run/model.ts';
import { renderConsole } from './console.ts';
import { groupFailures, renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { prepareOutDir } from './out-dir.ts';
import { writeReports } from './write.ts';

const curlWith = (keyVar: string, path: string) =>
  toCurl({ method: 'GET', url: `http://127.0.0.1:4010/ext-api/v1${path}`, path, headers: { Accept: '*/*', 'X-API-Key': 'k' }, keyVar });
const fail = (message: string, actual = '200', extra: Partial<Failure> = {}): Failure => ({
  ruleId: 'ERR-017',
  message,
  expected: 'one of 201, 400 for POST /patients',
  actual,
  curl: curlWith('CLINICAL_RECORDS_KEY_APPOINTMENTS_WRITE', '/patients'),
  operation: 'POST /patients',
  status: Number(actual.slice(0, 3)),
  ...extra,
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
const withCauses = (r: Omit<RunReport, 'causes'>): RunReport => ({ ...r, causes: causesOf(r.results) });

const LONG_VAR = 'CLINICAL_RECORDS_KEY_PATIENTS_READ_APPOINTMENTS_READ_DOCUMENTS_READ_PROVIDERS_READ_NOTES_READ';
const report = withCauses({
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
        fail('GET /x', '500', {
          operation: 'GET /x',
          expected: 'one of 200 for GET /x',
          curl: curlWith(LONG_VAR, `/x?q=${'a'.repeat(300)}`),
        }),
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
    result('also_fine', 'GEN', 'passed', { rule: `a rule with a long word ${'x'.repeat(120)}` }),
  ],
  notChecked: [{ ruleId: 'GEN-099', rule: 'not testable', provenance: 'documented', reason: 'not testable from outside: policy' }],
  coveredBySchemas: [],
  cleanup: { created: 3, removed: 2, leftovers: ['created without the run prefix: /patients/1 (seen 80 times)'] },
  interrupted: false,
  pacing: { pauses: 0, seconds: 0 },
  variables: [
    { name: 'CLINICAL_RECORDS_KEY_APPOINTMENTS_WRITE', holds: 'a key with scopes appointments:write', set: ". '/tmp/out/keys.env'" },
    {
      name: LONG_VAR,
      holds: 'a key with scopes patients:read,appointments:read,documents:read,providers:read,notes:read',
      set: ". '/tmp/out/keys.env'",
    },
  ],
});
const allPassed = withCauses({ ...report, results: report.results.filter((r) => r.outcome === 'passed' || r.outcome === 'skipped') });

describe('reports of blocked and timed-out checks', () => {
  it('console: each outcome named, with its reason; leftovers once each; each area once', () => {
    const out = renderConsole(report);
    expect(out).toMatch(/Timed out:\n {2}⏱ slow_check \[DOC-001\]: no result within 30 s/);
    expect(out).toMatch(/Blocked \(a setup step of theirs did not work\):\n {2}⊘ needs_a_patient \[PAT-001\]: waited for a patient/);
    expect(out).toMatch(/2 passed, 1 failed, 1 skipped, 1 blocked, 1 timed out/);
    expect(out.match(/created without the run prefix/g)).toHaveLength(1);
    expect(out).toContain('(seen 80 times)');
    for (const area of ['ERR', 'DOC', 'PAT', 'GEN']) expect(out.match(new RegExp(`^ {2}${area} `, 'gm'))).toHaveLength(1);
    expect(out).toMatch(/^ {2}PAT {4}1 passed, 0 failed, 1 skipped, 1 blocked +⊘✓-$/m);
    expect(out).toMatch(
      /\n1 check failed with 4 failures from 2 causes:\n {2}1\. POST \/patients answered 200: 1 check, 3 failures\n {5}status_code_conformance \[ERR-017\]\n {2}2\. GET \/x answered 500/,
    );
    expect(out).toMatch(
      /set them first[^\n]*\n {2}\. '\/tmp\/out\/keys\.env'\n {6}# CLINICAL_RECORDS_KEY_APPOINTMENTS_WRITE: a key with scopes appointments:write/,
    );
  });

  it('JUnit: blocked is skipped with the reason, timed out an error with what it waited for, failures by cause', () => {
    const xml = renderJunit(report);
    expect(xml).toMatch(/<skipped message="blocked: waited for a patient to work on/);
    expect(xml).toMatch(/<error message="timed out: no result within 30 s[^"]*" type="timed-out">/);
    expect(xml).toMatch(/<testsuites [^>]*failures="1" errors="1" skipped="2"/);
    expect(xml).toContain(
      '<property name="cause" value="1: POST /patients answered 200"/><property name="cause" value="2: GET /x answered 500"/>',
    );
    expect(xml).toMatch(/<failure message="ERR-017: cause 1: POST \/patients answered 200" type="ERR-017">cause 1 of 2: POST/);
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

describe('what the target sent is shown, never obeyed', () => {
  const hostile = '\u001b]0;owned\u0007\u001b[2J\rfake ✓ line\u009b31m\u202eevil';
  const dirty = withCauses({
    ...report,
    results: [
      result('echo', 'GEN', 'failed', {
        rule: `rule ${hostile}`,
        failures: [fail(`GET /x ${hostile}`, `500 ${hostile}`, { expected: `e ${hostile}` })],
        reason: hostile,
      }),
    ],
  });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for raw control characters is the point
  const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

  it('console, JUnit, HTML and report.json carry every control character spelled out', () => {
    const dir = prepareOutDir(mkdtempSync(join(tmpdir(), 'crc-controls-')));
    const { files, errors } = writeReports(dirty, ['junit', 'json', 'html'], dir);
    expect(errors).toEqual([]);
    const texts = [renderConsole(dirty), ...files.map((f) => readFileSync(f, 'utf8'))];
    expect(texts).toHaveLength(5); // console, junit.xml, report.json, baseline.json, report.html
    for (const t of texts) expect(RAW.test(t), t.slice(0, 200)).toBe(false);
    expect(renderConsole(dirty)).toContain('\\u001b]0;owned\\u0007\\u001b[2J\\u000dfake ✓ line\\u009b31m\\u202eevil');
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toContain('\\\\u001b]0;owned');
  });
});

const skip = chromiumSkipReason();
describe.skipIf(!!skip)(`the HTML report in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'crc-html-'));
  const file = join(dir, 'report.html');
  const passedFile = join(dir, 'passed.html');
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    writeFileSync(file, renderHtml(report));
    writeFileSync(passedFile, renderHtml(allPassed));
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    page = await context.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('opens on the failed rules by cause linked to their evidence, has a bar per area and a filter that hides rows', async () => {
    const dom = await dumpDom(`file://${file}`);
    // The failed rules come first, before any area table, each linking to an element that exists.
    const failedAt = dom.indexOf('id="failed-rules"');
    expect(failedAt).toBeGreaterThan(0);
    expect(failedAt).toBeLessThan(dom.indexOf('id="area-'));
    expect(dom).toContain('Failed rules: 1 check failed with 4 failures from 2 causes');
    expect(dom).toMatch(/<div class="cause" id="cause-1"><h3>1\. POST \/patients answered 200/);
    for (const href of ['#check-status_code_conformance', '#check-slow_check', '#cause-2']) {
      expect(dom).toContain(`href="${href}"`);
      expect(dom).toContain(`id="${href.slice(1)}"`);
    }
    expect(dom).toContain('2 more like this');
    for (const a of ['ERR', 'DOC', 'PAT']) expect(dom).toMatch(new RegExp(`<div class="area-bar"><a href="#area-${a}">`));
    expect(dom).toMatch(/<tbody class="check blocked"[^>]*>.*blocked: waited for a patient/s);
    const all = await screenshot(`file://${file}`, { width: 900, height: 1400 });
    const onlyFailed = await screenshot(`file://${file}#show-failed`, { width: 900, height: 1400 });
    expect(all.subarray(1, 4).toString()).toBe('PNG');
    expect(onlyFailed.equals(all)).toBe(false);
  }, 60_000);

  it('"None failed" is not drawn as an alarm', async () => {
    await page.goto(`file://${passedFile}`);
    const box = page.locator('#failed-rules');
    await expect(box.textContent()).resolves.toContain('None failed');
    const color = await box.evaluate((e) => getComputedStyle(e).borderTopColor);
    expect(color).not.toBe('rgb(176, 0, 32)');
    await page.goto(`file://${file}`);
    expect(await page.locator('#failed-rules').evaluate((e) => getComputedStyle(e).borderTopColor)).toBe('rgb(176, 0, 32)');
  });

  it('"Show only: failed" leaves no table without rows: areas and rule lists without a failed check are hidden', async () => {
    await page.goto(`file://${file}#show-failed`);
    const visible = await page.evaluate(() =>
      [...document.querySelectorAll('main section')]
        .filter((s) => (s as HTMLElement).offsetParent !== null)
        .map((s) => s.querySelector('h2')?.id ?? s.className),
    );
    expect(visible).toEqual(['area-ERR']);
    const rows = await page.evaluate(
      () => [...document.querySelectorAll('main tbody.check')].filter((t) => (t as HTMLElement).offsetParent !== null).length,
    );
    expect(rows).toBe(1);
  });

  it('at 390 px nothing is wider than the screen; curl lines wrap between words, never inside a variable name', async () => {
    await page.goto(`file://${file}`);
    await page.evaluate(() => {
      for (const d of document.querySelectorAll('details')) d.open = true;
    });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const names = await page.evaluate(() =>
      [...document.querySelectorAll('.curl .var:not(.long)')].map((v) => [v.textContent, v.getClientRects().length]),
    );
    expect(names.length).toBeGreaterThanOrEqual(2);
    for (const [name, lineBoxes] of names) expect(lineBoxes, String(name)).toBe(1);
    // A name too long for one line breaks after an underscore only: every line box ends at one.
    const long = await page.evaluate(() => {
      const v = document.querySelector('.curl .var.long')!;
      const range = document.createRange();
      const text = v.textContent!;
      const ends: string[] = [];
      let top: number | undefined;
      const walker = document.createTreeWalker(v, NodeFilter.SHOW_TEXT);
      let offset = 0;
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (let i = 0; i < n.textContent!.length; i++) {
          range.setStart(n, i);
          range.setEnd(n, i + 1);
          const t = range.getBoundingClientRect().top;
          if (top !== undefined && t > top + 2) ends.push(text[offset + i - 1]!);
          top = t;
        }
        offset += n.textContent!.length;
      }
      return { text, ends };
    });
    expect(long.text.includes('CLINICAL_RECORDS_KEY_PATIENTS_READ_APPOINTMENTS_READ')).toBe(true);
    expect(long.ends.length).toBeGreaterThan(0);
    for (const c of long.ends) expect(c).toBe('_');
  });

  it('each curl line has a copy button that copies it as printed', async () => {
    await page.goto(`file://${file}`);
    const first = page.locator('.curl').first();
    const button = first.locator('button.copy');
    await button.click();
    await expect.poll(() => button.textContent()).toMatch(/copied|selected/);
    const text = await first.locator('pre').textContent();
    expect(text).toBe(report.results[0]!.failures[0]!.curl);
    // The handler selects the line (so Ctrl-C works where the clipboard is not granted) and copies it.
    expect(await page.evaluate(() => String(getSelection()))).toBe(text);
    expect(await button.textContent()).toBe('copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
  });
});
