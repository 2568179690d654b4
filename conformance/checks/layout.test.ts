// The layout of the checks: one file (or folder) per rule area, named for the rule-id prefix; each check a named
// top-level function of its file with one rule; check files importing only support/ and the suite's modules.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allChecks, checkFiles } from './index.ts';
import { responseChecks } from '../../judge/checks/index.ts';
import { variants } from '../testing/variants.ts';

const DIR = new URL('.', import.meta.url).pathname;
const ROOT = new URL('..', import.meta.url).pathname;

/** Every .ts file under `dir`, relative to it. */
function tsFiles(dir: string, under = ''): string[] {
  return readdirSync(dir + under).flatMap((f) => {
    const rel = under ? `${under}/${f}` : f;
    if (statSync(dir + rel).isDirectory()) return f === 'node_modules' ? [] : tsFiles(dir, rel);
    return f.endsWith('.ts') ? [rel] : [];
  });
}

const sourceFiles = tsFiles(DIR).filter((f) => !f.endsWith('.test.ts') && f !== 'index.ts');
const checkFileNames = sourceFiles.filter((f) => !f.startsWith('support/'));
/** auth.ts → AUTH; evt/delivery.ts → EVT. */
const areaOfFile = (f: string) => f.split('/')[0]!.replace(/\.ts$/, '').toUpperCase();
const importsOf = (f: string) => [...readFileSync(DIR + f, 'utf8').matchAll(/^import [^;]*? from '([^']+)';$/gm)].map((m) => m[1]!);

describe('checks layout', () => {
  it('index.ts lists every check file', () => {
    expect(Object.keys(checkFiles).sort()).toEqual(checkFileNames.sort());
  });

  it("each check sits in its rule area's file, as a top-level function whose name is the check's name", () => {
    const misplaced: string[] = [];
    for (const [f, mod] of Object.entries(checkFiles)) {
      const exported = mod as unknown as Record<string, unknown>;
      for (const c of mod.checks ?? []) {
        if (c.area !== areaOfFile(f) || c.rule.split('-')[0] !== c.area) misplaced.push(`${c.name} (${c.rule}) in ${f}`);
        if (exported[c.name] !== c.run) misplaced.push(`${c.name}: not the exported function ${c.name} of ${f}`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('a check file exports its checks and nothing else (its other exports would be dead code no tool reports)', () => {
    const stray: string[] = [];
    for (const [f, mod] of Object.entries(checkFiles)) {
      const named = new Set(['checks', ...(mod.checks ?? []).map((c) => c.name)]);
      for (const name of Object.keys(mod)) if (!named.has(name)) stray.push(`${f}: ${name}`);
    }
    expect(stray).toEqual([]);
  });

  it('check names are snake_case function names, one rule id each', () => {
    for (const mod of Object.values(checkFiles))
      for (const c of mod.checks ?? []) {
        expect(c.name, c.name).toMatch(/^[a-z][a-z0-9_]*$/);
        expect(c.rule, c.name).toMatch(/^[A-Z]+-\d{3}$/);
      }
  });

  it('check files never import each other: only support/ and the modules outside checks/', () => {
    const bad: string[] = [];
    for (const f of sourceFiles) {
      for (const spec of importsOf(f)) {
        if (!spec.startsWith('.')) continue;
        const target = new URL(spec, `file://${DIR}${f}`).pathname;
        const inChecks = target.startsWith(DIR);
        const rel = target.slice(DIR.length);
        if (inChecks && !rel.startsWith('support/')) bad.push(`${f} imports ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('no file of the suite is over 500 lines', () => {
    const long = tsFiles(ROOT)
      .map((f) => [f, readFileSync(ROOT + f, 'utf8').split('\n').length] as const)
      .filter(([, n]) => n > 500)
      .map(([f, n]) => `${f}: ${n} lines`);
    expect(long).toEqual([]);
  });

  it('every check has a broken variant that proves it can fail', () => {
    // A variant is a [check, rule, ...] entry of a test under conformance/ (run by describeBrokenVariants, the
    // broken sender, or a tampering receiver, each asserting the check fails on its rule), or a single-defect
    // variant of testing/variants.ts whose rule has exactly this one check.
    const entries = new Set<string>();
    for (const f of tsFiles(ROOT).filter((x) => x.endsWith('.test.ts')))
      for (const m of readFileSync(ROOT + f, 'utf8').matchAll(/'([a-z][a-z0-9_]*)',\s*'([A-Z]+-\d{3})'/g)) entries.add(`${m[1]} ${m[2]}`);
    const all = [...allChecks, ...responseChecks];
    for (const v of variants({ main: '', scoped: [], otherOrg: '', expired: '' })) {
      const own = all.filter((c) => c.rule === v.rule);
      if (own.length === 1) entries.add(`${own[0]!.name} ${v.rule}`);
    }
    expect(all.filter((c) => !entries.has(`${c.name} ${c.rule}`)).map((c) => `${c.name} [${c.rule}]`)).toEqual([]);
  });
});
