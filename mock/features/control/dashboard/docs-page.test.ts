// /__mock/docs as built (issue 32, item 7): opened, clicked through and left in headless Chromium, the page asks
// nothing of anyone but for itself (Redoc's telemetry, which posted traces on leaving, is off: counted by the server,
// since a beacon sent while a page unloads escapes the browser's request events) and every image on it has loaded
// (Redoc's "API docs by" logo was a broken image offline). Skipped with the reason when the page was not built.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchBrowser } from '../../../../scripts/testing/chromium.ts';
import { API_REFERENCE_HEADERS, apiReferenceHtml } from './api-reference.ts';

const page = apiReferenceHtml();
const skip = chromiumSkipReason() ?? (page ? undefined : 'dist/api-reference.html is not built: run `npm run build`');

describe.skipIf(skip !== undefined)(`/__mock/docs in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: Server;
  let browser: Browser;
  let origin: string;
  const asked: string[] = [];

  beforeAll(async () => {
    // The page with the headers the mock serves it with, on a loopback server that counts every request.
    server = createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      req.resume();
      if (req.url === '/__mock/docs') res.writeHead(200, API_REFERENCE_HEADERS).end(page);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('sends no telemetry and asks for nothing else, and shows no broken image', async () => {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await tab.goto(`${origin}/__mock/docs`);
    await tab.getByText('Patients').first().click();
    const logo = tab.getByRole('img', { name: 'redocly logo' });
    await logo.waitFor({ timeout: 15_000 });
    const images = await tab.evaluate(() => [...document.images].map((i) => ({ alt: i.alt, loaded: i.complete && i.naturalWidth > 0 })));
    expect(images.length).toBeGreaterThan(0);
    expect(images.filter((i) => !i.loaded)).toEqual([]);
    expect(await tab.locator('body').textContent()).toContain('API docs by');
    await tab.goto('about:blank'); // leaving is when Redoc flushed its traces
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await tab.close();
    expect(asked).toEqual(['GET /__mock/docs']);
  });
});
