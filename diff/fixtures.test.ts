// Item 5 of issue 44: a fixture set of contract and register edits, each made on a copy of today's spec/openapi.yaml
// and spec/rules.yaml, compared by the real engine, and classified per audience with the rule ids it touches.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { compare } from './compare.ts';
import { folderTree } from './git.ts';
import type { Change, Report } from './model.ts';

const ROOT = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'crc-diff-fixtures-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Doc = Record<string, any>;
const base = join(work, 'base');
mkdirSync(join(base, 'spec'), { recursive: true });
cpSync(join(ROOT, 'spec/openapi.yaml'), join(base, 'spec/openapi.yaml'));
cpSync(join(ROOT, 'spec/rules.yaml'), join(base, 'spec/rules.yaml'));

/** Compares today's contract with a copy edited by `spec` and `rules`. */
function edited(name: string, spec: (d: Doc) => void, rules: (r: Doc[]) => void = () => {}): Report {
  const head = join(work, name);
  mkdirSync(join(head, 'spec'), { recursive: true });
  const doc = parse(readFileSync(join(base, 'spec/openapi.yaml'), 'utf8')) as Doc;
  spec(doc);
  writeFileSync(join(head, 'spec/openapi.yaml'), stringify(doc));
  const register = parse(readFileSync(join(base, 'spec/rules.yaml'), 'utf8')) as { rules: Doc[] };
  rules(register.rules);
  writeFileSync(join(head, 'spec/rules.yaml'), stringify(register));
  return compare(folderTree(base, 'base'), folderTree(head, name));
}

const bumping = (r: Report): Change[] => r.changes.filter((c) => Object.values(c.impacts).some((b) => b !== 'none'));
const only = (r: Report): Change => {
  const changes = bumping(r);
  expect(changes.map((c) => c.message)).toHaveLength(1);
  return changes[0]!;
};
const rule = (rules: Doc[], id: string) => rules.find((r) => r.id === id)!;

describe('each edit of the contract is classified per audience and tied to its rules', () => {
  it('a response field removed: breaking for clients and the mock, and for servers (closed objects)', () => {
    const c = only(edited('response-field-removed', (d) => delete d.components.schemas.Provider.properties.title));
    expect(c.impacts).toEqual({ clients: 'major', 'mock users': 'major', implementations: 'major' });
    expect(c.where).toMatchObject({ method: 'GET', path: '/providers' });
    // Reported once by the engine, the shared schema's change reaches both provider operations.
    expect(c.where.operations).toEqual(['GET /providers', 'GET /providers/{providerId}']);
    expect(c.rules).toEqual(expect.arrayContaining(['PRV-002', 'GEN-011']));
  });

  it('a request field made required: breaking for clients; servers must now refuse its absence', () => {
    const c = only(edited('request-field-required', (d) => (d.components.schemas.RegenerateRequest.required = ['model'])));
    expect(c.impacts).toEqual({ clients: 'major', 'mock users': 'major', implementations: 'major' });
    expect(c.where).toMatchObject({ method: 'POST', path: '/sessions/{sessionId}/notes/regenerate' });
    expect(c.message).toMatch(/model/);
  });

  it('an enum value added to a response: breaking for clients, leeway for servers', () => {
    const c = only(edited('response-enum-added', (d) => d.components.schemas.DocumentStatus.enum.push('queued')));
    expect(c.impacts).toEqual({ clients: 'major', 'mock users': 'major', implementations: 'minor' });
    expect(c.rules).toEqual(expect.arrayContaining(['DOC-005', 'DOC-012']));
  });

  it('an enum value added to a request: a feature for clients, a new obligation for servers', () => {
    const report = edited('request-enum-added', (d) => d.paths['/notes/export'].get.parameters[0].schema.enum.push('xml'));
    const c = only(report);
    expect(c.impacts).toEqual({ clients: 'minor', 'mock users': 'minor', implementations: 'major' });
    expect(c.rules).toContain('NOTE-025');
    expect(report.needs).toEqual({
      'clinical-records-api': 'minor',
      'clinical-records-mock': 'minor',
      'clinical-records-conformance': 'major',
    });
  });

  it('an enum value added to a webhook payload: breaking for receivers, leeway for the server that sends it', () => {
    const c = only(
      edited('webhook-enum-added', (d) => d.components.schemas.DocumentStatusChangedEvent.properties.status.enum.push('pending')),
    );
    expect(c.impacts).toEqual({ clients: 'major', 'mock users': 'major', implementations: 'minor' });
    expect(c.where).toMatchObject({ method: 'POST', path: 'webhook DOCUMENT_STATUS_CHANGED' });
  });

  it('a status changed (202 to 200): breaking for everyone, tied to the rule on that status', () => {
    const c = only(
      edited('status-changed', (d) => {
        const responses = d.paths['/sessions/{sessionId}/notes/regenerate'].post.responses;
        responses['200'] = responses['202'];
        delete responses['202'];
      }),
    );
    expect(c.impacts).toEqual({ clients: 'major', 'mock users': 'major', implementations: 'major' });
    expect(c.rules).toContain('REGEN-001');
  });

  it('an operation added: a feature for clients and the mock, a new operation for servers to serve', () => {
    const c = only(
      edited('operation-added', (d) => {
        const op = structuredClone(d.paths['/providers/{providerId}'].get);
        delete op.parameters;
        d.paths['/providers'].post = { ...op, operationId: 'createProvider' };
      }),
    );
    expect(c.impacts).toEqual({ clients: 'minor', 'mock users': 'minor', implementations: 'major' });
    expect(c.where).toMatchObject({ method: 'POST', path: '/providers' });
  });

  it("an inline parameter's words and schema changed at once: one change of that parameter, not one removed and one added", () => {
    const report = edited('parameter-reworded', (d) => {
      const npi = d.paths['/providers'].get.parameters.find((p: Doc) => p.name === 'npi');
      npi.description = 'Reworded.';
      npi['x-assumption'] = 'Reworded too.';
      npi.schema = { $ref: '#/components/schemas/Npi' };
    });
    expect(bumping(report).map((c) => [c.kind, c.where.pointer])).toEqual([['modified', '/paths/~1providers/get/parameters/2/schema']]);
  });

  it('an example changed: no bump for anyone', () => {
    const report = edited('example-changed', (d) => (d.components.schemas.Npi.examples = ['1234567893']));
    expect(bumping(report)).toEqual([]);
    expect(Object.values(report.needs)).toEqual(['none', 'none', 'none']);
  });

  it("an assumption's value changed (the kit's page-size bound): breaking for clients, not judged by default", () => {
    const c = only(edited('assumption-value', (d) => (d.components.parameters.Limit.schema.maximum = 50)));
    expect(c.impacts).toEqual({ clients: 'major', 'mock users': 'major', implementations: 'minor' });
    expect(c.rules).toContain('PAG-007');
    expect(c.why).toMatch(/assumed/);
  });

  it('a node that becomes an assumption: the suite judges it no more by default (minor), clients see nothing', () => {
    const report = edited(
      'assumption-added',
      (d) => (d.components.schemas.Provider.properties.title['x-assumption'] = 'The kit reads this.'),
    );
    const c = only(report);
    expect(c.impacts).toEqual({ clients: 'none', 'mock users': 'none', implementations: 'minor' });
    expect(c.message).toBe('`x-assumption` added on `title`');
  });
});

