// Shrinking a failing case to a smallest one that still fails the same check on the same operation: shorter
// sequences first (cut after a step, drop a step nothing later reads), then smaller requests (drop a field or a query
// parameter, halve a body's text). Each candidate is a whole case re-sent; the kept candidates' positions are the shrink
// steps of the replay id, so `--replay` rebuilds exactly the shrunk case without sending anything to choose.
import { isRef, needs, type Case, type Ref, type Step } from './case.ts';

/** Is a step's body still what its intent says (valid for a positive step, still broken for a negative one)? */
export type BodyGuard = (step: Step, body: Record<string, unknown>) => boolean;

function candidates(c: Case, guard: BodyGuard): Case[] {
  const out: Case[] = [];
  const n = c.steps.length;
  // The last step first: a sequence usually fails before its end, and each round then cuts one more step.
  if (n > 1) out.push({ ...c, steps: c.steps.slice(0, n - 1) });
  for (let j = 0; j < n - 1; j++) {
    if (c.steps.some((s, i) => i > j && needs(s, j))) continue;
    out.push({ ...c, steps: c.steps.filter((_, i) => i !== j).map((s) => renumber(s, j)) });
  }
  // Setup requests are plain already: only the judged steps are made smaller.
  for (const [i, step] of c.steps.entries())
    if (step.intent !== 'setup')
      for (const smaller of smallerSteps(step, guard)) out.push({ ...c, steps: c.steps.map((s, k) => (k === i ? smaller : s)) });
  return out;
}

/** Applies shrink steps (positions in each round's candidates) to a case: what --replay does with an id. */
export function applyShrinks(c: Case, shrinks: number[], guard: BodyGuard): Case | undefined {
  let cur: Case | undefined = c;
  for (const k of shrinks) cur = cur && candidates(cur, guard)[k];
  return cur;
}

/**
 * Greedy shrinking: the first candidate that still fails is kept, and the next round's candidates are tried from the
 * same position on (what came before it was tried already, so shrinking stays about linear in the candidates); a
 * round that finds none is followed by one from the start, and shrinking ends when a round from the start finds none
 * or `attempts` candidates were tried. Returns the case and the positions kept.
 */
export async function shrink(
  c: Case,
  stillFails: (candidate: Case) => Promise<boolean>,
  guard: BodyGuard,
  attempts: number,
): Promise<{ shrunk: Case; shrinks: number[]; tried: number }> {
  let cur = c;
  const shrinks: number[] = [];
  let tried = 0;
  let from = 0;
  outer: while (tried < attempts) {
    const all = candidates(cur, guard);
    for (let k = from; k < all.length; k++) {
      const cand = all[k]!;
      if (tried >= attempts) break outer;
      tried++;
      if (await stillFails(cand)) {
        cur = cand;
        shrinks.push(k);
        from = k;
        continue outer;
      }
    }
    // Nothing from `from` on: once more from the start (an earlier cut may have become possible), then done.
    if (from === 0) break;
    from = 0;
  }
  return { shrunk: cur, shrinks, tried };
}

function renumber(s: Step, removed: number): Step {
  const fix = (bag?: Record<string, unknown>) =>
    bag &&
    Object.fromEntries(Object.entries(bag).map(([k, v]) => [k, isRef(v) && v.from > removed ? ({ ...v, from: v.from - 1 } as Ref) : v]));
  const after = s.after !== undefined && s.after > removed ? s.after - 1 : s.after;
  return { ...s, path: fix(s.path) as Step['path'], query: fix(s.query) as Step['query'], body: fix(s.body), after };
}

/** Code-point halves of a text (both, when it has two or more). */
function halves(text: string): string[] {
  const cps = [...text];
  if (cps.length < 2) return [];
  const mid = Math.floor(cps.length / 2);
  return [cps.slice(0, mid).join(''), cps.slice(mid).join('')];
}

/** One step made smaller in every single way its intent allows. */
function smallerSteps(step: Step, guard: BodyGuard): Step[] {
  const out: Step[] = [];
  // A negative step keeps its violation (a query parameter or a body field) whole.
  const kept = step.violation?.field;
  for (const k of Object.keys(step.query ?? {})) {
    if (k === kept) continue;
    const { [k]: _gone, ...rest } = step.query!;
    out.push({ ...step, query: Object.keys(rest).length ? rest : undefined });
  }
  // Query values are not halved: drawn at their formats and enums, a half is rarely valid (a date's half is no date),
  // and a shrunk case must keep its intent.
  if (!step.body || step.upload) return out;
  const bodies: Array<Record<string, unknown>> = [];
  for (const k of Object.keys(step.body)) {
    if (k === kept) continue;
    const { [k]: _gone, ...rest } = step.body;
    bodies.push(rest);
  }
  for (const [k, v] of Object.entries(step.body)) {
    if (typeof v === 'string') for (const h of halves(v)) bodies.push({ ...step.body, [k]: h });
    else if (v && typeof v === 'object' && !Array.isArray(v) && !isRef(v))
      for (const inner of Object.keys(v)) {
        const { [inner]: _gone, ...rest } = v as Record<string, unknown>;
        bodies.push({ ...step.body, [k]: rest });
      }
  }
  for (const b of bodies) if (guard(step, b)) out.push({ ...step, body: b });
  return out;
}
