// --baseline: failures an earlier report already had are known (they do not fail the run), and the ones that now
// pass are reported as fixed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyBaseline, BaselineError, baselineLines, failsRun, loadBaseline } from './baseline.ts';
import type { CheckResult, RunReport } from './model.ts';
import { renderJunit } from './reporters/junit.ts';

const result = (name: string, ruleId: string, outcome: CheckResult['outcome']): CheckResult => ({
  name,
  area: 'validation',
  ruleId,
  rule: '',
  provenance: 'documented',
  outcome,
  failures: [],
  assertions: 1,
  ms: 1,
});
const report = (results: CheckResult[]) => ({ results }) as RunReport;
const dir = mkdtempSync(join(tmpdir(), 'crc-baseline-'));
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe('baseline', () => {
  const earlier = file(
    'report.json',
    JSON.stringify(
      report([result('a_check', 'GEN-010', 'failed'), result('b_check', 'ERR-001', 'failed'), result('c_check', 'PAT-001', 'passed')]),
    ),
  );

  it('makes the same failure known, not a new one; the run fails only on new failures', () => {
    const now = applyBaseline(
      report([result('a_check', 'GEN-010', 'failed'), result('b_check', 'ERR-001', 'passed'), result('c_check', 'PAT-001', 'passed')]),
      loadBaseline(earlier),
    );
    expect(now.results.map((r) => !!r.known)).toEqual([true, false, false]);
    expect(failsRun(now)).toBe(false);
    expect(now.baseline).toEqual({ file: earlier, known: ['a_check [GEN-010]'], fixed: ['b_check [ERR-001]'] });
    expect(baselineLines(now).join('\n')).toMatch(
      /1 known failure.*a_check \[GEN-010\][\s\S]*fixed since the baseline: b_check \[ERR-001\]/,
    );

    const worse = applyBaseline(
      report([result('a_check', 'GEN-010', 'failed'), result('c_check', 'PAT-001', 'failed')]),
      loadBaseline(earlier),
    );
    expect(failsRun(worse)).toBe(true);
    expect(worse.baseline?.fixed).toEqual([]);
  });

  it('JUnit shows a known failure as a skip (CI does not fail on it), a new one as a failure', () => {
    const now = applyBaseline(
      { ...report([result('a_check', 'GEN-010', 'failed'), result('c_check', 'PAT-001', 'failed')]), seconds: 1 } as RunReport,
      loadBaseline(earlier),
    );
    const xml = renderJunit(now);
    expect(xml).toMatch(/name="a_check \[GEN-010\]"[\s\S]*?<skipped message="known failure \(in the baseline\): GEN-010/);
    expect(xml).toMatch(/name="c_check \[PAT-001\]"[\s\S]*?<failure /);
    expect(xml).toContain('failures="1" errors="0" skipped="1"');
  });

  it('a check failing on another rule id than in the baseline is new', () => {
    const now = applyBaseline(report([result('a_check', 'GEN-011', 'failed')]), loadBaseline(earlier));
    expect(failsRun(now)).toBe(true);
  });

  it('refuses a file that is not a JSON report, clearly', () => {
    expect(() => loadBaseline(join(dir, 'missing.json'))).toThrow(BaselineError);
    expect(() => loadBaseline(file('text.json', 'not json'))).toThrow(/cannot read .* as JSON/);
    expect(() => loadBaseline(file('other.json', '{"results": [{"name": 1}]}'))).toThrow(/not a report.json/);
  });
});
