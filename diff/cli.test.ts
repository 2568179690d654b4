// `npm run diff` as a command over a throwaway repository: refs in, renderings out, --fail-on and --check-versions as
// exit codes, changelog entries written, and every bad input a clear message with exit 2, never a stack trace.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { USAGE } from './args.ts';
import { main } from './cli.ts';
import { packGate } from './versions.ts';

const ROOT = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'crc-diff-cli-'));
const repo = join(work, 'repo');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
const writeJson = (file: string, value: unknown) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
const version = (v: string) => {
  for (const name of ['clinical-records-api', 'clinical-records-mock', 'clinical-records-conformance'])
    writeJson(join(repo, 'packages', `${name}.json`), { name, version: v });
};

beforeAll(() => {
  mkdirSync(join(repo, 'spec'), { recursive: true });
  mkdirSync(join(repo, 'packages'));
  cpSync(join(ROOT, 'spec/openapi.yaml'), join(repo, 'spec/openapi.yaml'));
  cpSync(join(ROOT, 'spec/rules.yaml'), join(repo, 'spec/rules.yaml'));
  version('1.0.0');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'first contract');
  // A breaking edit: a field of every provider response removed.
  const spec = readFileSync(join(repo, 'spec/openapi.yaml'), 'utf8');
  const edited = spec.replace(/^( {8})title:\n {10}type: \[string, 'null'\]\n/m, '');
  expect(edited).not.toBe(spec);
  writeFileSync(join(repo, 'spec/openapi.yaml'), edited);
  git(repo, 'commit', '-qam', 'provider title removed');
});

function run(...argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  vi.spyOn(console, 'log').mockImplementation((...a) => void (out += `${a.join(' ')}\n`));
  vi.spyOn(console, 'error').mockImplementation((...a) => void (err += `${a.join(' ')}\n`));
  const code = main(argv, repo);
  vi.restoreAllMocks();
  return { code, out, err };
}
afterEach(() => vi.restoreAllMocks());

