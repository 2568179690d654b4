// The strict rule-register loader: the repository's register loads; a missing, unparsable or malformed one is a
// RegisterError naming the file and each problem, never an empty or partial register.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRules, parseRules, RegisterError } from './rules.ts';

const good = `rules:
  - id: PAT-001
    rule: A patient has an id.
    provenance: documented
    source: Patients, rule 1
    spec: [/components/schemas/Patient]
    testable: api-key
    seen: exchange
  - id: LIM-002
    rule: Something inside.
    provenance: assumed
    source: Limits
    spec: []
    testable: not-from-outside
    seen: outside
    reason: only the operator sees it
`;

const problemsOf = (text: string): string[] => {
  try {
    parseRules(text, 'rules.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(RegisterError);
    return [...(e as RegisterError).problems];
  }
  throw new Error('parsed without an error');
};

describe('rule register loader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crc-rules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the repository register (spec/rules.yaml)', () => {
    const rules = loadRules();
    expect(rules.length).toBeGreaterThan(100);
    expect(rules.every((r) => Array.isArray(r.spec))).toBe(true);
  });

  it('reads a well-formed register into typed rules, reason only where given', () => {
    const [a, b] = parseRules(good);
    expect(a).toEqual({
      id: 'PAT-001',
      rule: 'A patient has an id.',
      provenance: 'documented',
      source: 'Patients, rule 1',
      spec: ['/components/schemas/Patient'],
      testable: 'api-key',
      seen: 'exchange',
    });
    expect(b!.reason).toBe('only the operator sees it');
  });

  it('a missing file is an error naming it', () => {
    const missing = join(dir, 'nope.yaml');
    expect(() => loadRules(missing)).toThrow(RegisterError);
    expect(() => loadRules(missing)).toThrow(`rule register ${missing} is not usable:\n  - cannot be read: ENOENT`);
  });

  it('YAML that does not parse, and a document without rules, are errors', () => {
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'rules: [\n  - id: {');
    expect(() => loadRules(file)).toThrow(/is not usable:\n {2}- YAML does not parse/);
    expect(problemsOf('')).toEqual(['expected a non-empty list under `rules:`']);
    expect(problemsOf('rules: []')).toEqual(['expected a non-empty list under `rules:`']);
    expect(problemsOf('- id: PAT-001')).toEqual(['expected a non-empty list under `rules:`']);
  });

  it('names every malformed entry and what is wrong with it', () => {
    const bad = good
      .replace('id: PAT-001', 'id: PATIENT-1')
      .replace('provenance: documented', 'provenance: guessed')
      .replace('testable: api-key', 'testable: api-key (needs a key)')
      .replace('seen: exchange', 'seen: by eye')
      .replace('spec: [/components/schemas/Patient]', 'spec: components/schemas/Patient\n    extra: 1');
    expect(problemsOf(bad)).toEqual([
      'entry 1 (PATIENT-1): unknown field extra',
      'entry 1 (PATIENT-1): id must be AREA-NNN with AREA one of GEN, PAG, XID, PAT, APT, DOC, PRV, NOTE, REGEN, AUTH, RATE, EVT, ERR, LIM, VER',
      'entry 1 (PATIENT-1): provenance must be documented or assumed, got "guessed"',
      'entry 1 (PATIENT-1): testable must be one of api-key, needs-mock-control, not-from-outside, got "api-key (needs a key)"',
      'entry 1 (PATIENT-1): seen must be one of exchange, sequence, time, webhook, outside, got "by eye"',
      'entry 1 (PATIENT-1): spec must be a list of JSON pointers',
    ]);
  });

  it('requires every field, a reason exactly on not-from-outside rules, and unique ids', () => {
    expect(problemsOf('rules:\n  - id: PAT-001\n')).toEqual(
      ['rule', 'provenance', 'source', 'spec', 'testable', 'seen'].map((k) => `entry 1 (PAT-001): missing ${k}`),
    );
    expect(problemsOf(good.replace('    reason: only the operator sees it\n', ''))).toEqual([
      'entry 2 (LIM-002): a not-from-outside rule needs a reason',
    ]);
    expect(problemsOf(good.replace('testable: api-key', 'testable: api-key\n    reason: why'))).toEqual([
      'entry 1 (PAT-001): reason belongs only on a not-from-outside rule',
    ]);
    expect(problemsOf(good.replace('LIM-002', 'PAT-001'))).toEqual(['id PAT-001 is used more than once']);
    expect(problemsOf(good.replace('spec: []', 'spec: [/a, /a]'))).toEqual(['entry 2 (LIM-002): spec repeats a pointer']);
    expect(problemsOf('rules:\n  - just text\n')).toEqual(['entry 1: not a mapping']);
  });

  it('lists at most 20 problems in the message, and says how many more', () => {
    const many = `rules:\n${Array.from({ length: 25 }, () => '  - {}\n').join('')}`;
    const message = (() => {
      try {
        parseRules(many, 'r.yaml');
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(message).toMatch(/ {2}- \.\.\. and 155 more$/);
  });
});
