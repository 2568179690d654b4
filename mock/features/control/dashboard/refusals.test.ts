// Refusals a browser hides, seen through real pages in headless Chromium (issue 32, item 2): pages served from names
// other than localhost (`*.test`, mapped to 127.0.0.1 by Chromium's --host-resolver-rules: nothing leaves loopback).
// A page of app.test calling the API gets only "Failed to fetch" (its preflight refused, a simple request's answer
// unreadable) and one calling the control API a 403 it cannot read; a page loaded as rebind.test (DNS rebinding) gets
// the 403 naming --allowed-host. Each appears in the dashboard with its reason and flag, the log's filter finds them,
// and the terminal printed one line per origin or host, however often each was refused.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchBrowser } from '../../../../scripts/testing/chromium.ts';
import { startMock, type RunningMock } from '../../../server.ts';

const skip = chromiumSkipReason();
const WAIT = { timeout: 15_000 };

describe.skipIf(skip !== undefined)(
  `refusals through a page of another name, in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let mock: RunningMock;
    let site: Server;
    let browser: Browser;
    let app: Page;
    let pageOrigin: string;
    let mockPort: number;
    const lines: string[] = [];

    beforeAll(async () => {
      mock = await startMock({ port: 0, strict: true, onRefusal: (l) => lines.push(l) });
      mockPort = Number(new URL(mock.url).port);
      // The app's page: a blank document on a loopback port of its own, reached as app.test.
      site = createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title><p>app</p>');
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      pageOrigin = `http://app.test:${(site.address() as AddressInfo).port}`;
      browser = await launchBrowser({ args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] });
      app = await browser.newPage();
      await app.goto(`${pageOrigin}/`);
    });
    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => site?.close(resolve));
      await mock?.close();
    });

    /** A fetch from the app's page: what the page gets to see ("Failed to fetch" when refused). */
    const fromPage = (url: string, headers: Record<string, string> = {}) =>
      app.evaluate(
        async ([u, h]) => {
          try {
            const r = await fetch(u, { headers: h });
            return `status ${r.status}`;
          } catch (e) {
            return String(e);
          }
        },
        [url, headers] as const,
      );

    it('a page of another origin sees only "Failed to fetch"; the dashboard shows why and the flag that allows it', async () => {
      const key = mock.keys.find((k) => k.label === 'all')!.key;
      for (let i = 0; i < 2; i++) {
        expect(await fromPage(`${mock.url}/patients`, { 'X-API-Key': key })).toBe('TypeError: Failed to fetch'); // preflight refused
        expect(await fromPage(`${mock.url}/providers`)).toBe('TypeError: Failed to fetch'); // answered, unreadable
        expect(await fromPage(`${mock.controlUrl}/keys`)).toBe('TypeError: Failed to fetch'); // the control API refuses it
      }
      const dash = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
      await dash.goto(`${mock.controlUrl}/`);
      const flag = `--cors-origin ${pageOrigin}`;
      const preflight = dash.locator('#journal-rows tr[data-refused="cors"][data-method="OPTIONS"]').first();
      await preflight.waitFor(WAIT);
      expect(await preflight.textContent()).toContain(flag);
      const unreadable = dash
        .locator('#journal-rows tr[data-refused="cors"][data-method="GET"]', { hasText: '/ext-api/v1/providers' })
        .first();
      expect(await unreadable.textContent()).toContain('hides this answer');
      const control = dash.locator('#journal-rows tr[data-refused="front"]', { hasText: '/__mock/keys' }).first();
      expect(await control.textContent()).toContain(`pages of other origins (${pageOrigin})`);
      // Opened: the reason, the flag and a button to copy it.
      await preflight.getByRole('button').click();
      const detail = dash.locator('#journal-rows tr.detail').first();
      expect(await detail.textContent()).toContain(`Start the mock with ${flag} to allow it.`);
      await dash.close();
    });

    it('a page loaded by a name that points at the mock (DNS rebinding) gets a 403 naming --allowed-host', async () => {
      const rebound = await browser.newPage();
      for (let i = 0; i < 2; i++) {
        const r = await rebound.goto(`http://rebind.test:${mockPort}/ext-api/v1/patients`);
        expect(r?.status()).toBe(403);
        expect(await rebound.locator('body').textContent()).toContain('--allowed-host rebind.test');
      }
      // The control API refuses that name too, whatever --allowed-host says.
      expect((await rebound.goto(`http://rebind.test:${mockPort}/__mock/`))?.status()).toBe(403);
      await rebound.close();
      const dash = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
      await dash.goto(`${mock.controlUrl}/`);
      const row = dash.locator('#journal-rows tr[data-refused="host"]').first();
      await row.waitFor(WAIT);
      expect(await row.textContent()).toContain('--allowed-host rebind.test');
      // The log's filter: refused requests only, then one method, then part of the path.
      await dash.locator('#journal-filter select[name="status"]').selectOption('refused');
      const visible = dash.locator('#journal-rows tr:not(.detail):visible');
      expect(await visible.count()).toBeGreaterThanOrEqual(4);
      for (const r of await visible.all()) expect(await r.getAttribute('data-refused')).not.toBeNull();
      await dash.locator('#journal-filter select[name="method"]').selectOption('OPTIONS');
      expect(await visible.count()).toBe(2);
      await dash.locator('#journal-filter select[name="method"]').selectOption('');
      await dash.locator('#journal-filter input[name="path"]').fill('/__MOCK/KEYS');
      expect(await visible.count()).toBe(2);
      expect(await dash.locator('#journal-shown').textContent()).toMatch(/^2 of \d+ rows match the filter$/);
      await dash.close();
    });

    it('printed one terminal line per refused origin or host, with the flag', () => {
      expect(lines).toEqual([
        `refused: Origin ${pageOrigin} may not read API answers: its CORS preflight was refused; to allow it: --cors-origin ${pageOrigin}`,
        `refused: The control API refuses requests from web pages of other origins (${pageOrigin})`,
        `refused: Host "rebind.test:${mockPort}" is not allowed: the mock answers localhost, IP addresses and its --host value (DNS rebinding protection); to allow it: --allowed-host rebind.test`,
        expect.stringMatching(
          /^refused: The control API answers only requests addressed to a loopback host .* Host "rebind\.test:\d+" is refused$/,
        ),
      ]);
    });
  },
);
