// Keeps the rule register (spec/rules.yaml) well-formed and tied to the bundled contract: the strict loader
// (spec/runtime/rules.ts) checks ids, fields and values; here, pointers that resolve in generated/openapi.json, assumed
// rules that land on a node the contract marks with `x-assumption`, and every such mark stated by an assumed rule.
import { describe, expect, it } from 'vitest';
import { loadBundle } from './runtime/bundle.ts';
import { escapeToken, nodesAlong, type Json } from './runtime/json-pointer.ts';
import { AREAS, loadRules } from './runtime/rules.ts';

const rules = loadRules();
const bundle = loadBundle() as Json;

const carriesAssumption = (node: Json) =>
  node !== null && typeof node === 'object' && !Array.isArray(node) && typeof node['x-assumption'] === 'string';

describe('rule register (spec/rules.yaml)', () => {
  it('loads strictly (ids, fields and values are checked by the loader) and is not empty', () => {
    expect(rules.length).toBeGreaterThan(0);
  });

  it('resolves every spec pointer in the bundled spec generated/openapi.json', () => {
    const unresolved = rules.flatMap((r) => r.spec.filter((p) => !nodesAlong(bundle, p)).map((p) => `${r.id}: ${p}`));
    expect(unresolved).toEqual([]);
  });

  it('points every assumed rule on or under a node marked with x-assumption', () => {
    // Strict: some node on the path from the root to the target (the target included) carries `x-assumption`.
    const unmarked = rules
      .filter((r) => r.provenance === 'assumed')
      .flatMap((r) =>
        r.spec
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
        else walk(child as Json, `${pointer}/${escapeToken(key)}`);
      }
    };
    walk(bundle, '');
    expect(marks.length).toBeGreaterThan(0);
    // A pointer states the mark nearest to its target: the deepest marked node on the path from the root.
    const stated = new Set<string>();
    for (const p of rules.filter((r) => r.provenance === 'assumed').flatMap((r) => r.spec)) {
      const nodes = nodesAlong(bundle, p);
      if (!nodes) continue;
      const deepest = nodes.map(carriesAssumption).lastIndexOf(true);
      if (deepest >= 0)
        stated.add(
          deepest === 0
            ? ''
            : p
                .split('/')
                .slice(0, deepest + 1)
                .join('/'),
        );
    }
    const covered = (mark: string) => stated.has(mark);
    expect(marks.filter((m) => !covered(m) && !(m in ALLOWLIST))).toEqual([]);
    // An allowlist entry must name a live mark that no rule covers, and say why.
    expect(
      Object.entries(ALLOWLIST)
        .filter(([m, why]) => !marks.includes(m) || covered(m) || why.trim() === '')
        .map(([m]) => m),
    ).toEqual([]);
  });

  it('states no rule twice', () => {
    const normal = rules.map((r) => r.rule.trim().replace(/\s+/g, ' ').toLowerCase());
    expect(rules.filter((_, i) => normal.indexOf(normal[i]!) !== i).map((r) => r.id)).toEqual([]);
  });

  it('has at least one rule in every area', () => {
    const empty = AREAS.filter((area) => !rules.some((r) => r.id.startsWith(`${area}-`)));
    expect(empty).toEqual([]);
  });
});
