// The in-process mock in a real browser: the page (testing/page.ts) is bundled by esbuild for the browser (no Node
// built-in may reach the bundle), headless Chromium runs its scenario through the typed client against createMock()
// (create, duplicate 409, list, upload, wait for extraction, regenerate) and the test reads each outcome from the DOM;
// a screenshot is written under test-output/ (its path is printed). Without Chromium: a skip, an error when CI=true.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, runChromium } from '../../scripts/testing/chromium.ts';
import { makePdf } from '../features/documents/sample-files.ts';

const OUT = fileURLToPath(new URL('../../test-output/browser-mock/', import.meta.url));
const skip = chromiumSkipReason();
let bundleBytes = 0;

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./testing/page.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    minify: true,
    metafile: true,
    outfile: `${OUT}page.js`,
    logLevel: 'silent',
  });
  expect(Object.keys(result.metafile.inputs).filter((f) => f.startsWith('node:'))).toEqual([]);
  bundleBytes = result.metafile.outputs[Object.keys(result.metafile.outputs)[0]!]!.bytes;
  const pdf = Buffer.from(makePdf(['Referral letter', 'to the clinic'])).toString('base64');
  writeFileSync(
    `${OUT}index.html`,
    `<!doctype html><meta charset="utf-8"><title>in-process mock</title><style>body{font:14px sans-serif;margin:2em}th{text-align:left;padding-right:1em}pre{white-space:pre-wrap;word-break:break-all;color:#555}</style>` +
      `<body data-pdf="${pdf}"><h1>clinical-records-mock in the page</h1><table id="steps"></table><pre id="result"></pre><script src="page.js"></script></body>`,
  );
}, 60_000);

describe.skipIf(skip !== undefined)(`createMock in headless Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const url = () => pathToFileURL(`${OUT}index.html`).href;

  it('runs create / 409 / list / upload / extraction / regenerate through the typed client and shows them', async () => {
    const r = await runChromium(['--virtual-time-budget=600000', '--dump-dom', url()], 90_000);
    const json = /<pre id="result">([^<]*)<\/pre>/.exec(r.stdout)?.[1];
    expect(json, `no result in the DOM: ${r.stderr.slice(-800)}`).toBeTruthy();
    const { steps, error } = JSON.parse(json!.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as {
      steps: Array<{ step: string; outcome: Record<string, unknown> }>;
      error: string | null;
    };
    expect(error).toBeNull();
    const by = Object.fromEntries(steps.map((s) => [s.step, s.outcome]));
    expect(by.create).toMatchObject({ id: expect.stringMatching(/^\d{19}$/), name: 'Paige Browser' });
    expect(by.duplicate).toEqual({ status: 409, existing: by.create!.id });
    expect(by.list).toMatchObject({ status: 200, items: 5, remaining: expect.any(Number) });
    expect(by.upload).toEqual({ status: 'pending', file_type: 'application/pdf' });
    expect(by.extraction).toEqual({ status: 'completed', extracted_text_length: 'Referral letter to the clinic'.length, error: null });
    expect(by.regenerate).toEqual({ status: 'queued' });
    console.log(`browser bundle: ${(bundleBytes / 1024).toFixed(0)} KiB minified (${OUT}page.js)`);
  }, 120_000);

  it('takes a screenshot of the page once the scenario has run', async () => {
    const file = `${OUT}screenshot.png`;
    const r = await runChromium(
      ['--virtual-time-budget=600000', `--screenshot=${file}`, '--window-size=1000,700', '--hide-scrollbars', url()],
      90_000,
    );
    expect(r.code).toBe(0);
    console.log(`screenshot: ${file}`);
  }, 120_000);
});
