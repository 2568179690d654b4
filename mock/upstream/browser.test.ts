// A page in headless Chromium calling the --upstream proxy gets what it gets from the upstream directly (status, body,
// the exposed rate-limit header, the preflight of a JSON POST), and the browser's own HAR of it passes
// `conformance --har`; the proxy's dashboard shows the violations of a
// broken upstream in its column, filters on them, and offers the journal as HAR. One short test.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as conformance } from '../../conformance/cli.ts';
import { chromiumSkipReason, launchBrowser } from '../../scripts/testing/chromium.ts';
import { serveOnLoopback, startBrokenProxy } from '../../conformance/testing/broken-proxy.ts';
import { variants } from '../../conformance/testing/variants.ts';
import { startMock, type RunningMock } from '../server.ts';

const skip = chromiumSkipReason();
const WAIT = { timeout: 10_000 };
const dir = mkdtempSync(join(tmpdir(), 'upstream-browser-'));

describe.skipIf(skip !== undefined)(`--upstream from a page in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let upstream: RunningMock;
  let clean: RunningMock;
  let judged: RunningMock;
  let broken: { origin: string; close(): Promise<void> };
  let site: { origin: string; close(): Promise<void> };
  let browser: Browser;

  beforeAll(async () => {
    upstream = await startMock({ mode: 'engine-only', port: 0, quiet: true });
    clean = await startMock({ upstream: upstream.url, port: 0, quiet: true });
    const rateHeader = variants({ main: '', scoped: [], otherOrg: '', expired: '' }).find((v) => v.rule === 'RATE-001')!;
    broken = await startBrokenProxy(new URL(upstream.url).origin, rateHeader);
    judged = await startMock({ upstream: `${broken.origin}/ext-api/v1`, port: 0, quiet: true });
    // The app's page, served from a loopback origin of its own (the mock lets such pages read the API).
    site = await serveOnLoopback(
      createServer((_q, s) => s.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>')),
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    for (const s of [site, judged, broken, clean, upstream]) await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the page as the upstream does, and the dashboard shows, filters and exports the violations', async () => {
    // The page's traffic recorded as the browser writes HAR (Playwright's recorder over Chromium's network events).
    const har = join(dir, 'browser.har');
    const context = await browser.newContext({ recordHar: { path: har, content: 'embed' } });
    const page = await context.newPage();
    await page.goto(`${site.origin}/`);
    const key = upstream.keys.find((k) => k.label === 'all')!.key;
    const call = (base: string) =>
      page.evaluate(
        async ([base, key]) => {
          const list = await fetch(`${base}/providers`, { headers: { 'X-API-Key': key } });
          const post = await fetch(`${base}/patients`, {
            method: 'POST',
            headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
            body: JSON.stringify({ first_name: 'Ada' }),
          });
          const created = await post.json();
          return {
            list: list.status,
            limit: list.headers.get('X-RateLimit-Limit'),
            providers: await list.json(),
            post: post.status,
            name: created.data?.first_name,
          };
        },
        [base, key] as const,
      );
    const direct = await call(upstream.url);
    expect(direct).toMatchObject({ list: 200, limit: expect.stringMatching(/^\d+$/), post: 201, name: 'Ada' });
    expect(await call(clean.url)).toEqual(direct);
    await context.close();
    const out = join(dir, 'report');
    expect(
      await conformance(
        ['--har', har, '--reporter', 'json', '--out', out],
        () => {},
        () => {},
      ),
    ).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.results.find((r: { name: string }) => r.name === 'rate_limit_headers')).toMatchObject({
      outcome: 'passed',
      assertions: 4,
    });

    await fetch(`${judged.url}/providers`, { headers: { 'x-api-key': key } });
    await fetch(`${judged.url}/patients`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{"first_name":"A","x":1}',
    });
    await fetch(`${judged.url}/reports`, { method: 'PUT', headers: { 'x-api-key': key } }); // no operation of the contract
    const dashboard = await browser.newPage();
    await dashboard.goto(`${judged.controlUrl}/`);
    const rows = dashboard.locator('#journal-rows tr:not(.detail)');
    await rows.nth(2).waitFor(WAIT);
    expect(await dashboard.locator('#journal-rows tr[data-method="GET"]').textContent()).toContain('1 RATE-001');
    expect(await dashboard.locator('#journal-rows tr[data-method="PUT"]').textContent()).toContain('not judged');
    await dashboard.selectOption('select[name="violations"]', 'request');
    await expect.poll(() => dashboard.locator('#journal-rows tr:not(.detail):visible').count(), WAIT).toBe(1);
    expect(await dashboard.locator('#journal-rows tr:not(.detail):visible').textContent()).toContain('GEN-010');
    expect(await dashboard.locator('#journal-har').getAttribute('href')).toBe('/__mock/requests.har');
    expect(await dashboard.locator('#h-documents').isVisible()).toBe(false);
  });
});
