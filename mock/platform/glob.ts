// Fault path globs (`/patients/*`, `/patients/**`), matched in time linear in the path: the pattern is read as a small
// automaton and the path is run through it once, keeping the set of pattern positions still alive (Thompson's
// simulation). A pattern compiled to a backtracking RegExp (`.*` per `**`) let a client-armed `/**a**a**a**a` hold the
// event loop for minutes on one long path; here each character of the path costs at most one step per pattern token.
//
// `*` is one segment's worth of characters, at least one and no `/`; `**` is any run of characters, `/` included,
// possibly none. `***` reads as `**` then `*`, as before.

/** The steps of a compiled glob. */
const Step = {
  /** A literal character (its code in `codes`). */
  Char: 0,
  /** Exactly one character other than `/` (the first of a `*`). */
  OneInSegment: 1,
  /** Any number of characters other than `/` (the rest of a `*`). */
  RestOfSegment: 2,
  /** Any number of characters (`**`). */
  Anything: 3,
} as const;
type Step = (typeof Step)[keyof typeof Step];

export interface Glob {
  steps: Uint8Array;
  codes: Uint16Array;
}

const SLASH = 0x2f;

export function compileGlob(pattern: string): Glob {
  const steps: number[] = [];
  const codes: number[] = [];
  const push = (s: Step, code = 0) => void (steps.push(s), codes.push(code));
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '*') push(Step.Char, pattern.charCodeAt(i));
    else if (pattern[i + 1] === '*') {
      // Two `**` in a row match what one does: one state instead of a chain of them.
      if (steps[steps.length - 1] !== Step.Anything) push(Step.Anything);
      i++;
    } else push(Step.OneInSegment), push(Step.RestOfSegment);
  }
  return { steps: Uint8Array.from(steps), codes: Uint16Array.from(codes) };
}

/** True when `path` matches the whole glob. O(path length × pattern length), no backtracking. */
export function globMatches(glob: Glob, path: string): boolean {
  const { steps, codes } = glob;
  const n = steps.length;
  let alive = new Uint8Array(n + 1);
  let next = new Uint8Array(n + 1);
  // A step that may match nothing lets the position after it be alive too.
  const close = (set: Uint8Array) => {
    for (let i = 0; i < n; i++) if (set[i] && (steps[i] === Step.RestOfSegment || steps[i] === Step.Anything)) set[i + 1] = 1;
  };
  alive[0] = 1;
  close(alive);
  for (let at = 0; at < path.length; at++) {
    const ch = path.charCodeAt(at);
    next.fill(0);
    let any = false;
    for (let i = 0; i < n; i++) {
      if (!alive[i]) continue;
      const to = advance(steps[i] as Step, codes[i]!, ch, i);
      if (to >= 0) {
        next[to] = 1;
        any = true;
      }
    }
    if (!any) return false;
    close(next);
    [alive, next] = [next, alive];
  }
  return alive[n] === 1;
}

/** Where a path character leads from position `i`: the next position, `i` again (a run goes on), or -1 (no way). */
function advance(step: Step, code: number, ch: number, i: number): number {
  if (step === Step.Char) return code === ch ? i + 1 : -1;
  if (step === Step.Anything) return i;
  if (ch === SLASH) return -1;
  return step === Step.OneInSegment ? i + 1 : i;
}
