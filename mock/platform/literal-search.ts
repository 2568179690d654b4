// Substring search in time linear in the text, for text a client chose (the request journal's paths, queries and
// bodies). V8's own String.prototype.indexOf is not: past 250 characters of pattern it reads back over the text (a
// 2,000-character pattern took 10 ms on a 14 KB text here), and a regular expression of alternatives backtracks. One
// literal: Knuth-Morris-Pratt. Several (the seed's keys): an Aho-Corasick automaton made a table (one step a character).
/** Where `pattern` next occurs in `text` at or after `from`, or -1: O(text + pattern). */
export type LiteralIndex = (text: string, from?: number) => number;

export function literalIndex(pattern: string): LiteralIndex {
  const m = pattern.length;
  const fail = new Int32Array(m); // fail[j]: length of the longest proper border of pattern[0..j]
  for (let j = 1, k = 0; j < m; j++) {
    while (k > 0 && pattern.charCodeAt(j) !== pattern.charCodeAt(k)) k = fail[k - 1]!;
    if (pattern.charCodeAt(j) === pattern.charCodeAt(k)) k++;
    fail[j] = k;
  }
  return (text, from = 0) => {
    if (m === 0) return Math.min(from, text.length);
    for (let i = from, k = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      while (k > 0 && c !== pattern.charCodeAt(k)) k = fail[k - 1]!;
      if (c === pattern.charCodeAt(k) && ++k === m) return i - m + 1;
    }
    return -1;
  };
}

/** `text` with every occurrence of `pattern` replaced by `by`, left to right: O(text + pattern). */
export function replaceLiteral(text: string, pattern: string, by: string): string {
  const find = literalIndex(pattern);
  let at = find(text);
  if (at < 0 || pattern.length === 0) return text;
  let out = '';
  let last = 0;
  for (; at >= 0; at = find(text, last)) {
    out += text.slice(last, at) + by;
    last = at + pattern.length;
  }
  return out + text.slice(last);
}

/** Table cells one automaton may hold (states × character classes, 4 bytes each): 16 MB. */
const MAX_CELLS = 1 << 22;

/**
 * One Aho-Corasick automaton as a table. A state is its row's offset (state × classes), so one step is
 * `row = step[row + classOf[char]]`; a row reached by the end of a match is stored negated (`-row - 1`) and
 * `longest[state]` is the longest match ending there. `first`: the one character every pattern starts with, if so.
 */
interface Automaton {
  classOf: Uint16Array;
  classes: number;
  step: Int32Array;
  longest: Int32Array;
  first: string | undefined;
}

function automaton(patterns: readonly string[]): Automaton {
  const classOf = new Uint16Array(65536); // class 0: a character no pattern holds
  let classes = 1;
  let total = 1;
  for (const p of patterns) {
    total += p.length;
    for (let i = 0; i < p.length; i++) {
      const c = p.charCodeAt(i);
      if (classOf[c] === 0) classOf[c] = classes++;
    }
  }
  const goto = new Int32Array(total * classes).fill(-1);
  const longest = new Int32Array(total);
  let states = 1;
  for (const p of patterns) {
    let s = 0;
    for (let i = 0; i < p.length; i++) {
      const cell = s * classes + classOf[p.charCodeAt(i)]!;
      if (goto[cell]! < 0) goto[cell] = states++;
      s = goto[cell]!;
    }
    longest[s] = p.length;
  }
  // Breadth first: each state's failure link is a shallower state, whose row is complete by then.
  const fail = new Int32Array(states);
  const queue = new Int32Array(states);
  let head = 0;
  let tail = 0;
  for (let a = 0; a < classes; a++) {
    const t = goto[a]!;
    if (t < 0) goto[a] = 0;
    else queue[tail++] = t;
  }
  while (head < tail) {
    const s = queue[head++]!;
    if (longest[s] === 0) longest[s] = longest[fail[s]!]!;
    for (let a = 0; a < classes; a++) {
      const cell = s * classes + a;
      const t = goto[cell]!;
      const via = goto[fail[s]! * classes + a]!;
      if (t < 0) goto[cell] = via;
      else {
        fail[t] = via;
        queue[tail++] = t;
      }
    }
  }
  const step = new Int32Array(states * classes);
  for (let cell = 0; cell < step.length; cell++) {
    const t = goto[cell]!;
    step[cell] = longest[t] ? -t * classes - 1 : t * classes;
  }
  const firsts = new Set(patterns.map((p) => p[0]));
  return { classOf, classes, step, longest, first: firsts.size === 1 ? [...firsts][0] : undefined };
}

/** The patterns in groups whose tables stay within MAX_CELLS (a seed with thousands of keys makes several). */
function groups(patterns: readonly string[]): string[][] {
  const out: string[][] = [];
  let group: string[] = [];
  let chars = 1;
  const seen = new Set<number>();
  for (const p of patterns) {
    for (let i = 0; i < p.length; i++) seen.add(p.charCodeAt(i));
    chars += p.length;
    if (group.length && chars * (seen.size + 1) > MAX_CELLS) {
      out.push(group);
      group = [];
      chars = 1 + p.length;
      seen.clear();
      for (let i = 0; i < p.length; i++) seen.add(p.charCodeAt(i));
    }
    group.push(p);
  }
  if (group.length) out.push(group);
  return out;
}

/** Replaces every stretch of `text` that occurrences of `patterns` cover (overlapping or adjacent ones: one stretch) by `by`. */
export function literalsReplacer(patterns: readonly string[], by: string): (text: string) => string {
  const tables = groups(patterns.filter((p) => p.length > 0)).map(automaton);
  return (text) => {
    for (const t of tables) text = replaceMatches(t, text, by);
    return text;
  };
}

function replaceMatches({ classOf, classes, step, longest, first }: Automaton, text: string, by: string): string {
  // Matches as they end, left to right; one that reaches back over earlier ones swallows them (amortized linear).
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0, row = 0; i < text.length; i++) {
    // At the root, the next place a pattern can start (the native search is far faster than stepping).
    if (row === 0 && first !== undefined && (i = text.indexOf(first, i)) < 0) break;
    row = step[row + classOf[text.charCodeAt(i)]!]!;
    if (row >= 0) continue;
    row = -row - 1;
    let start = i + 1 - longest[row / classes]!;
    while (ends.length && ends[ends.length - 1]! >= start) {
      start = Math.min(start, starts.pop()!);
      ends.pop();
    }
    starts.push(start);
    ends.push(i + 1);
  }
  if (!starts.length) return text;
  let out = '';
  let last = 0;
  for (let k = 0; k < starts.length; k++) {
    out += text.slice(last, starts[k]) + by;
    last = ends[k]!;
  }
  return out + text.slice(last);
}
