// Fault path globs (`/patients/*`, `/patients/**`), matched in time linear in the path: the pattern is read as a small
// automaton and the path is run through it once, keeping the set of pattern positions still alive as bits (Thompson's
// // simulation, bit-parallel: compileGlob). A pattern compiled to a backtracking RegExp (`.*` per `**`) let a
// client-armed `/**a**a**a**a` hold the event loop for minutes on one long path; here each character of the path costs
// a few word operations per 32 pattern positions.
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
  /** The pattern's steps: position `steps` is "matched". */
  steps: number;
  /** Positions 0..steps, one bit each, in `words` 32-bit words. */
  words: number;
  /**
   * Bit i of word w is set in `ascii[code * words + w]` when step i is the literal character `code` (< 128): step i then
   * takes that character and moves on. Other characters' literals are in `other`.
   */
  ascii: Uint32Array;
  other: Map<number, Uint32Array>;
  /** Steps that take any character but `/` and move on (the first of a `*`). */
  one: Uint32Array;
  /** Steps that take any character but `/` and stay (the rest of a `*`). */
  rest: Uint32Array;
  /** Steps that take any character and stay (`**`). */
  any: Uint32Array;
  /** Steps that may match nothing (the rest of a `*`, `**`): the next position is alive with them. */
  empty: Uint32Array;
  /** The length of the shortest path the glob matches: a shorter path is refused without a step. */
  minLength: number;
  /** compileGlob's `under`: the positions alive once it is read (undefined: none, or no `under` given). */
  afterUnder?: Uint32Array;
  underLength: number;
}

const SLASH = 0x2f;

/**
 * The glob as bit masks over its positions (Shift-And, Baeza-Yates and Gonnet): a path character moves every alive
 * position at once, a few word operations per 32 positions, where a position-by-position walk cost a step each.
 */
export function compileGlob(pattern: string, under?: string): Glob {
  const steps: Array<{ step: Step; code: number }> = [];
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '*') steps.push({ step: Step.Char, code: pattern.charCodeAt(i) });
    else if (pattern[i + 1] === '*') {
      // Two `**` in a row match what one does: one state instead of a chain of them.
      if (steps[steps.length - 1]?.step !== Step.Anything) steps.push({ step: Step.Anything, code: 0 });
      i++;
    } else steps.push({ step: Step.OneInSegment, code: 0 }, { step: Step.RestOfSegment, code: 0 });
  }
  const words = Math.ceil((steps.length + 1) / 32);
  const mask = () => new Uint32Array(words);
  const glob: Glob = {
    steps: steps.length,
    words,
    ascii: new Uint32Array(128 * words),
    other: new Map(),
    one: mask(),
    rest: mask(),
    any: mask(),
    empty: mask(),
    minLength: 0,
    underLength: under?.length ?? 0,
  };
  const set = (m: Uint32Array, i: number, offset = 0) => void (m[offset + (i >>> 5)]! |= 1 << (i & 31));
  steps.forEach(({ step, code }, i) => {
    if (step === Step.Char && code < 128) set(glob.ascii, i, code * words);
    else if (step === Step.Char) {
      let m = glob.other.get(code);
      if (!m) glob.other.set(code, (m = mask()));
      set(m, i);
    } else if (step === Step.OneInSegment) set(glob.one, i);
    else if (step === Step.RestOfSegment) set(glob.rest, i);
    else set(glob.any, i);
    if (step === Step.RestOfSegment || step === Step.Anything) set(glob.empty, i);
    if (step === Step.Char || step === Step.OneInSegment) glob.minLength++;
  });
  if (under) glob.afterUnder = run(glob, start(glob), under);
  return glob;
}

/** The positions alive before any character. */
function start(glob: Glob): Uint32Array {
  const alive = new Uint32Array(glob.words);
  alive[0] = 1;
  close(glob.empty, alive, Math.min(glob.words, 2));
  return alive;
}

/**
 * Adds the positions after alive steps that may match nothing, in words below `top` (a chain of such steps is at most
 * two long: `*` then `**`, since `**` twice is one step).
 */
function close(empty: Uint32Array, d: Uint32Array, top: number): void {
  for (let pass = 0; pass < 2; pass++) {
    let carry = 0;
    for (let w = 0; w < top; w++) {
      const e = d[w]! & empty[w]!;
      d[w] = d[w]! | (e << 1) | carry;
      carry = e >>> 31;
    }
  }
}

/**
 * True when `path` matches the whole glob, or (compiled with `under`) when `under + path` does: both are read in one
 * pass, from the union of the two start sets. A few word operations per character and 32 positions; no backtracking.
 */
export function globMatches(glob: Glob, path: string): boolean {
  const direct = path.length >= glob.minLength;
  const viaUnder = glob.afterUnder !== undefined && path.length + glob.underLength >= glob.minLength;
  if (!direct && !viaUnder) return false;
  const alive = direct ? start(glob) : new Uint32Array(glob.words);
  if (viaUnder) for (let w = 0; w < glob.words; w++) alive[w]! |= glob.afterUnder![w]!;
  const end = run(glob, alive, path);
  return end !== undefined && (end[glob.steps >>> 5]! & (1 << (glob.steps & 31))) !== 0;
}

/** The positions alive after reading `text` from `from` (which it may overwrite); undefined once none is. */
function run(glob: Glob, from: Uint32Array, text: string): Uint32Array | undefined {
  const { words, one, rest, any, empty, ascii } = glob;
  let alive: Uint32Array = from;
  let next: Uint32Array = new Uint32Array(words);
  for (let at = 0; at < text.length; at++) {
    const ch = text.charCodeAt(at);
    const lit = ch < 128 ? undefined : glob.other.get(ch);
    const base = ch * words;
    const inSegment = ch !== SLASH;
    // Every word in one pass: the move (a shift by one position), then the closure over steps that may match
    // nothing, twice (a chain of them is at most two long), each with the carry out of the word below.
    let carry = 0;
    let carry1 = 0;
    let carry2 = 0;
    let some = 0;
    for (let w = 0; w < words; w++) {
      const d = alive[w]!;
      const literal = ch < 128 ? ascii[base + w]! : lit ? lit[w]! : 0;
      const moves = d & (literal | (inSegment ? one[w]! : 0));
      const e = empty[w]!;
      const n = (moves << 1) | carry | (d & (any[w]! | (inSegment ? rest[w]! : 0)));
      carry = moves >>> 31;
      const n1 = n | ((n & e) << 1) | carry1;
      carry1 = (n & e) >>> 31;
      const n2 = n1 | ((n1 & e) << 1) | carry2;
      carry2 = (n1 & e) >>> 31;
      next[w] = n2;
      some |= n2;
    }
    if (!some) return undefined;
    const swap = alive;
    alive = next;
    next = swap;
  }
  return alive;
}
