// Fault path globs (`/patients/*`, `/patients/**`), matched in time linear in the path: the pattern is read as a small
// automaton and the path is run through it once, keeping the set of pattern positions still alive as bits (Thompson's
// simulation, bit-parallel: compileGlob). A pattern compiled to a backtracking RegExp (`.*` per `**`) let a
// client-armed `/**a**a**a**a` hold the event loop for minutes on one long path; here each character of the path costs
// a few word operations per 32 pattern positions.
//
// `*` is one segment's worth of characters, at least one and no `/`; `**` is any run of characters, `/` included,
// possibly none. `***` reads as `**` then `*`, as before.
//
// A position is "this many characters or stars of the pattern read". Each has at most one way on (the literal or the
// first character of a `*` that comes next) and may loop on itself: on any character where `**` stands there, on any
// but `/` once a `*` has taken its first. So neither star costs a position that matches nothing, and reading a character
// is one shift and two masks, with no closure to follow (issue 42: a third of the positions and half the operations of
// the automaton this one replaced, whose stars each took a position of their own).

export interface Glob {
  /** The positions that move on: position `steps` is "matched". */
  steps: number;
  /** Positions 0..steps, one bit each, in `words` 32-bit words. */
  words: number;
  /**
   * Bit i of word w is set in `ascii[code * words + w]` when position i moves on with the character `code` (< 128): it
   * is that literal, or the first of a `*` and the character is not `/`. Other characters' literals are in `other`.
   */
  ascii: Int32Array;
  other: Map<number, Int32Array>;
  /** Positions that move on with any character but `/` (a `*`'s first). */
  one: Int32Array;
  /** Positions that stay on any character (`**`). */
  any: Int32Array;
  /** Positions that stay on any character but `/`: after a `*`'s first, and `**`. */
  inSegment: Int32Array;
  /** The literal text after the last star: a path that does not end with it is refused without a step. */
  suffix: string;
  /** The literal text before the first star (the whole pattern when it has none). */
  prefix: string;
  /** compileGlob's `under`: the positions alive once it is read (undefined: none, or no `under` given). */
  afterUnder?: Int32Array;
  under: string;
}

const SLASH = 0x2f;

/**
 * The glob as bit masks over its positions (Shift-And, Baeza-Yates and Gonnet): a path character moves every alive
 * position at once, a few word operations per 32 positions, where a position-by-position walk cost a step each.
 */
export function compileGlob(pattern: string, under?: string): Glob {
  /** Each position's way on (a literal's code, or ONE for a `*`'s first) and its loop. */
  const moves: number[] = [];
  const loops: Array<'any' | 'segment' | undefined> = [undefined];
  const ONE = -1;
  for (let i = 0; i < pattern.length; i++) {
    const at = moves.length;
    if (pattern[i] !== '*') {
      moves.push(pattern.charCodeAt(i));
      loops.push(undefined);
    } else if (pattern[i + 1] === '*') {
      loops[at] = 'any'; // `**` twice is one loop
      i++;
    } else {
      moves.push(ONE);
      loops.push('segment');
    }
  }
  const steps = moves.length;
  const words = Math.ceil((steps + 1) / 32);
  const mask = () => new Int32Array(words);
  const star = pattern.indexOf('*');
  const glob: Glob = {
    steps,
    words,
    ascii: new Int32Array(128 * words),
    other: new Map(),
    one: mask(),
    any: mask(),
    inSegment: mask(),
    suffix: star < 0 ? pattern : pattern.slice(pattern.lastIndexOf('*') + 1),
    prefix: star < 0 ? pattern : pattern.slice(0, star),
    under: under ?? '',
  };
  const set = (m: Int32Array, i: number, offset = 0) => void (m[offset + (i >>> 5)]! |= 1 << (i & 31));
  moves.forEach((code, i) => {
    if (code === ONE) set(glob.one, i);
    else if (code < 128) set(glob.ascii, i, code * words);
    else {
      let m = glob.other.get(code);
      if (!m) glob.other.set(code, (m = mask()));
      set(m, i);
    }
  });
  loops.forEach((loop, i) => {
    if (loop === 'any') set(glob.any, i);
    if (loop) set(glob.inSegment, i);
  });
  // Each ASCII character's row also holds every `*`'s first (any character but `/`): one load a word.
  for (let code = 0; code < 128; code++) if (code !== SLASH) for (let w = 0; w < words; w++) glob.ascii[code * words + w]! |= glob.one[w]!;
  if (under) glob.afterUnder = run(glob, start(glob), under);
  return glob;
}

