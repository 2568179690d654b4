// The fault path matcher on the worst case a hostile probe found: `/**a**a**a**a` against a run of `a` that does not
// end in one. The former matcher (the glob compiled to a backtracking RegExp, `**` as `.*`) beside the automaton that
// replaced it (mock/platform/glob.ts); the former is run on short paths only, its time growing with the fourth power
// of the length (a 400-character GET took 13.8 s, an 800-character one about 2 minutes).
// Usage: npx tsx bench/fault-glob.ts
import { compileGlob, globMatches } from '../mock/platform/glob.ts';

const PATTERN = '/**a**a**a**a';

/** The matcher before issue 32 (mock/platform/faults.ts). */
function backtracking(pattern: string): RegExp {
  const literal = (s: string) => s.replace(/[.+?^$()|[\]\\{}]/g, '\\$&');
  return new RegExp(
    `^${pattern
      .split('**')
      .map((part) => part.split('*').map(literal).join('[^/]+'))
      .join('.*')}$`,
  );
}

/** Milliseconds per match, over enough runs to take about 200 ms. */
function time(match: (path: string) => boolean, path: string): number {
  let runs = 0;
  const t0 = performance.now();
  do {
    match(path);
    runs++;
  } while (performance.now() - t0 < 200);
  return (performance.now() - t0) / runs;
}

const glob = compileGlob(PATTERN);
const regex = backtracking(PATTERN);
const worst = (n: number) => `/${'a'.repeat(n)}b`;
console.log(`pattern ${PATTERN}, path /a…ab`);
console.log('characters | backtracking RegExp | automaton');
for (const n of [25, 50, 100, 200, 400, 800, 100_000]) {
  const old = n <= 200 ? `${time((p) => regex.test(p), worst(n)).toFixed(3)} ms` : '(not run)';
  console.log(`${String(n).padStart(10)} | ${old.padStart(19)} | ${time((p) => globMatches(glob, p), worst(n)).toFixed(4)} ms`);
}
