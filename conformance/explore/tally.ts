// The cases' outcomes tallied in plan order, whatever order the answers came in: the same seed reports the same first
// case of each failure.
import type { Case } from './case.ts';
import type { CaseRun } from './execute.ts';
import type { Found } from './judge-run.ts';
import type { CaseOutcome } from './send-cases.ts';

/** The first case that failed a check on an operation: what it found and the run that found it. */
export interface FirstFailure {
  c: Case;
  found: Found;
  run: CaseRun;
}

export interface Tally {
  /** Every check and operation reached (keyed as judge-run.ts keys them), with the cases that reached it. */
  matrix: Map<string, { check: string; ruleId: string; operation: string; cases: Set<number> }>;
  firstOf: Map<string, FirstFailure>;
  /** The further cases that failed the same check and operation. */
  alike: Map<string, number>;
  /** Cases that ended before their last step with every step sent answered (a reference that could not be resolved). */
  incomplete: number;
  /** Cases sent, by kind. */
  kinds: Record<string, number>;
}

export function tally(outcomes: Array<CaseOutcome | undefined>): Tally {
  const t: Tally = { matrix: new Map(), firstOf: new Map(), alike: new Map(), incomplete: 0, kinds: {} };
  for (const o of outcomes) {
    if (!o) continue;
    t.kinds[o.c.kind] = (t.kinds[o.c.kind] ?? 0) + 1;
    if (o.run.ended && !o.run.unanswered) t.incomplete++;
    for (const r of o.reached) {
      const m = t.matrix.get(r.key) ?? { ...r, cases: new Set<number>() };
      m.cases.add(o.c.index);
      t.matrix.set(r.key, m);
    }
    for (const f of o.found) {
      if (!t.firstOf.has(f.key)) t.firstOf.set(f.key, { c: o.c, found: f, run: o.run });
      else if (t.firstOf.get(f.key)!.c !== o.c) t.alike.set(f.key, (t.alike.get(f.key) ?? 0) + 1);
    }
  }
  return t;
}
