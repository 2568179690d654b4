import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { isMainModule } from './main-module.ts';

const dir = mkdtempSync(join(tmpdir(), 'crc-main-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = join(dir, 'cli.js');
writeFileSync(cli, '');
writeFileSync(join(dir, 'other.js'), '');
symlinkSync(cli, join(dir, 'link')); // as node_modules/.bin and global installs start it

it('knows the entry file however it was started: its path, a symlink to it, its path without .js', () => {
  const url = pathToFileURL(cli).href;
  expect(isMainModule(url, cli)).toBe(true);
  expect(isMainModule(url, join(dir, 'link'))).toBe(true);
  expect(isMainModule(url, join(dir, 'cli'))).toBe(true);
});

it('is not the main module when another file, a missing one or nothing was started', () => {
  const url = pathToFileURL(cli).href;
  expect(isMainModule(url, join(dir, 'other.js'))).toBe(false);
  expect(isMainModule(url, join(dir, 'missing.js'))).toBe(false);
  expect(isMainModule(url, undefined)).toBe(false);
});
