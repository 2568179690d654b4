// The area names --only took before the checks were laid out by rule-id prefix are a promise to existing CI jobs
// (docs/conformance.md: they "still select the checks they always did"): each still names checks that exist, none is
// shadowed by a name of today, and --only accepts them.
import { describe, expect, it } from 'vitest';
import { responseChecks } from '../../judge/checks/index.ts';
import { allChecks } from '../checks/index.ts';
import { LEGACY_AREAS } from './legacy-areas.ts';
import { knownSelectors, selectChecks } from './select.ts';

describe('the older area names of --only', () => {
  // `responses` names the response checks too, which every run applies to every answer.
  const names = new Set([...allChecks, ...responseChecks].map((c) => c.name));

  it('each names only checks that exist, so a rename cannot silently shrink what an old selector runs', () => {
    const missing = Object.entries(LEGACY_AREAS).flatMap(([area, checks]) =>
      checks.filter((c) => !names.has(c)).map((c) => `${area}: ${c}`),
    );
    expect(missing).toEqual([]);
    for (const checks of Object.values(LEGACY_AREAS)) expect(checks.length).toBeGreaterThan(0);
  });

  it('none is a rule id or a check name of today; one that is an area today (auth) adds no check outside that area', () => {
    const today = new Set(allChecks.flatMap((c) => [c.rule.toLowerCase(), c.name]));
    expect(Object.keys(LEGACY_AREAS).filter((a) => today.has(a))).toEqual([]);
    const areaOf = new Map(allChecks.map((c) => [c.name, c.area.toLowerCase()]));
    const strays = Object.entries(LEGACY_AREAS)
      .filter(([alias]) => allChecks.some((c) => c.area.toLowerCase() === alias))
      .flatMap(([alias, checks]) => checks.filter((c) => areaOf.get(c) !== alias).map((c) => `${alias}: ${c}`));
    expect(strays).toEqual([]);
  });

  it('each selects exactly its checks (with auth, the area of today too), beside what the other selectors add', () => {
    const checkNames = new Set(allChecks.map((c) => c.name));
    for (const [alias, listed] of Object.entries(LEGACY_AREAS)) {
      const area = allChecks.filter((c) => c.area.toLowerCase() === alias).map((c) => c.name);
      const expected = new Set([...listed.filter((c) => checkNames.has(c)), ...area]);
      expect(new Set(selectChecks(allChecks, [alias]).map((c) => c.name)), alias).toEqual(expected);
    }
    const both = selectChecks(allChecks, ['scopes', 'PRV']).map((c) => c.name);
    expect(both).toEqual(
      expect.arrayContaining([...LEGACY_AREAS.scopes!, ...allChecks.filter((c) => c.area === 'PRV').map((c) => c.name)]),
    );
  });

  it('--only accepts every one of them', () => {
    const known = knownSelectors(allChecks);
    expect(Object.keys(LEGACY_AREAS).filter((a) => !known.has(a))).toEqual([]);
  });
});
