import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readmeWithAssumptions, renderAssumptions } from './assumptions.ts';

describe('README assumption table', () => {
  it('lists every x-assumption of the contract and every assumed rule, as generated (run `npm run assumptions`)', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toBe(readmeWithAssumptions(readme));
  });

  it('names the place and the reason of each mark', () => {
    const table = renderAssumptions();
    expect(table).toContain('schema PatientCreate');
    expect(table).toMatch(/GET \/patients › parameter `search` \| The document describes a free-text search/);
  });
});