describe('each edit of the rule register is a change of the suite', () => {
  it("a rule's provenance moved: to assumed is minor, to documented is major, for the suite only", () => {
    const report = edited(
      'provenance-moved',
      () => {},
      (rules) => {
        rule(rules, 'PRV-002').provenance = 'assumed';
        rule(rules, 'PAG-007').provenance = 'documented';
      },
    );
    const byRule = Object.fromEntries(bumping(report).map((c) => [c.rules[0], c]));
    expect(byRule['PRV-002']).toMatchObject({ kind: 'provenance', impacts: { clients: 'none', implementations: 'minor' } });
    expect(byRule['PAG-007']).toMatchObject({ kind: 'provenance', impacts: { clients: 'none', implementations: 'major' } });
    expect(byRule['PRV-002']!.message).toBe('PRV-002 moved from documented to assumed');
  });

  it('rules added, removed and reworded, and a field the diff has never heard of', () => {
    const report = edited(
      'register-edits',
      () => {},
      (rules) => {
        rules.push({ ...rule(rules, 'PRV-002'), id: 'PRV-099' });
        rules.splice(rules.indexOf(rule(rules, 'PRV-001')), 1);
        rule(rules, 'PRV-003').rule = 'Reworded.';
        // A field the register does not have (seen, once such a field, is the register's own now).
        rule(rules, 'PRV-004').reviewed = '2026-11-28';
      },
    );
    const kinds = Object.fromEntries(bumping(report).map((c) => [c.rules[0], [c.kind, c.impacts.implementations]]));
    expect(kinds).toEqual({
      'PRV-099': ['added', 'major'],
      'PRV-001': ['removed', 'minor'],
      'PRV-003': ['reworded', 'patch'],
      'PRV-004': ['field', 'patch'],
    });
    expect(bumping(report).find((c) => c.rules[0] === 'PRV-004')!.message).toBe('PRV-004 reviewed: set to 2026-11-28');
  });
});
