// The pull-request rendering stays a comment GitHub accepts: rule additions fold into one row with every id, and a
// diff too large for one comment is cut to fewer rows per section, saying how many are left out.
import { describe, expect, it } from 'vitest';
import type { Change, Report } from '../model.ts';
import { renderMarkdown } from './markdown.ts';

const versions = { 'clinical-records-api': '1.0.0', 'clinical-records-mock': '1.0.0', 'clinical-records-conformance': '1.0.0' };
const report = (changes: Change[]): Report => ({
  base: { ref: 'v1', commit: 'a'.repeat(40), versions },
  head: { ref: 'WORKTREE', versions },
  engine: 'test',
  changes,
  needs: { 'clinical-records-api': 'major', 'clinical-records-mock': 'major', 'clinical-records-conformance': 'major' },
});
const contract = (i: number): Change => ({
  source: 'contract',
  kind: 'removed',
  message: `Property \`field${i}\` of \`Patient\` was removed. ${'x'.repeat(200)}`,
  where: { path: '/patients', method: 'GET', pointer: `/paths/~1patients/get/x${i}` },
  rules: ['PAT-001'],
  impacts: { clients: 'major', 'mock users': 'major', implementations: 'major' },
  why: 'property-removed',
});
const ruleAdded = (id: string): Change => ({
  source: 'register',
  kind: 'added',
  message: `${id} added (documented): a rule.`,
  where: { pointer: `spec/rules.yaml#/${id}` },
  rules: [id],
  impacts: { clients: 'none', 'mock users': 'none', implementations: 'major' },
  why: 'a server that passed may now fail it',
});

describe('renderMarkdown', () => {
  it('folds rules added for one reason into one row that names every id', () => {
    const md = renderMarkdown(report(['PAT-001', 'PAT-002', 'DOC-003'].map(ruleAdded)));
    expect(md).toContain(
      '| rules.yaml | Rules added (a server that passed may now fail it) | PAT-001, PAT-002, DOC-003 | none | none | major |',
    );
    expect(md).toMatch(/#### Breaking \(1\)/);
  });

  it('folds one register field changed on many rules into one row (a new per-rule field lands on all 306)', () => {
    const field = (id: string): Change => ({
      ...ruleAdded(id),
      kind: 'field',
      message: `${id} seen: set to exchange`,
      where: { pointer: `spec/rules.yaml#/${id}/seen` },
      impacts: { clients: 'none', 'mock users': 'none', implementations: 'patch' },
    });
    const md = renderMarkdown(report(['PAT-001', 'PAT-002'].map(field)));
    expect(md).toContain('| rules.yaml | Rules whose `seen` changed | PAT-001, PAT-002 | none | none | patch |');
  });

  it('cuts a diff too large for one pull-request comment, saying how many changes are left out', () => {
    const md = renderMarkdown(report(Array.from({ length: 1000 }, (_, i) => contract(i))));
    expect(md.length).toBeLessThanOrEqual(60_000);
    expect(md).toMatch(/…and (\d+) more: `npm run diff -- --format json` lists them all\./);
    const [, left] = /…and (\d+) more/.exec(md)!;
    expect(md.match(/^\| GET \/patients \|/gm)!.length + Number(left)).toBe(1000);
  });
});
