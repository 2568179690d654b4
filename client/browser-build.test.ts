// The client in a browser bundle: its browser entry bundles with esbuild for the browser with no Node built-in in the
// graph (a frontend app needs no shims), and it refuses a file path upload with a clear error instead of failing.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { createClinicalRecordsClient } from './index.ts';

const entry = (name: string) => fileURLToPath(new URL(name, import.meta.url));

const bundle = (file: string) =>
  build({ entryPoints: [file], bundle: true, platform: 'browser', format: 'esm', write: false, metafile: true, logLevel: 'silent' });

describe('the client for browsers', () => {
  it('bundles for platform=browser with no node: module in its inputs', async () => {
    const out = await bundle(entry('./index.ts'));
    expect(out.errors).toEqual([]);
    expect(Object.keys(out.metafile.inputs).filter((f) => f.startsWith('node:') || /read-path/.test(f))).toEqual([]);
  });

  it('would notice a Node built-in (the node entry does not bundle for the browser)', async () => {
    await expect(bundle(entry('./node.ts'))).rejects.toThrow(/node:fs\/promises/);
  });

  it('refuses a file path upload, before sending, with a TypeError naming the way out', async () => {
    let sent = 0;
    const client = createClinicalRecordsClient({
      baseUrl: 'http://127.0.0.1:1/ext-api/v1',
      apiKey: 'k',
      fetch: async () => (sent++, new Response()),
    });
    await expect(client.uploadDocument('1', { file: './report.pdf' })).rejects.toThrow(/needs Node .*pass a Blob\/File or bytes/);
    expect(sent).toBe(0);
  });
});
