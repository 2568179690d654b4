// MSW's setupWorker in a real browser: the page (testing/worker-page.ts, bundled by esbuild for the browser) starts an
// in-process mock behind MSW's service worker, then calls the API with plain fetch and the typed client (global fetch):
// create, duplicate 409, list with the rate-limit headers, a multipart upload and its extraction, a fault armed
// through the control API, a webhook delivered to the page's own handler. The page, its bundle and MSW's
// mockServiceWorker.js (served from the installed msw, never copied into the tree) come from a loopback static server
// on a free port (a service worker needs a secure context: http://127.0.0.1 is one). Run twice: the API on the page's
// origin, and on another loopback origin (as the app's configured API URL, the default 127.0.0.1:4010, is), where a
// second server listens and records anything that reaches it: a CORS preflight or a request the worker let through.
// The test reads each outcome from the DOM, checks that every API response came from the service worker, and keeps
// screenshots under test-output/browser-worker/ (printed). Without Chromium: a skip, an error when CI=true.
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchBrowser } from '../../scripts/testing/chromium.ts';
import { makePdf } from '../features/documents/sample-files.ts';

const OUT = fileURLToPath(new URL('../../test-output/browser-worker/', import.meta.url));
const skip = chromiumSkipReason();
const TEXT = ['Referral letter', 'via the worker'];

/** The static files, and every other request a server got (an API request or a preflight that escaped the worker). */
let files: Map<string, { type: string; body: Buffer }>;
const strays: string[] = [];
const servers: Server[] = [];
let origin = '';
let apiOrigin = '';
let browser: Browser | undefined;

/** A loopback server on a free port, answering `files` (the page's origin) or nothing (the API's origin). */
async function serve(withFiles: boolean): Promise<string> {
  const server = createServer((req, res) => {
    const file = withFiles ? files.get(new URL(req.url ?? '/', 'http://x').pathname) : undefined;
    if (!file) strays.push(`${req.method} ${req.headers.host}${req.url}`);
    res.writeHead(file ? 200 : 404, { 'content-type': file?.type ?? 'text/plain', 'cache-control': 'no-store' }).end(file?.body);
  });
  servers.push(server);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  if (skip) return;
  mkdirSync(OUT, { recursive: true });
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./testing/worker-page.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const pdf = Buffer.from(makePdf(TEXT)).toString('base64');
  const html =
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>setupWorker</title><style>body{font:14px sans-serif;margin:2em}th{text-align:left;padding-right:1em}pre{white-space:pre-wrap;word-break:break-all;color:#555}</style>` +
    `<body data-pdf="${pdf}"><h1>clinical-records-mock/msw: setupWorker in the page</h1><table id="steps"></table><pre id="result"></pre><script src="/page.js"></script></body>`;
  const js = 'text/javascript; charset=utf-8';
  files = new Map([
    ['/', { type: 'text/html; charset=utf-8', body: Buffer.from(html) }],
    ['/page.js', { type: js, body: Buffer.from(bundle.outputFiles[0]!.contents) }],
    ['/mockServiceWorker.js', { type: js, body: readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')) }],
  ]);
  origin = await serve(true);
  apiOrigin = await serve(false);
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

type Outcome = Record<string, unknown>;

/** Loads the page in a fresh context (its own service worker registration) and returns the steps from the DOM. */
async function run(baseUrl: string, shot: string) {
  const context = await browser!.newContext({ viewport: { width: 1100, height: 760 } });
  const api: Array<{ url: string; fromWorker: boolean }> = [];
  const consoleLines: string[] = [];
  try {
    const page = await context.newPage();
    page.on('console', (m) => consoleLines.push(m.text()));
    page.on('response', (r) => {
      if (/\/(ext-api\/v1|__mock)(\/|$)/.test(r.url())) api.push({ url: r.url(), fromWorker: r.fromServiceWorker() });
    });
    await page.goto(`${origin}/?base=${encodeURIComponent(baseUrl)}`, { timeout: 15_000 });
    await page.locator('body[data-done="true"]').waitFor({ timeout: 90_000 });
    const { steps, error } = JSON.parse((await page.locator('#result').textContent())!) as {
      steps: Array<{ step: string; outcome: Outcome }>;
      error: string | null;
    };
    expect(await page.locator('#steps tr').count()).toBe(steps.length);
    const file = `${OUT}${shot}`;
    await page.screenshot({ path: file, fullPage: true, timeout: 15_000 });
    console.log(`screenshot: ${file}`);
    if (error) throw new Error(`the page failed after ${steps.length} steps: ${error}`);
    // MSW's console line for the dropped request says network error (it read "200 OK": issue 42).
    const dropLines = consoleLines.filter((l) => /GET .*\/providers/.test(l) && !/\/providers\//.test(l));
    console.log(`MSW console for GET /providers: ${JSON.stringify(dropLines)} of ${consoleLines.length}`);
    expect(dropLines).toEqual([expect.stringMatching(/GET \S+\/providers \(%cnetwork error%c\)/)]);
    return { by: Object.fromEntries(steps.map((s) => [s.step, s.outcome])), error, api };
  } finally {
    await context.close();
  }
}

/** What holds wherever the API is: every rule answered in the page, headers readable, bodies intact both ways. */
function expectScenario(by: Record<string, Outcome>, api: Array<{ url: string; fromWorker: boolean }>) {
  expect(by.health).toEqual({ http: 200, status: 'ok', mode: 'in-process', time_scale: 0.001 });
  expect(by['no key']).toEqual({ status: 401 });
  expect(by.create).toEqual({
    status: 201,
    id: expect.stringMatching(/^\d{19}$/),
    name: 'Wendy Worker',
    rate: { limit: '1200', remaining: expect.stringMatching(/^\d+$/), reset: true },
    // Readable with no CORS header: no Origin reaches the engine through the worker, and the page reads every header.
    cors: null,
  });
  expect(by.duplicate).toEqual({ status: 409, existing: by.create!.id });
  expect(by['client duplicate']).toEqual({ status: 409, existing: by.create!.id });
  expect(by.list).toMatchObject({ status: 200, items: 5, rate: { limit: 1200, remaining: expect.any(Number) } });
  expect(by.extraction).toEqual({ status: 'completed', extracted_text_length: TEXT.join(' ').length });
  expect(by.fault).toEqual({ armed: 201, status: 429, retryAfter: expect.stringMatching(/^\d+$/) });
  expect(by.drop).toEqual({ seen: 'TypeError: Failed to fetch' });
  expect(by.webhook).toEqual({ registered: 201, deliveries: 1, named: true });
  expect(api.length).toBeGreaterThan(10);
  expect(api.filter((r) => !r.fromWorker)).toEqual([]);
  expect(strays).toEqual([]);
}

describe.skipIf(skip !== undefined)(
  `setupWorker(...clinicalRecordsHandlers(mock)) in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    it("answers the page's fetch calls with the API on the page's own origin", async () => {
      const { by, api } = await run(`${origin}/ext-api/v1`, 'screenshot.png');
      expect(by.base).toEqual({ baseUrl: `${origin}/ext-api/v1`, sameOrigin: true });
      expectScenario(by, api);
    }, 120_000);

    it('answers them with the API on another origin: no preflight, nothing reaches that origin', async () => {
      const { by, api } = await run(`${apiOrigin}/ext-api/v1`, 'screenshot-other-origin.png');
      expect(by.base).toEqual({ baseUrl: `${apiOrigin}/ext-api/v1`, sameOrigin: false });
      expectScenario(by, api);
    }, 120_000);
  },
);
