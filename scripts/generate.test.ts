// generated/ must be what `npm run generate` makes from the current spec: regenerate to a temp dir and compare.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { generate, GENERATED_FILES } from './generate.ts';

const GENERATED = fileURLToPath(new URL('../generated/', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'crc-generate-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('generated/ is up to date with spec/openapi.yaml (run `npm run generate`), deterministically', async () => {
  await generate(out, { lint: false });
  expect(readdirSync(GENERATED).sort()).toEqual([...GENERATED_FILES].sort());
  for (const f of GENERATED_FILES) {
    const fresh = readFileSync(join(out, f), 'utf8');
    expect(fresh.includes('generated, do not edit'), `${f} header`).toBe(true);
    expect(readFileSync(join(GENERATED, f), 'utf8') === fresh, `generated/${f} is stale: run npm run generate`).toBe(true);
  }
}, 60_000);