/** The positions alive before any character. */
function start(glob: Glob): Int32Array {
  const alive = new Int32Array(glob.words);
  alive[0] = 1;
  return alive;
}

/** True when `under + text` may start with `literal` (`text` alone is for the caller to compare). */
function startsAs(literal: string, text: string, under: string): boolean {
  return literal.length <= under.length
    ? under.startsWith(literal)
    : literal.startsWith(under) && text.startsWith(literal.slice(under.length));
}

/** True when `under + text` ends with `literal`. */
function endsAs(literal: string, text: string, under: string): boolean {
  return literal.length <= text.length
    ? text.endsWith(literal)
    : literal.endsWith(text) && under.endsWith(literal.slice(0, literal.length - text.length));
}

/**
 * True when `path` matches the whole glob, or (compiled with `under`) when `under + path` does: both are read in one
 * pass, from the union of the two start sets. A few word operations per character and 32 positions; no backtracking.
 * The literal ends of the pattern are compared first: most paths are refused there without a step.
 */
export function globMatches(glob: Glob, path: string): boolean {
  const { prefix, suffix, under } = glob;
  // Every position that moves on takes a character: a path shorter than `steps` cannot reach the end.
  const direct = path.length >= glob.steps && path.startsWith(prefix) && path.endsWith(suffix);
  const viaUnder =
    glob.afterUnder !== undefined &&
    path.length + under.length >= glob.steps &&
    startsAs(prefix, path, under) &&
    endsAs(suffix, path, under);
  if (!direct && !viaUnder) return false;
  const alive = direct ? start(glob) : new Int32Array(glob.words);
  if (viaUnder) for (let w = 0; w < glob.words; w++) alive[w]! |= glob.afterUnder![w]!;
  const end = run(glob, alive, path);
  return end !== undefined && (end[glob.steps >>> 5]! & (1 << (glob.steps & 31))) !== 0;
}

/** The positions that move on with a character past ASCII: its literals, and every `*`'s first. */
function takesOther(glob: Glob, ch: number): Int32Array {
  const literals = glob.other.get(ch);
  return literals ? literals.map((m, w) => m | glob.one[w]!) : glob.one;
}

/**
 * The positions alive after reading `text` from `from` (which it may overwrite); undefined once none is. Positions
 * only move up, one a character: the words above the highest alive one plus one are all zero and are not read (`top`
 * only grows, so every word below it is written each time).
 */
function run(glob: Glob, from: Int32Array, text: string): Int32Array | undefined {
  const { words, any, inSegment, ascii } = glob;
  let alive: Int32Array = from;
  let next: Int32Array = new Int32Array(words);
  let top = 0;
  for (let w = 0; w < words; w++) if (alive[w] !== 0) top = w;
  for (let at = 0; at < text.length; at++) {
    const ch = text.charCodeAt(at);
    // The character's masks, chosen once for every word: the positions it moves on, and those it keeps.
    const takes = ch < 128 ? ascii : takesOther(glob, ch);
    const base = ch < 128 ? ch * words : 0;
    const stays = ch === SLASH ? any : inSegment;
    const limit = top + 1 < words ? top + 1 : words - 1;
    let carry = 0;
    let some = 0;
    for (let w = 0; w <= limit; w++) {
      const d = alive[w]!;
      const moves = d & takes[base + w]!;
      const n = (moves << 1) | carry | (d & stays[w]!);
      carry = moves >>> 31;
      next[w] = n;
      some |= n;
    }
    if (!some) return undefined;
    if (limit > top && next[limit] !== 0) top = limit;
    const swap = alive;
    alive = next;
    next = swap;
  }
  return alive;
}
