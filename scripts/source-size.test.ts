// No hand-written source file is over 500 lines (generated/ aside): past that, a file holds more than one job. The
// files are git's (what a clone has), so a local scratch file never fails the test.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAX_LINES = 500;
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;

/** Lines as an editor counts them: a final newline ends the last line, it does not start another. */
const lineCount = (text: string) => (text === '' ? 0 : text.replace(/\n$/, '').split('\n').length);

describe('source size', () => {
  it('counts lines as an editor does', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('a\nb\n')]).toEqual([0, 1, 1, 2, 2]);
  });

  it(`no hand-written source file is over ${MAX_LINES} lines`, () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((f) => SOURCE.test(f) && !f.startsWith('generated/'));
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .map((f) => [f, lineCount(readFileSync(join(ROOT, f), 'utf8'))] as const)
      .filter(([, n]) => n > MAX_LINES)
      .map(([f, n]) => `${f}: ${n} lines`);
    expect(over).toEqual([]);
  });
});
