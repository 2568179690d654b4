// The dashboard as a person uses it, in headless Chromium (scripts/testing/chromium.ts: skipped with the reason when
// Chromium is missing, an error when CI=true): a refused request appears with its 400 and the details naming the field;
// a rate-limited fault armed through the form shows on the next request's 429 row; a loopback receiver's delivery
// appears; no request leaves for another host. The screenshot is kept under test-output/ (printed); with
// DASHBOARD_SCREENSHOT=docs it also replaces docs/dashboard.png, the README's picture.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchBrowser } from '../../../../scripts/testing/chromium.ts';
import { startReceiver, type Receiver } from '../../../../spec/runtime/webhook-receiver.ts';
import { startMock, type RunningMock } from '../../../server.ts';
import { apiReferenceHtml } from './api-reference.ts';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const OUT = join(ROOT, 'test-output', 'dashboard');
const skip = chromiumSkipReason();
const WAIT = { timeout: 15_000 };

describe.skipIf(skip !== undefined)(`the dashboard in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let mock: RunningMock;
  let rcv: Receiver;
  let browser: Browser;
  let page: Page;
  const elsewhere: string[] = [];

  beforeAll(async () => {
    mock = await startMock({ port: 0, strict: true, quiet: true, timeScale: 0.01, allowPrivateWebhooks: true });
    rcv = await startReceiver();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const origin = new URL(mock.controlUrl).origin;
    page.on('request', (r) => {
      if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await rcv?.close();
    await mock?.close();
  });

  const key = () => mock.seed.keys.find((k) => k.label === 'all')!.key;
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${mock.url}${path}`, {
      method,
      headers: { 'x-api-key': key(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const control = (path: string, body?: unknown) =>
    fetch(
      `${mock.controlUrl}${path}`,
      body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );

  it('shows the keys, and a refused request with its 400 and the details naming the unknown field', async () => {
    await page.goto(`${mock.controlUrl}/`);
    expect(await page.title()).toContain('dashboard');
    expect(await page.locator('button[data-copy]').count()).toBe(mock.keys.length);
    const r = await api('POST', '/patients', { first_name: 'Ada', last_name: 'Lovelace', favourite_colour: 'green' });
    expect(r.status).toBe(400);
    const row = page.locator('#journal-rows tr[data-status="400"]', { hasText: '/ext-api/v1/patients' }).first();
    await row.waitFor(WAIT);
    // Opened from the keyboard: the row's request is a button.
    await row.getByRole('button').focus();
    await page.keyboard.press('Enter');
    const details = page.locator('#journal-rows dl.details');
    await details.waitFor(WAIT);
    expect(await details.locator('dt').allTextContents()).toContain('favourite_colour');
    expect(await page.locator('#journal-rows pre').first().textContent()).toContain('"favourite_colour": "green"');
    expect(await page.locator('#journal-rows tr.detail').textContent()).toContain('$CLINICAL_RECORDS_KEY');
    expect(await page.locator('#journal-rows').textContent()).not.toContain(key());
  });

  it('arms a rate-limited fault through the form, and the next request shows as a 429', async () => {
    await page.selectOption('#fault-kind', 'rate-limited');
    await page.getByLabel('count (empty: until cleared)').fill('1');
    await page.getByRole('button', { name: 'Arm fault' }).click();
    await page.locator('#fault-rows', { hasText: 'rate-limited' }).waitFor(WAIT);
    expect(((await (await control('/faults')).json()) as { data: Array<{ kind: string }> }).data.map((f) => f.kind)).toEqual([
      'rate-limited',
    ]);
    expect((await api('GET', '/providers')).status).toBe(429);
    await page.locator('#journal-rows tr[data-status="429"]', { hasText: '/ext-api/v1/providers' }).waitFor(WAIT);
    await page.locator('#fault-rows', { hasText: 'none' }).waitFor(WAIT); // the fault was used up
  });

  it('arms a latency fault with a range through the form, aimed at one method and path', async () => {
    await page.selectOption('#fault-kind', 'latency');
    await page.getByLabel('ms (300, or a range 100-800)').fill('150-250');
    const form = page.locator('#fault-form');
    await form.getByLabel('method').selectOption('GET');
    await form.getByLabel('path').fill('/providers');
    await page.getByRole('button', { name: 'Arm fault' }).click();
    await page.locator('#fault-rows', { hasText: 'latency' }).waitFor(WAIT);
    const armed = ((await (await control('/faults')).json()) as { data: Array<Record<string, unknown>> }).data;
    expect(armed).toEqual([expect.objectContaining({ kind: 'latency', method: 'GET', path: '/providers', ms: [150, 250] })]);
    const t0 = performance.now();
    expect((await api('GET', '/providers')).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(145);
    await fetch(`${mock.controlUrl}/faults`, { method: 'DELETE' });
  });

  it("shows a loopback receiver's delivery with its attempt", async () => {
    const reg = await control('/webhooks', { name: 'browser test', url: rcv.url, event: 'NOTE_CREATED' });
    expect(reg.status, await reg.clone().text()).toBe(201);
    const sessions = (
      (await (await control('/sessions')).json()) as { data: Array<{ id: string; has_note: boolean; organization_id: string }> }
    ).data;
    const open = sessions.find((s) => !s.has_note && s.organization_id === mock.organizations[0]!.id)!;
    expect((await control(`/sessions/${open.id}/finalize`, {})).status).toBe(201);
    await rcv.waitFor(1, 10_000);
    const delivered = page.locator('#webhook-rows li[data-state="delivered"]', { hasText: 'NOTE_CREATED' });
    await delivered.waitFor(WAIT);
    expect(await delivered.textContent()).toMatch(/1 attempt\(s\): 200 in [\d.]+ ms/);
  });

  it('keeps a screenshot, and the page asked no other host for anything', async () => {
    mkdirSync(OUT, { recursive: true });
    const file = join(OUT, 'dashboard.png');
    await page.screenshot({ path: file, fullPage: true });
    console.log(`dashboard screenshot: ${file}`);
    if (process.env.DASHBOARD_SCREENSHOT === 'docs') copyFileSync(file, join(ROOT, 'docs', 'dashboard.png'));
    expect(elsewhere).toEqual([]);
  });

  it('links the API reference: rendered offline when built, else a 404 that says how to build it', async () => {
    await page.goto(`${mock.controlUrl}/`);
    await page.getByRole('link', { name: 'API reference' }).click();
    const body = await page.locator('body').textContent();
    if (apiReferenceHtml()) {
      await page.getByText('External Clinical Records API').first().waitFor(WAIT);
      await page.waitForLoadState('networkidle', WAIT);
      expect(elsewhere).toEqual([]);
    } else expect(body).toContain('npm run build');
  });
});
