// Keeps the rule register (spec/rules.yaml) well-formed and tied to the bundled contract: unique stable ids,
// the required fields with their allowed values, pointers that resolve in generated/openapi.json, assumed
// rules that land on a node the contract marks with `x-assumption`, and every such mark stated by an assumed rule.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const AREAS = ['GEN', 'PAG', 'XID', 'PAT', 'APT', 'DOC', 'PRV', 'NOTE', 'REGEN', 'AUTH', 'RATE', 'EVT', 'ERR', 'LIM', 'VER'] as const;
const ID = new RegExp(`^(${AREAS.join('|')})-\\d{3}$`);
const PROVENANCES = ['documented', 'assumed'];
const TESTABLE = ['api-key', 'needs-mock-control', 'not-from-outside'];
const REQUIRED_KEYS = ['id', 'rule', 'provenance', 'source', 'spec', 'testable'];
const ALLOWED_KEYS = [...REQUIRED_KEYS, 'reason'];

interface Rule {
  id: string;
  rule: string;
  provenance: string;
  source: string;
  spec: string[];
  testable: string;
  reason?: string;
}

const register = parse(readFileSync(new URL('./rules.yaml', import.meta.url), 'utf8')) as { rules?: unknown };
const bundle = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8')) as Json;
const rules = (Array.isArray(register?.rules) ? register.rules : []) as Rule[];

/** RFC 6901: the reference tokens of a pointer, `~1` decoded before `~0`. */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The nodes met from the root to the pointer's target (root first); undefined when the pointer does not resolve. */
function nodesAlong(doc: Json, pointer: string): Json[] | undefined {
  const nodes: Json[] = [doc];
  let node: Json = doc;
  for (const token of tokens(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= node.length) return undefined;
      node = node[Number(token)] as Json;
    } else {
      if (!Object.prototype.hasOwnProperty.call(node, token)) return undefined;
      node = node[token] as Json;
    }
    nodes.push(node);
  }
  return nodes;
}

const carriesAssumption = (node: Json) =>
  node !== null && typeof node === 'object' && !Array.isArray(node) && typeof node['x-assumption'] === 'string';

describe('rule register (spec/rules.yaml)', () => {
  it('is a non-empty list under `rules`', () => {
    expect(Array.isArray(register?.rules)).toBe(true);
    expect(rules.length).toBeGreaterThan(0);
  });

  it('has unique ids of the form AREA-NNN with a known area', () => {
    const ids = rules.map((r) => r.id);
    expect(ids.filter((id) => typeof id !== 'string' || !ID.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('gives every entry the required fields, and only known fields, with allowed values', () => {
    const problems: string[] = [];
    for (const r of rules) {
      const entry = r as unknown as Record<string, unknown>;
      for (const key of REQUIRED_KEYS) if (!(key in entry)) problems.push(`${r.id}: missing ${key}`);
      for (const key of Object.keys(entry)) if (!ALLOWED_KEYS.includes(key)) problems.push(`${r.id}: unknown field ${key}`);
      if (typeof r.rule !== 'string' || r.rule.trim() === '') problems.push(`${r.id}: empty rule`);
      if (typeof r.source !== 'string' || r.source.trim() === '') problems.push(`${r.id}: empty source`);
      if (!PROVENANCES.includes(r.provenance)) problems.push(`${r.id}: provenance ${String(r.provenance)}`);
      if (!TESTABLE.includes(r.testable)) problems.push(`${r.id}: testable ${String(r.testable)}`);
      if (!Array.isArray(r.spec) || r.spec.some((p) => typeof p !== 'string' || !p.startsWith('/')))
        problems.push(`${r.id}: spec must be a list of JSON pointers`);
      else if (new Set(r.spec).size !== r.spec.length) problems.push(`${r.id}: repeated pointer`);
    }
    expect(problems).toEqual([]);
  });

  it('gives a reason exactly to the rules that are not testable from outside', () => {
    const problems: string[] = [];
    for (const r of rules) {
      const hasReason = typeof r.reason === 'string' && r.reason.trim() !== '';
      if (r.testable === 'not-from-outside' && !hasReason) problems.push(`${r.id}: not-from-outside without a reason`);
      if (r.testable !== 'not-from-outside' && r.reason !== undefined) problems.push(`${r.id}: reason on a ${r.testable} rule`);
    }
    expect(problems).toEqual([]);
  });

  it('resolves every spec pointer in the bundled spec generated/openapi.json', () => {
    const unresolved = rules.flatMap((r) => (r.spec ?? []).filter((p) => !nodesAlong(bundle, p)).map((p) => `${r.id}: ${p}`));
    expect(unresolved).toEqual([]);
  });

  it('points every assumed rule on or under a node marked with x-assumption', () => {
    // Strict: some node on the path from the root to the target (the target included) carries `x-assumption`.
    const unmarked = rules
      .filter((r) => r.provenance === 'assumed')
      .flatMap((r) =>
        (r.spec ?? [])
          .filter((p) => {
            const nodes = nodesAlong(bundle, p);
            return nodes !== undefined && !nodes.some(carriesAssumption);
          })
          .map((p) => `${r.id}: ${p}`),
      );
    expect(unmarked).toEqual([]);
  });

  it('points at least one assumed rule at every x-assumption mark of the bundle, or allowlists the mark', () => {
    // The other direction of the test above: a mark that no assumed rule points at (on it, or under it with no nearer
    // mark between) is a choice the register does not state, so conformance cannot cite it. Allowlist a mark only
    // when no behaviour follows from it, with the reason.
    const ALLOWLIST: Record<string, string> = {
      '/servers/0': 'the scheme of the real base address: the client, the suite and Dredd are given a base URL and judge no scheme',
    };
    const marks: string[] = [];
    const walk = (node: Json, pointer: string) => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, child] of Object.entries(node)) {
        if (key === 'x-assumption' && !Array.isArray(node)) marks.push(pointer);
        else walk(child as Json, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      }
    };
    walk(bundle, '');
    expect(marks.length).toBeGreaterThan(0);
    // A pointer states the mark nearest to its target: the deepest marked node on the path from the root.
    const stated = new Set<string>();
    for (const p of rules.filter((r) => r.provenance === 'assumed').flatMap((r) => r.spec ?? [])) {
      const nodes = nodesAlong(bundle, p);
      if (!nodes) continue;
      const deepest = nodes.map(carriesAssumption).lastIndexOf(true);
      if (deepest >= 0) stated.add(deepest === 0 ? '' : p.split('/').slice(0, deepest + 1).join('/'));
    }
    const covered = (mark: string) => stated.has(mark);
    expect(marks.filter((m) => !covered(m) && !(m in ALLOWLIST))).toEqual([]);
    // An allowlist entry must name a live mark that no rule covers, and say why.
    expect(Object.entries(ALLOWLIST).filter(([m, why]) => !marks.includes(m) || covered(m) || why.trim() === '').map(([m]) => m)).toEqual([]);
  });

  it('states no rule twice', () => {
    const normal = rules.map((r) => String(r.rule).trim().replace(/\s+/g, ' ').toLowerCase());
    expect(rules.filter((_, i) => normal.indexOf(normal[i]!) !== i).map((r) => r.id)).toEqual([]);
  });

  it('has at least one rule in every area', () => {
    const empty = AREAS.filter((area) => !rules.some((r) => typeof r.id === 'string' && r.id.startsWith(`${area}-`)));
    expect(empty).toEqual([]);
  });
});
