// The Storybook recipe of docs/in-process.md builds as written (issue 42, item 4): its `ts` block is bundled by esbuild
// for the browser as ESM and as an IIFE (a classic script, where top-level await does not build), with the package's
// names pointed at this repository's sources (the entries the package's `browser` exports build from).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The first `ts` block under the Storybook heading. */
function recipe(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'in-process.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Storybook and preview builds'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('docs/in-process.md: no ts block under "Storybook and preview builds"');
  return block[1]!;
}

describe('the Storybook recipe of docs/in-process.md', () => {
  it.each(['esm', 'iife'] as const)(
    'builds for the browser as %s',
    async (format) => {
      const source = recipe();
      expect(source).toContain("from 'clinical-records-mock/msw'");
      const out = await build({
        stdin: { contents: source, loader: 'ts', resolveDir: ROOT, sourcefile: 'preview.ts' },
        absWorkingDir: ROOT,
        bundle: true,
        platform: 'browser',
        format,
        target: 'es2022',
        write: false,
        logLevel: 'silent',
        alias: { 'clinical-records-mock/msw': './mock/msw.ts', 'clinical-records-mock': './mock/in-process/browser.ts' },
      });
      expect(out.errors).toEqual([]);
      const js = out.outputFiles[0]!.text;
      expect(js).toContain('mockServiceWorker.js');
      if (format === 'esm') expect(js).toMatch(/export\s*\{[^}]*loaders/);
    },
    120_000,
  );
});
