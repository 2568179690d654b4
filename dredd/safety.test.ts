// The small pieces that keep a Dredd run's output safe: control characters shown as escapes, server text that
// cannot leave its place in a report, the console writer (a key split across chunks, a line that never ends), the
// report budget, and --out (created one level at a time, proved writable, a planted symbolic link replaced and never
// written through).
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from './args.ts';
import { safeWriter } from './console.ts';
import { prepareOutDir, writeInto } from './out-dir.ts';
import { ReportBudget, shapeForReport } from './report-view.ts';
import { escapeControls, markdownSafe, reportSafe } from './sanitize.ts';
import { Secrets } from './secrets.ts';

const KEY = 'crk_all_0123456789abcdef01234567';
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'dredd-safety-'));
  dirs.push(d);
  return d;
};

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('sanitize', () => {
  it('writes control characters as \\uXXXX and keeps tab and newline', () => {
    expect(escapeControls('a\x1b]0;title\x07b\r\n\tc\x9b2J\u202eevil')).toBe('a\\u001b]0;title\\u0007b\\u000d\n\tc\\u009b2J\\u202eevil');
  });

  it('keeps server text inside the code fence and CDATA section the reporters give it', () => {
    expect(reportSafe('x\n```\n  ~~~~\nok ]]> y')).toBe('x\n\\```\n  \\~~~~\nok ]]\\u003e y');
    expect(markdownSafe('<script>alert(1)</script>')).toBe('&lt;script>alert(1)&lt;/script>');
  });
});

describe('console writer', () => {
  const secrets = new Secrets();
  secrets.add(KEY, '$CLINICAL_RECORDS_KEY');

  it('redacts a key split across chunks and escapes controls', () => {
    let out = '';
    const w = safeWriter(secrets, (s) => void (out += s));
    w.push(Buffer.from(`one ${KEY.slice(0, 10)}`));
    w.push(Buffer.from(`${KEY.slice(10)} two\x1b[2J\nthree`));
    w.end();
    expect(out).toBe('one $CLINICAL_RECORDS_KEY two\\u001b[2J\nthree');
  });

  it('passes a line that never ends on in pieces, never a piece of the key', () => {
    let out = '';
    let largestWrite = 0;
    const w = safeWriter(secrets, (s) => {
      out += s;
      largestWrite = Math.max(largestWrite, s.length);
    });
    const filler = 'x'.repeat(64 * 1024 - 5);
    for (let i = 0; i < 40; i++) w.push(Buffer.from(`${filler}${KEY}`));
    w.end();
    expect(largestWrite).toBeLessThan(200 * 1024);
    expect(out).not.toContain(KEY.slice(-12));
    expect(out.split('$CLINICAL_RECORDS_KEY')).toHaveLength(41);
  });
});

describe('report budget', () => {
  it('cuts each body to its share and keeps nothing once the total is spent, after making it safe', () => {
    const budget = new ReportBudget(10, 25);
    const t = (body: string) => ({ real: { headers: { 'x-evil': 'a\x1b[31m' }, body }, test: { message: 'body: \x07' } });
    const first = t('0123456789abcdef');
    shapeForReport(first, budget);
    expect(first.real.body).toBe('0123456789\n[… 6 more characters not kept]');
    expect(first.real.headers['x-evil']).toBe('a\\u001b[31m');
    expect(first.test.message).toBe('body: \\u0007');
    const second = t('abcdefghijklmnop');
    shapeForReport(second, budget);
    expect(second.real.body).toBe('abcdefghij\n[… 6 more characters not kept]');
    const third = t('ABCDEFGHIJ');
    shapeForReport(third, budget);
    expect(third.real.body).toBe('ABCDE\n[… 5 more characters not kept]');
    const fourth = t('zz');
    shapeForReport(fourth, budget);
    expect(fourth.real.body).toMatch(/^\[2 characters not kept: the report keeps at most .+ of answer bodies\]$/);
  });
});

describe('--out', () => {
  it('creates missing folders one level at a time and proves the folder writable', () => {
    const base = tempDir();
    const dir = prepareOutDir(join(base, 'a', 'b'), ['dredd.md']);
    expect(dir).toBe(join(base, 'a', 'b'));
    expect(lstatSync(dir).isDirectory()).toBe(true);
    expect(existsSync(join(dir, '.dredd-write-probe'))).toBe(false);
  });

  it('refuses, at once, a path that cannot be a writable folder', () => {
    const base = tempDir();
    writeFileSync(join(base, 'file'), '');
    mkdirSync(join(base, 'out'));
    mkdirSync(join(base, 'out', 'dredd.md'));
    const t0 = performance.now();
    for (const [path, message] of [
      ['/proc/nope/deeper', /^--out: cannot (create|write in) \/proc\/nope/],
      [join(base, 'file', 'x'), /is not a folder/],
      [join(base, 'out'), /dredd\.md exists and is not a file/],
    ] as const) {
      const e = (() => {
        try {
          prepareOutDir(path, ['dredd.md']);
        } catch (err) {
          return err;
        }
      })();
      expect(e, path).toBeInstanceOf(UsageError);
      expect((e as Error).message, path).toMatch(message);
    }
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  it('replaces a symbolic link planted in the folder instead of writing through it', () => {
    const base = tempDir();
    const outside = join(base, 'outside.txt');
    writeFileSync(outside, 'precious\n');
    const out = join(base, 'out');
    mkdirSync(out);
    symlinkSync(outside, join(out, 'dredd.md'));
    prepareOutDir(out, ['dredd.md']);
    writeInto(out, 'dredd.md', '# report\n');
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(lstatSync(join(out, 'dredd.md')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(out, 'dredd.md'), 'utf8')).toBe('# report\n');
  });
});