describe('npm run diff -- <base> [<head>]', () => {
  it('JSON: each change with where, rules and per-package bumps; --fail-on breaking exits 1', () => {
    const { code, out, err } = run('HEAD~1', 'HEAD', '--format', 'json', '--fail-on', 'breaking');
    expect(code).toBe(1);
    expect(err).toMatch(/breaking changes \(--fail-on breaking\)/);
    const report = JSON.parse(out);
    expect(report.needs['clinical-records-api']).toBe('major');
    expect(report.audiences).toEqual({
      clients: 'clinical-records-api',
      'mock users': 'clinical-records-mock',
      implementations: 'clinical-records-conformance',
    });
    const removed = report.changes.find((c: any) => c.message.includes('`title`'));
    expect(removed).toMatchObject({ where: { method: 'GET', path: '/providers' }, impacts: { clients: 'major' } });
    expect(removed.rules).toContain('PRV-002');
  });

  it('Markdown for a pull-request comment, and the console; without --fail-on the exit is 0', () => {
    const md = run('HEAD~1', 'HEAD', '--format', 'markdown');
    expect(md.code).toBe(0);
    expect(md.out).toMatch(/^### Contract diff: `HEAD~1 \([0-9a-f]{7}\)` → `HEAD \([0-9a-f]{7}\)`/);
    expect(md.out).toMatch(/\| clinical-records-api \| major \| 1\.0\.0 → 1\.0\.0 \|/);
    expect(md.out).toMatch(/#### Breaking \(1\)/);
    const text = run('HEAD~1', 'HEAD');
    expect(text.out).toMatch(
      /api major, mock major, suite major:\n {2}GET \/providers \(\+1 more\): Property `title` of `Provider` was removed\. \(rules: .*PRV-002/,
    );
  });

  it('--fail-on any passes when nothing needs a bump (same commit twice)', () => {
    expect(run('HEAD', 'HEAD', '--fail-on', 'any').code).toBe(0);
    expect(run('HEAD~1', 'HEAD', '--fail-on', 'any').code).toBe(1);
  });

  it('the working tree is the default head, and the earliest contract the default base (said on stderr)', () => {
    const { code, err, out } = run('--format', 'json');
    expect(code).toBe(0);
    expect(err).toMatch(/base: [0-9a-f]{40} \(no tag: earliest commit with spec\/openapi.yaml\)/);
    expect(JSON.parse(out).head.ref).toBe('WORKTREE');
  });

  it.each([
    [['no-such-ref'], /no-such-ref is not a commit in this repository's history/],
    [['HEAD', '--format', 'yaml'], /--format takes one of console, markdown, json, got "yaml"/],
    [['HEAD', '--fail-on'], /--fail-on takes one of breaking, any/],
    [['HEAD', '--bogus'], /unknown option --bogus/],
    [['a', 'b', 'c'], /at most two refs/],
    [['HEAD~1', 'HEAD', '--check-versions'], /give no <head-ref>/],
    [['--output'], /--output takes a file name/],
  ])('%j is refused with a clear message and exit 2', (argv, message) => {
    const { code, err } = run(...argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err).toMatch(/usage: npm run diff/);
  });
});

describe('--check-versions and --changelog', () => {
  it('refuses a breaking change under an unchanged major, and a bump without a changelog entry', () => {
    const unchanged = run('--check-versions');
    expect(unchanged.code).toBe(1);
    expect(packGate(repo)).toEqual({
      refuse: true,
      lines: expect.arrayContaining([expect.stringMatching(/^clinical-records-api: breaking changes under an unchanged major version/)]),
    });
    expect(unchanged.out).toMatch(/clinical-records-api .*breaking changes under an unchanged major version \(1\.0\.0 → 1\.0\.0\)/);
    version('1.1.0');
    expect(run('--check-versions').out).toMatch(/unchanged major version \(1\.0\.0 → 1\.1\.0\)/);
    version('2.0.0');
    expect(run('--check-versions').out).toMatch(/has no entry for 2\.0\.0/);
  });

  it('--changelog writes an entry per package with the rule ids; then the versions pass', () => {
    version('2.0.0');
    expect(run('--changelog').code).toBe(0);
    const api = readFileSync(join(repo, 'packages/clinical-records-api.CHANGELOG.md'), 'utf8');
    expect(api).toMatch(/^## 2\.0\.0 \(\d{4}-\d{2}-\d{2}\)$/m);
    expect(api).toMatch(/### Breaking\n\n- GET \/providers \(\+1 more\): Property `title` of `Provider` was removed\. \(rules: .*PRV-002/);
    run('--changelog'); // again: the entry is replaced, not repeated
    expect(readFileSync(join(repo, 'packages/clinical-records-api.CHANGELOG.md'), 'utf8').match(/^## 2\.0\.0/gm)).toHaveLength(1);
    const ok = run('--check-versions', '--format', 'json');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out).versions.map((v: any) => v.ok)).toEqual([true, true, true]);
    expect(packGate(repo)).toEqual({ refuse: false, lines: [] });
  });

  it('a shallow clone that lacks the base skips the check with a message, exit 0', () => {
    const shallow = join(work, 'shallow');
    git(work, 'clone', '-q', '--depth', '1', `file://${repo}`, shallow);
    let err = '';
    vi.spyOn(console, 'error').mockImplementation((...a) => void (err += `${a.join(' ')}\n`));
    const code = main(['--check-versions'], shallow);
    vi.restoreAllMocks();
    expect(code).toBe(0);
    expect(err).toMatch(/version check skipped: a shallow clone without tags cannot see the earliest contract/);
    expect(packGate(shallow)).toEqual({ refuse: false, lines: [expect.stringMatching(/^version check skipped: a shallow clone/)] });
  });
});

it("docs/contract.md's option table names every flag of the usage, and no other", () => {
  const docs = readFileSync(join(ROOT, 'docs/contract.md'), 'utf8');
  const table = docs.slice(docs.indexOf('| option | meaning |'), docs.indexOf('Exit codes: 0 fine'));
  const flags = (text: string) => [...new Set(text.match(/--[a-z][a-z-]+/g))].sort();
  expect(flags(table)).toEqual(flags(USAGE));
  expect(flags(USAGE)).toEqual(['--changelog', '--check-versions', '--fail-on', '--format', '--output']);
});
