// No hand-written function in conformance/, mock/ or client/ has more than 80 lines of its own (issue 43): past a
// screen, a function carries a whole procedure whose steps deserve names. The files are git's (what a clone has).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { functionSizes } from './testing/function-lines.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAX_OWN_LINES = 80;
const FOLDERS = ['conformance', 'mock', 'client'];

describe('function size', () => {
  it('counts a function’s own lines: code only, the functions defined inside it left out', () => {
    const text = [
      'function outer() {', // 1
      '  // a comment',
      '',
      '  const a = 1;', // 2
      '  const inner = () => {', // inner's first line: shared, so outer's
      '    return a;', // inner's
      '  };', // inner's last line, wholly inside it
      '  [1].map((x) => x + a);', // an inline callback on a line of outer's
      '  return inner();', // 5
      '}', // 6
    ].join('\n');
    const sizes = functionSizes('t.ts', text);
    expect(sizes.map((s) => [s.where, s.own])).toEqual([
      ['t.ts:1 outer', 6],
      ['t.ts:5 inner', 3],
      ['t.ts:8 [1].map(…)', 1],
    ]);
  });

  it(`no function in ${FOLDERS.join('/, ')}/ has more than ${MAX_OWN_LINES} lines of its own`, () => {
    const files = execFileSync('git', ['ls-files', '-z', ...FOLDERS], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((f) => /\.(ts|tsx|mts)$/.test(f));
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .flatMap((f) => functionSizes(f, readFileSync(join(ROOT, f), 'utf8')))
      .filter((s) => s.own > MAX_OWN_LINES)
      .map((s) => `${s.where}: ${s.own} lines of its own`);
    expect(over).toEqual([]);
  });
});
