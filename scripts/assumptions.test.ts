import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { END, renderAssumptions, START, withAssumptions } from './assumptions.ts';

describe('docs/assumptions.md assumption table', () => {
  it('lists every x-assumption of the contract and every assumed rule, as generated (run `npm run assumptions`)', () => {
    const doc = readFileSync(new URL('../docs/assumptions.md', import.meta.url), 'utf8');
    expect(doc).toContain(START);
    expect(doc).toBe(withAssumptions(doc));
  });

  it('replaces only what stands between the markers', () => {
    const doc = `# Title\n\nprose before\n\n${START}\nstale table\n${END}\n\nprose after\n`;
    const next = withAssumptions(doc);
    expect(next.startsWith('# Title\n\nprose before\n\n')).toBe(true);
    expect(next.endsWith(`${END}\n\nprose after\n`)).toBe(true);
    expect(next).not.toContain('stale table');
    expect(withAssumptions(next)).toBe(next);
  });

  it('refuses a document without its markers, naming them', () => {
    expect(() => withAssumptions('# no table here\n')).toThrow(/docs\/assumptions\.md lacks the assumption markers/);
  });

  it('names the place and the reason of each mark', () => {
    const table = renderAssumptions();
    expect(table).toContain('schema PatientCreate');
    expect(table).toMatch(/GET \/patients › parameter `search` \| The document describes a free-text search/);
  });
});
