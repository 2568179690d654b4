// Network faults as the dashboard shows them, in headless Chromium (issue 42, items 2 and 3): armed through the form,
// each listed with its target; a dropped request reads `dropped`, a timed-out one `timed out after 300 ms` with 300 in
// its ms column, a reset one `200 · reset mid-answer`, each with the key's label; the form refuses a hold the API
// would refuse. In --upstream mode the page offers only the kinds that mode accepts (its first preselected) and no
// reset to a seed it does not have.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchBrowser } from '../../../../scripts/testing/chromium.ts';
import { startMock, type RunningMock } from '../../../server.ts';

const skip = chromiumSkipReason();
const WAIT = { timeout: 15_000 };

describe.skipIf(skip !== undefined)(`network faults in the dashboard, headless Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let mock: RunningMock;
  let upstream: RunningMock;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mock = await startMock({ port: 0, mode: 'engine-only', quiet: true });
    upstream = await startMock({ port: 0, quiet: true, upstream: mock.url });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${mock.controlUrl}/`);
  });
  afterAll(async () => {
    await browser?.close();
    await upstream?.close();
    await mock?.close();
  });

  const key = () => mock.keys.find((k) => k.label === 'all')!.key;
  const get = (path: string) => fetch(`${mock.url}${path}`, { headers: { 'x-api-key': key() } });
  const arm = async (kind: string, path: string, fill: Record<string, string> = {}) => {
    await page.selectOption('#fault-kind', kind);
    const form = page.locator('#fault-form');
    await form.locator('input[name="path"]').fill(path);
    for (const [name, value] of Object.entries(fill)) await form.locator(`input[name="${name}"]`).fill(value);
    // Armed once the page's POST has its answer: a request sent before then (a loaded machine) met no fault.
    const armed = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/faults'), WAIT);
    await page.getByRole('button', { name: 'Arm fault' }).click();
    expect((await armed).status()).toBe(201);
  };
  const row = (path: string, fault: string) => page.locator(`#journal-rows tr[data-fault="${fault}"]`, { hasText: path }).first();

  it('lists each armed fault with its target, and each request reads as what the fault did, with its key', async () => {
    await arm('timeout', '/patients', { hold: '300' });
    await page.locator('#fault-rows', { hasText: '* /patients · hold 300 ms' }).waitFor(WAIT);
    await arm('latency', '/providers/*', { latency: '100-200' });
    await page.locator('#fault-rows', { hasText: '* /providers/* · 100-200 ms' }).waitFor(WAIT);
    await fetch(`${mock.controlUrl}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'extraction-fails' }) });
    await page.locator('#fault-rows', { hasText: 'the next extraction runs: failed' }).waitFor(WAIT);
    await fetch(`${mock.controlUrl}/faults`, { method: 'DELETE' });

    await arm('timeout', '/patients', { hold: '300' });
    await get('/patients').catch(() => undefined);
    const timedOut = row('/ext-api/v1/patients', 'timeout');
    await timedOut.waitFor(WAIT);
    expect(await timedOut.locator('td').allTextContents()).toEqual(expect.arrayContaining(['timed out after 300 ms', '300', 'all']));

    await arm('drop', '/providers');
    await get('/providers').catch(() => undefined);
    const dropped = row('/ext-api/v1/providers', 'drop');
    await dropped.waitFor(WAIT);
    expect(await dropped.locator('td').allTextContents()).toEqual(expect.arrayContaining(['dropped', 'all']));

    await arm('reset', '/patients');
    await (await get('/patients')).text().catch(() => undefined);
    const reset = row('/ext-api/v1/patients', 'reset');
    await reset.waitFor(WAIT);
    expect(await reset.locator('td').allTextContents()).toEqual(expect.arrayContaining(['200 · reset mid-answer', 'all']));
  });

  it('offers only values the API accepts: a hold of 0 or a reversed range is refused by the form itself', async () => {
    await fetch(`${mock.controlUrl}/faults`, { method: 'DELETE' });
    await page.selectOption('#fault-kind', 'timeout');
    const hold = page.locator('input[name="hold"]');
    await hold.fill('0');
    expect(await hold.evaluate((i: HTMLInputElement) => i.checkValidity())).toBe(false);
    await hold.fill('120001');
    expect(await hold.evaluate((i: HTMLInputElement) => i.checkValidity())).toBe(false);
    await page.selectOption('#fault-kind', 'latency');
    const latency = page.locator('input[name="latency"]');
    for (const bad of ['800-100', '200000', 'soon']) {
      await latency.fill(bad);
      expect(await latency.evaluate((i: HTMLInputElement) => i.checkValidity()), bad).toBe(false);
    }
    await latency.fill('100-800');
    expect(await latency.evaluate((i: HTMLInputElement) => i.checkValidity())).toBe(true);
    await page.getByRole('button', { name: 'Arm fault' }).click();
    await page.locator('#fault-rows', { hasText: 'latency' }).waitFor(WAIT);
    await fetch(`${mock.controlUrl}/faults`, { method: 'DELETE' });
  });

  it('in --upstream mode offers only the kinds the mode accepts, and no reset to a seed', async () => {
    const up = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await up.goto(`${upstream.controlUrl}/`);
    expect(await up.locator('#reset').count()).toBe(0);
    const kinds = await up.locator('#fault-kind option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(kinds).not.toContain('extraction-fails');
    // Every offered kind is accepted by that mode's API, the preselected one first.
    for (const kind of kinds) {
      const r = await fetch(`${upstream.controlUrl}/faults`, {
        method: 'POST',
        body: JSON.stringify({
          kind,
          status: kind === 'http' ? 503 : undefined,
          method: kind === 'http' ? 'GET' : undefined,
          path: kind === 'http' ? '/x' : undefined,
          ms: kind === 'latency' ? 1 : undefined,
        }),
      });
      expect(r.status, `${kind}: ${await r.clone().text()}`).toBe(201);
    }
    expect(await up.locator('#fault-kind').inputValue()).toBe(kinds[0]);
    await up.getByRole('button', { name: 'Arm fault' }).click();
    await up.locator('#status', { hasText: 'Armed fault' }).waitFor(WAIT);
    await up.close();
  });
});
