import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSeed } from './generate.ts';

describe('default seed', () => {
  it('is exactly what the generator writes (run `npx tsx mock/seed/generate.ts --write` after changing it)', async () => {
    const committed = readFileSync(new URL('./default.json', import.meta.url), 'utf8');
    expect(committed).toBe(`${JSON.stringify(await generateSeed(), null, 2)}\n`);
  });
});
