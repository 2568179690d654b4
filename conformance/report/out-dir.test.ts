// --out is checked before the run: a path that cannot be a writable folder ends the command at once (exit 2, saying
// why); files are written under a fresh name and renamed, so a symlink planted under a report's name is replaced,
// never followed.
import { lstatSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../cli.ts';
import { OutDirError, prepareOutDir, writeInto } from './out-dir.ts';

const base = mkdtempSync(join(tmpdir(), 'crc-out-'));
const usage = async (out: string) => {
  const lines: string[] = [];
  const t0 = performance.now();
  // An unreachable target: had the run started, it would say "cannot reach", not name --out.
  const argv = ['--url', 'http://127.0.0.1:1/ext-api/v1', '--key', 'k', '--reporter', 'console,json', '--out', out];
  const code = await main(argv, lines.push.bind(lines), lines.push.bind(lines));
  return { code, text: lines.join('\n'), ms: performance.now() - t0 };
};

describe('--out', () => {
  it('/proc/nope fails at once with exit 2 and says why, before anything is sent', async () => {
    const r = await usage('/proc/nope');
    expect(r.code).toBe(2);
    expect(r.text).toMatch(/^clinical-records-conformance: --out \/proc\/nope: cannot create \/proc\/nope \([A-Z]+\)$/);
    expect(r.ms).toBeLessThan(2_000);
  });

  it('a file, or a path through a file, is not a folder', async () => {
    const file = join(base, 'a-file');
    writeFileSync(file, 'x');
    expect((await usage(file)).text).toMatch(/--out .*a-file: .*a-file is not a folder/);
    const through = await usage(join(file, 'reports'));
    expect(through.code).toBe(2);
    expect(through.text).toMatch(/--out .*a-file\/reports: /);
  });

  it('makes missing folders one level at a time', () => {
    const deep = join(base, 'x', 'y', 'z');
    expect(prepareOutDir(deep)).toBe(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(() => prepareOutDir('/proc/self/nope/deeper')).toThrow(OutDirError);
  });

  it('replaces a symlink planted under a report name instead of writing through it', () => {
    const dir = prepareOutDir(join(base, 'planted'));
    const victim = join(base, 'victim.txt');
    writeFileSync(victim, 'untouched');
    symlinkSync(victim, join(dir, 'report.json'));
    symlinkSync(victim, join(dir, 'keys.env'));
    writeInto(dir, 'report.json', '{"ok":true}');
    writeInto(dir, 'keys.env', 'export A=1\n', 0o600);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(lstatSync(join(dir, 'report.json')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe('{"ok":true}');
    expect(statSync(join(dir, 'keys.env')).mode & 0o777).toBe(0o600);
  });
});
