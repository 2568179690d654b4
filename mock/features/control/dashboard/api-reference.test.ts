// GET /__mock/docs serves the API reference that `npm run build` renders into dist/; a runtime whose pages read a
// directory without it answers 404 with JSON saying how to build it (never a 500, also when a directory stands where
// the file should be), keeps serving the dashboard, and serves the page once it appears, without a restart.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createInProcessMock, type InProcessMock } from '../../../in-process/mock.ts';
import { nodeRuntime } from '../../../runtime/node.ts';
import { readSeedFile } from '../../../seed/load.ts';
import { API_REFERENCE_FILE } from './api-reference.ts';
import { dashboardPages } from './routes.ts';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

async function mockReading(dir: string): Promise<InProcessMock> {
  const mock = await createInProcessMock(
    {},
    { runtime: { ...nodeRuntime, controlPages: dashboardPages({ referenceDirs: [dir] }) }, defaultSeed: () => readSeedFile() },
  );
  cleanup.push(() => mock.close());
  return mock;
}

function emptyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'crc-docs-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const missing = { error: expect.stringMatching(/run `npm run build` \(it writes dist\/api-reference\.html\)/) };

it('answers 404 with how to build it when the directory has no page, and serves the page once it is built', async () => {
  const dir = emptyDir();
  const mock = await mockReading(dir);
  const docs = await mock.fetch(`${mock.controlUrl}/docs`);
  expect(docs.status).toBe(404);
  expect(docs.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await docs.json()).toEqual(missing);
  expect((await mock.fetch(`${mock.controlUrl}/`)).status).toBe(200);

  writeFileSync(join(dir, API_REFERENCE_FILE), '<!doctype html><title>reference</title>');
  const built = await mock.fetch(`${mock.controlUrl}/docs`);
  expect(built.status).toBe(200);
  expect(built.headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(await built.text()).toContain('<title>reference</title>');
});

it('answers 404, not 500, when the directory is missing or a directory stands in place of the page', async () => {
  const gone = await mockReading(join(emptyDir(), 'no-such-dist'));
  expect(await (await gone.fetch(`${gone.controlUrl}/docs`)).json()).toEqual(missing);
  const dir = emptyDir();
  mkdirSync(join(dir, API_REFERENCE_FILE));
  const odd = await mockReading(dir);
  const docs = await odd.fetch(`${odd.controlUrl}/docs`);
  expect(docs.status).toBe(404);
  expect(await docs.json()).toEqual(missing);
});
