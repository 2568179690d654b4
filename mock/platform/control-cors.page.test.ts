// Scoped faults from a page (issue 42, item 1), in headless Chromium: the app's page, served from another loopback
// port, arms a fault for its own scope through the control API (a JSON POST: preflighted), sends API requests with
// X-Mock-Fault-Scope (preflighted too) and reads every answer; a page of a non-loopback origin that --cors-origin lets
// read the API still cannot read the control API (the loopback rule stays). Nothing leaves loopback (`*.test` names
// are mapped to 127.0.0.1 by --host-resolver-rules).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchBrowser } from '../../scripts/testing/chromium.ts';
import { type MockMode, startMock, type RunningMock } from '../server.ts';

const skip = chromiumSkipReason();

/** What the page's fetch got: the status and body text, or the error a page sees. */
type Seen = { status: number; body: string } | { error: string };

function fromPage(page: Page, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return page.evaluate(
    async ([u, i]) => {
      try {
        const r = await fetch(u, i);
        return { status: r.status, body: await r.text() };
      } catch (e) {
        return { error: String(e) };
      }
    },
    [url, init] as const,
  ) as Promise<Seen>;
}

describe.skipIf(skip !== undefined).each<MockMode>(['default', 'engine-only'])(
  `scoped faults from a page on another port, %s mode${skip ? ` (skipped: ${skip})` : ''}`,
  (mode) => {
    let mock: RunningMock;
    let site: Server;
    let browser: Browser;
    let page: Page;
    let foreign: Page;

    beforeAll(async () => {
      site = createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title><p>app</p>');
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      const port = (site.address() as AddressInfo).port;
      // The foreign page's exact origin is allowed for the API, so only the control API's loopback rule refuses it.
      mock = await startMock({ port: 0, mode, strict: mode === 'default', quiet: true, corsOrigins: [`http://app.test:${port}`] });
      browser = await launchBrowser({ args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] });
      page = await browser.newPage();
      await page.goto(`http://localhost:${port}/`);
      foreign = await browser.newPage();
      await foreign.goto(`http://app.test:${port}/`);
    });
    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => site?.close(resolve));
      await mock?.close();
    });

    const key = () => mock.keys.find((k) => k.label === 'all')!.key;

    it('arms a scoped fault, takes it with the scope header, lists and clears it: every answer readable', async () => {
      const armed = await fromPage(page, `${mock.controlUrl}/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'rate-limited', scope: 'page-1', count: 1 }),
      });
      expect(armed).toMatchObject({ status: 201 });
      // Another user's request (no scope) is not touched; the page's own scoped request gets the 429 and reads it.
      expect(await fromPage(page, `${mock.url}/providers`, { headers: { 'X-API-Key': key() } })).toMatchObject({ status: 200 });
      const hit = await fromPage(page, `${mock.url}/providers`, { headers: { 'X-API-Key': key(), 'X-Mock-Fault-Scope': 'page-1' } });
      expect(hit).toMatchObject({ status: 429 });
      expect(JSON.parse((hit as { body: string }).body).error).toMatch(/Rate limit exceeded/);
      await fromPage(page, `${mock.controlUrl}/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'http', method: 'GET', path: '/patients', status: 503, scope: 'page-1', count: null }),
      });
      const listed = await fromPage(page, `${mock.controlUrl}/faults`);
      expect(JSON.parse((listed as { body: string }).body).data).toEqual([expect.objectContaining({ kind: 'http', scope: 'page-1' })]);
      expect(await fromPage(page, `${mock.controlUrl}/faults?scope=page-1`, { method: 'DELETE' })).toMatchObject({ status: 200 });
      expect(JSON.parse(((await fromPage(page, `${mock.controlUrl}/faults`)) as { body: string }).body).data).toEqual([]);
    });

    it('a page of an origin --cors-origin allows for the API still cannot read the control API', async () => {
      expect(await fromPage(foreign, `${mock.url}/providers`, { headers: { 'X-API-Key': key() } })).toMatchObject({ status: 200 });
      expect(await fromPage(foreign, `${mock.controlUrl}/faults`)).toEqual({ error: 'TypeError: Failed to fetch' });
      const post = await fromPage(foreign, `${mock.controlUrl}/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'rate-limited' }),
      });
      expect(post).toEqual({ error: 'TypeError: Failed to fetch' });
      const armed = (await (await fetch(`${mock.controlUrl}/faults`)).json()) as { data: unknown[] };
      expect(armed.data).toEqual([]);
    });
  },
);
