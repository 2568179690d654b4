// The test files that change or measure what a whole process shares run in a process of their own
// (vitest.config.ts's OWN_PROCESS); every other file shares its worker's process with the files before it. A file
// that patches a global, spies on one, sets process.env, adds a process handler, sets a V8 flag or measures memory
// must be listed there, or it would leak into, or be misled by, the files it shares a process with. The files are
// git's (what a clone has).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OWN_PROCESS } from '../vitest.config.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = 'scripts/own-process.test.ts';

/** What a file does that reaches past itself: each pattern with what it is. */
const PROCESS_WIDE: Array<[RegExp, string]> = [
  [/\bvi\.(spyOn|stubGlobal|stubEnv|mock|doMock|useFakeTimers)\(/, 'a spy, stub or mock of vi'],
  [/\bsetupServer\(|from 'msw/, 'MSW (it patches the global fetch)'],
  [/process\.env\.\w+\s*=(?!=)|delete process\.env/, 'a process.env write'],
  [/process\.(on|once)\(/, 'a process handler'],
  [/setFlagsFromString|--expose-gc/, 'a V8 flag'],
  [/memoryUsage|getHeapStatistics|\bpeakRss\b/, 'a memory measurement'],
];

/** A glob of OWN_PROCESS as a pattern: `*` is any name within one folder. */
const globPattern = (glob: string) => new RegExp(`^${glob.replace(/[.+?^$()|[\]\\{}]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

const ownProcess = (file: string) => OWN_PROCESS.some((g) => globPattern(g).test(file));

/** The test files a clone has. */
const testFiles = execFileSync('git', ['ls-files', '-z', '*.test.ts'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);

describe('files in a process of their own', () => {
  it('reads a glob as vitest does for these names', () => {
    expect(globPattern('mock/in-process/*.test.ts').test('mock/in-process/node.test.ts')).toBe(true);
    expect(globPattern('mock/in-process/*.test.ts').test('mock/in-process/x/node.test.ts')).toBe(false);
    expect(globPattern('mock/msw.test.ts').test('mock/mswXtest.ts')).toBe(false);
  });

  it('lists every test file that changes or measures what its process shares', () => {
    expect(testFiles.length).toBeGreaterThan(150);
    const unlisted = testFiles
      .filter((f) => !ownProcess(f) && f !== SELF) // this file names the patterns, and does none of it
      .flatMap((f) => {
        const text = readFileSync(join(ROOT, f), 'utf8');
        return PROCESS_WIDE.filter(([re]) => re.test(text)).map(([, what]) => `${f}: ${what}`);
      });
    expect(unlisted).toEqual([]);
  });

  it('lists only files that exist', () => {
    expect(OWN_PROCESS.filter((g) => !testFiles.some((f) => globPattern(g).test(f)))).toEqual([]);
  });
});
