// The dashboard as a first look in Chromium found it (issue 32, items 6 and 7): a file named with a right-to-left
// override shows the override escaped (`invoice-\u202efdp.exe` never reads as `invoice-exe.pdf`); the Documents table
// fits a 1280 px window without sideways scrolling, also with a long unbroken file name; at 390 px the log's time
// column reads on one line, and (issue 42, item 5) no table scrolls sideways and a long file name wraps in long lines,
// with a screenshot kept; a skip link takes the keyboard past the log.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchBrowser } from '../../../../scripts/testing/chromium.ts';
import { makePdf } from '../../documents/sample-files.ts';
import { startMock, type RunningMock } from '../../../server.ts';

const skip = chromiumSkipReason();
const OUT = join(new URL('../../../../', import.meta.url).pathname, 'test-output', 'dashboard');
const WAIT = { timeout: 15_000 };
const SPOOF = 'invoice-\u202Efdp.exe';
const LONG = `${'scan_of_the_referral_letter_'.repeat(8)}final.pdf`;

describe.skipIf(skip !== undefined)(`the dashboard's layout in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let mock: RunningMock;
  let browser: Browser;

  beforeAll(async () => {
    mock = await startMock({ port: 0, mode: 'engine-only', quiet: true, timeScale: 0.01 });
    const headers = { 'x-api-key': mock.keys.find((k) => k.label === 'all')!.key };
    const patient = ((await (await fetch(`${mock.url}/patients`, { headers })).json()) as { data: Array<{ id: string }> }).data[0]!.id;
    for (const name of [SPOOF, LONG]) {
      const form = new FormData();
      form.append('file', new Blob([makePdf(['a letter']) as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), name);
      const r = await fetch(`${mock.url}/patients/${patient}/documents`, { method: 'POST', headers, body: form });
      expect(r.status, await r.clone().text()).toBe(201);
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  const open = async (width: number): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${mock.controlUrl}/`);
    await page.locator('#document-rows tr', { hasText: 'invoice-' }).waitFor(WAIT);
    return page;
  };

  it('shows bidi and control characters escaped, and keeps the Documents table within 1280 px', async () => {
    const page = await open(1280);
    const cell = page.locator('#document-rows td', { hasText: 'invoice-' });
    expect(await cell.textContent()).toBe('invoice-\\u202efdp.exe');
    expect(await cell.innerText()).not.toContain('\u202E');
    const documents = page.locator('#document-rows').locator('xpath=ancestor::div[@class="scroll"]');
    const [scrollWidth, clientWidth] = await documents.evaluate((d) => [d.scrollWidth, d.clientWidth]);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    await page.close();
  });

  it("reads the log's time column on one line at 390 px", async () => {
    await fetch(`${mock.url}/providers`);
    const page = await open(390);
    const time = page.locator('#journal-rows td.time').first();
    await time.waitFor(WAIT);
    expect(await time.textContent()).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
    // One line box for its text, and nothing cut off.
    const { lines, overflow } = await time.evaluate((td) => {
      const text = document.createRange();
      text.selectNodeContents(td);
      return { lines: text.getClientRects().length, overflow: td.scrollWidth - td.clientWidth };
    });
    expect(lines).toBe(1);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.close();
  });

  it('is usable at 390 px: no table scrolls sideways, a long file name wraps in long lines, a screenshot is kept', async () => {
    await fetch(`${mock.url}/patients`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await fetch(`${mock.controlUrl}/faults`, {
      method: 'POST',
      body: JSON.stringify({ kind: 'drop', path: '/patients/*/documents/**', count: null }),
    });
    const page = await open(390);
    await page.locator('#fault-rows td', { hasText: '/patients/*/documents/**' }).waitFor(WAIT);
    await page.locator('#journal-rows tr').first().waitFor(WAIT);
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      tables: [...document.querySelectorAll('.scroll')]
        .filter((d) => (d as HTMLElement).offsetParent !== null)
        .map((d) => ({ id: d.querySelector('tbody')?.id, over: d.scrollWidth - d.clientWidth })),
    }));
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.tables.length).toBeGreaterThanOrEqual(5);
    for (const t of widths.tables) expect(t.over, t.id).toBeLessThanOrEqual(0);
    // Each cell says its column, as the table's head no longer shows.
    expect(await page.locator('#document-rows td.name').first().getAttribute('data-label')).toBe('file');
    const name = page.locator('#document-rows td.name', { hasText: 'scan_of_the' });
    const { lines, chars } = await name.evaluate((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return { lines: tops.size, chars: td.textContent!.length };
    });
    // Before: three or four characters to a line (225 characters on some 60 lines).
    expect(lines).toBeLessThanOrEqual(Math.ceil(chars / 25));
    mkdirSync(OUT, { recursive: true });
    const file = join(OUT, 'dashboard-390.png');
    await page.screenshot({ path: file, fullPage: true });
    console.log(`dashboard at 390 px: ${file}`);
    await fetch(`${mock.controlUrl}/faults`, { method: 'DELETE' });
    await page.close();
  });

  it('has a skip link past the log, shown when focused, that moves the focus to the next section', async () => {
    const page = await open(1280);
    await page.locator('#journal-clear').focus();
    await page.keyboard.press('Tab');
    const skipLink = page.getByRole('link', { name: 'Skip past the request log' });
    await expect.poll(() => skipLink.evaluate((a) => a === document.activeElement)).toBe(true);
    expect(await skipLink.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('h-documents');
    await page.close();
  });
});
