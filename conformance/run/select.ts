// Which checks a run takes: --only's areas (rule-id prefixes, and the older area names), rule ids and check names.
import { LEGACY_AREAS } from './legacy-areas.ts';
import type { CheckDef } from './model.ts';

/** The selector of --only that names exploration: `--explore --only explore` explores without the rule checks. */
const EXPLORE_SELECTOR = 'explore';

export function selectChecks(checks: CheckDef[], only: string[]): CheckDef[] {
  if (!only.length) return checks;
  const wanted = new Set(only.map((o) => o.toLowerCase()));
  if (wanted.delete(EXPLORE_SELECTOR) && !wanted.size) return [];
  const legacy = new Set([...wanted].flatMap((w) => LEGACY_AREAS[w] ?? []));
  return checks.filter(
    (c) => wanted.has(c.area.toLowerCase()) || wanted.has(c.rule.toLowerCase()) || wanted.has(c.name) || legacy.has(c.name),
  );
}

/** Areas (rule-id prefixes, and the older area names), rule ids and check names --only accepts, lower case. */
export function knownSelectors(checks: CheckDef[]): Set<string> {
  return new Set([
    EXPLORE_SELECTOR,
    ...checks.map((c) => c.area.toLowerCase()),
    ...Object.keys(LEGACY_AREAS),
    ...checks.map((c) => c.rule.toLowerCase()),
    ...checks.map((c) => c.name),
  ]);
}
