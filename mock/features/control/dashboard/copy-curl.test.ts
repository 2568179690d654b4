// "Copy as curl" reproduces an upload (issue 42, item 4), in headless Chromium: a multipart upload with an external_id
// is opened in the dashboard, its curl line is run by sh with the real curl beside a copy of the file (the key from
// $CLINICAL_RECORDS_KEY, as the line reads it) after the first document was deleted, and the mock stores the same
// document again: same name, size, type and external_id. The journal shows the form's fields and file name, never
// the bytes.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchBrowser } from '../../../../scripts/testing/chromium.ts';
import { makePdf } from '../../documents/sample-files.ts';
import { startMock, type RunningMock } from '../../../server.ts';

const skip = chromiumSkipReason();
const WAIT = { timeout: 15_000 };
const NAME = "referral letter (Ada's).pdf";

const hasCurl = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v curl']);
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(skip !== undefined || !hasCurl)(
  `copy as curl of an upload, headless Chromium${skip ? ` (skipped: ${skip})` : hasCurl ? '' : ' (skipped: no curl)'}`,
  () => {
    let mock: RunningMock;
    let browser: Browser;
    const dir = mkdtempSync(join(tmpdir(), 'copy-curl-'));

    beforeAll(async () => {
      mock = await startMock({ port: 0, mode: 'engine-only', quiet: true, timeScale: 0.01 });
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await mock?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('sends the same multipart form again: the document is stored again as it was', async () => {
      const key = mock.keys.find((k) => k.label === 'all')!.key;
      const headers = { 'x-api-key': key };
      const patient = ((await (await fetch(`${mock.url}/patients`, { headers })).json()) as { data: Array<{ id: string }> }).data[0]!.id;
      const pdf = makePdf(['a referral letter']);
      const form = new FormData();
      form.append('external_id', 'scan-7');
      form.append('file', new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), NAME);
      const first = (await (await fetch(`${mock.url}/patients/${patient}/documents`, { method: 'POST', headers, body: form })).json()) as {
        data: { id: string; filename: string; file_size: number; file_type: string; external_id: string };
      };
      expect(first.data.external_id).toBe('scan-7');

      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${mock.controlUrl}/`);
      const row = page.locator('#journal-rows tr[data-method="POST"]', { hasText: '/documents' }).first();
      await row.waitFor(WAIT);
      await row.getByRole('button').click();
      const curl = (await page.locator('#journal-rows tr.detail pre').last().textContent())!;
      await page.close();
      expect(curl).toContain('--form-string');
      expect(curl).not.toContain('Content-Type: multipart');

      // The first one deleted (its external_id is unique), the copied line sent again beside the file.
      expect((await fetch(`${mock.url}/patients/${patient}/documents/${first.data.id}`, { method: 'DELETE', headers })).status).toBe(200);
      writeFileSync(join(dir, NAME), pdf);
      // Asynchronously: the mock answers in this process.
      const { stdout: out } = await promisify(execFile)('sh', ['-c', curl.replace(/^curl /, 'curl -sS ')], {
        cwd: dir,
        env: { ...process.env, CLINICAL_RECORDS_KEY: key },
        encoding: 'utf8',
        timeout: 15_000,
      });
      const again = JSON.parse(out) as { data: typeof first.data };
      const { id: _a, ...was } = first.data;
      const { id: _b, ...now } = again.data;
      expect({ filename: now.filename, file_size: now.file_size, file_type: now.file_type, external_id: now.external_id }).toEqual({
        filename: was.filename,
        file_size: was.file_size,
        file_type: was.file_type,
        external_id: was.external_id,
      });
      const journal = (await (await fetch(`${mock.controlUrl}/requests?limit=1&path=/documents`)).json()) as {
        data: Array<{ request: { form?: unknown; body: unknown } }>;
      };
      expect(journal.data[0]!.request).toMatchObject({
        body: null,
        form: { fields: { external_id: 'scan-7' }, file: { filename: NAME, bytes: pdf.length } },
      });
    });
  },
);
