// --baseline: an entry is a rule, a check, the operation and status of the failing request and a fingerprint of what
// was expected. The same failure again is known; a new failure under a known rule or check is new and fails the run;
// an expired entry no longer excuses; entries that no longer fail are listed to prune. Older report.json files (whose
// failures carry no operation or status) are read from the failures' text.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMock } from '../../mock/server.ts';
import { applyBaseline, BaselineError, baselineFile, failsRun, loadBaseline } from './baseline.ts';
import { main } from '../cli.ts';
import type { CheckResult, Failure, RunReport } from '../run/model.ts';
import { renderConsole } from './console.ts';
import { renderJunit } from './junit.ts';
import { answer, is, startBrokenProxy } from '../testing/broken-proxy.ts';
import { startTestMock } from '../testing/check-file.ts';
import { runReport } from '../testing/run-report.ts';

const providers404 = (): Failure => ({
  ruleId: 'AUTH-001',
  message: 'GET /providers/748a1737-23be-42dd-bd0c-259cd99b9372',
  expected: '401 for GET /providers/{providerId}',
  actual: '404 {"error":"Not found"}',
  operation: 'GET /providers/{providerId}',
  status: 404,
});
const deletes500 = (): Failure => ({
  ruleId: 'AUTH-001',
  message: 'DELETE /patients/9999999999999999999',
  expected: '401 for DELETE /patients/{patientId}',
  actual: '500 {"error":"Internal error"}',
  operation: 'DELETE /patients/{patientId}',
  status: 500,
});
const result = (name: string, ruleId: string, outcome: CheckResult['outcome'], failures: Failure[] = []): CheckResult => ({
  name,
  area: ruleId.split('-')[0]!,
  ruleId,
  rule: '',
  provenance: 'documented',
  outcome,
  failures,
  assertions: 1,
  ms: 1,
});
const report = (results: CheckResult[]): RunReport => runReport(results);
const dir = mkdtempSync(join(tmpdir(), 'crc-baseline-'));
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

describe('baseline entries', () => {
  const earlier = file(
    'report.json',
    report([
      result('missing_key_rejected', 'AUTH-001', 'failed', [providers404()]),
      result('b_check', 'ERR-001', 'failed', [{ ...providers404(), ruleId: 'ERR-001', expected: 'details' }]),
      result('slow_check', 'DOC-028', 'timed-out'),
      result('c_check', 'PAT-001', 'passed'),
    ]),
  );

  it('the same failure is known; one on another operation under the same rule and check is new and fails the run', () => {
    const same = applyBaseline(report([result('missing_key_rejected', 'AUTH-001', 'failed', [providers404()])]), loadBaseline(earlier));
    expect(same.results[0]!.known).toBe(true);
    expect(failsRun(same)).toBe(false);
    expect(same.causes[0]!.known).toBe(true);

    const worse = applyBaseline(
      report([result('missing_key_rejected', 'AUTH-001', 'failed', [providers404(), deletes500()])]),
      loadBaseline(earlier),
    );
    expect(worse.results[0]!.known).toBe(false);
    expect(worse.results[0]!.failures.map((f) => f.known)).toEqual([true, false]);
    expect(failsRun(worse)).toBe(true);
    expect(worse.baseline!.new).toEqual(['missing_key_rejected [AUTH-001] DELETE /patients/{patientId} → 500']);
    expect(worse.causes.map((c) => [c.summary, c.known])).toEqual([
      ['GET /providers/{providerId} answered 404', true],
      ['DELETE /patients/{patientId} answered 500', false],
    ]);
    const out = renderConsole(worse);
    expect(out).toMatch(/missing_key_rejected {2}\[AUTH-001, documented\] {2}\(1 new, 1 known\)/);
    expect(out).toMatch(/\[new\] DELETE \/patients\/9999999999999999999[\s\S]*\[known\] GET \/providers\//);
    expect(out).toContain(
      'new since the baseline (1, failing the run): missing_key_rejected [AUTH-001] DELETE /patients/{patientId} → 500',
    );
  });

  it('the same status on the same operation with another expectation is new (the fingerprint)', () => {
    const other = applyBaseline(
      report([result('missing_key_rejected', 'AUTH-001', 'failed', [{ ...providers404(), expected: '401 with an {error} body' }])]),
      loadBaseline(earlier),
    );
    expect(failsRun(other)).toBe(true);
  });

  it('lists the entries that no longer fail (prune), only for checks that ran', () => {
    const now = applyBaseline(
      report([
        result('missing_key_rejected', 'AUTH-001', 'passed'),
        result('b_check', 'ERR-001', 'skipped'),
        result('slow_check', 'DOC-028', 'timed-out'),
      ]),
      loadBaseline(earlier),
    );
    expect(failsRun(now)).toBe(false);
    expect(now.baseline!.fixed).toEqual([
      expect.stringMatching(/^missing_key_rejected \[AUTH-001\] GET \/providers\/\{providerId\} → 404 #[0-9a-f]{8}$/),
    ]);
    expect(renderConsole(now)).toMatch(
      /fixed since the baseline: missing_key_rejected \[AUTH-001\] .* \(prune these entries from the baseline\)/,
    );
  });

  it('an expired entry no longer excuses; baseline.json carries expiry dates over', () => {
    const first = report([result('missing_key_rejected', 'AUTH-001', 'failed', [providers404()])]);
    const entries = JSON.parse(baselineFile(first)).entries as Array<Record<string, unknown>>;
    expect(entries).toEqual([
      expect.objectContaining({ check: 'missing_key_rejected', rule: 'AUTH-001', operation: 'GET /providers/{providerId}', status: 404 }),
    ]);
    const lapsed = file('lapsed.json', { entries: [{ ...entries[0], expires: '2020-01-31' }] });
    const later = applyBaseline(first, loadBaseline(lapsed), new Date('2020-02-01T00:00:00Z'));
    expect(failsRun(later)).toBe(true);
    expect(later.baseline!.expired).toEqual([expect.stringMatching(/missing_key_rejected \[AUTH-001\].*\(expired 2020-01-31\)$/)]);
    const onTheDay = applyBaseline(first, loadBaseline(lapsed), new Date('2020-01-31T23:00:00Z'));
    expect(failsRun(onTheDay)).toBe(false);
    expect(JSON.parse(baselineFile(first, loadBaseline(lapsed))).entries[0].expires).toBe('2020-01-31');
  });

  it('reads a report.json written before failures carried operation and status', () => {
    const older = file('older.json', {
      results: [result('missing_key_rejected', 'AUTH-001', 'failed', [{ ...providers404(), operation: undefined, status: undefined }])],
    });
    const entry = loadBaseline(older).entries[0]!;
    expect([entry.operation, entry.status]).toEqual(['GET /providers/{providerId}', 404]);
    const now = applyBaseline(
      report([result('missing_key_rejected', 'AUTH-001', 'failed', [providers404(), deletes500()])]),
      loadBaseline(older),
    );
    expect(now.baseline!.new).toEqual(['missing_key_rejected [AUTH-001] DELETE /patients/{patientId} → 500']);
  });

  it('JUnit shows a check whose every failure is known as a skip, one with a new failure as a failure', () => {
    const now = applyBaseline(
      report([
        result('missing_key_rejected', 'AUTH-001', 'failed', [providers404()]),
        result('invalid_key_rejected', 'AUTH-002', 'failed', [{ ...deletes500(), ruleId: 'AUTH-002' }]),
      ]),
      loadBaseline(earlier),
    );
    const xml = renderJunit(now);
    expect(xml).toMatch(/name="missing_key_rejected \[AUTH-001\]"[\s\S]*?<skipped message="known failure \(in the baseline\): AUTH-001/);
    expect(xml).toMatch(/name="invalid_key_rejected \[AUTH-002\]"[\s\S]*?<failure /);
    expect(xml).toContain('failures="1" errors="0" skipped="1"');
  });

  it('refuses a file that is not a baseline, clearly', () => {
    expect(() => loadBaseline(join(dir, 'missing.json'))).toThrow(BaselineError);
    expect(() => loadBaseline(file('text.json', 'not json'))).toThrow(/cannot read .* as JSON/);
    expect(() => loadBaseline(file('other.json', '{"results": [{"name": 1}]}'))).toThrow(/neither a baseline.json nor a report.json/);
    expect(() => loadBaseline(file('no-print.json', { entries: [{ check: 'a', rule: 'A-001', outcome: 'failed' }] }))).toThrow(
      /fingerprint/,
    );
    expect(() =>
      loadBaseline(file('bad-date.json', { entries: [{ check: 'a', rule: 'A-001', outcome: 'blocked', expires: 'soon' }] })),
    ).toThrow(/expires "soon", not a date/);
  });
});

// The scenario against the mock: the baseline is a run where GET /providers/{id} answered 404; then
// DELETE /patients/{id} answers 500 too. The key checks already failing on the providers now also fail on the
// delete: those failures are new, printed as new, and the run exits 1.
describe('a regression under rules the baseline already has', () => {
  let mock: RunningMock;
  let proxy: { origin: string; close(): Promise<void> };
  let deleteBroken = false;
  const out = mkdtempSync(join(tmpdir(), 'crc-baseline-run-'));
  const run = async (extra: string[]) => {
    const lines: string[] = [];
    const argv = ['--url', `${proxy.origin}/ext-api/v1`, '--mock', '--only', 'auth,prv,patient_lifecycle', '--out', out, ...extra];
    const code = await main(argv, lines.push.bind(lines), lines.push.bind(lines));
    return { code, out: lines.join('\n') };
  };

  beforeAll(async () => {
    mock = await startTestMock();
    proxy = await startBrokenProxy(new URL(mock.url).origin, {
      name: 'providers 404, then deletes 500',
      area: 'prv',
      rule: 'PRV-008',
      response(res, req) {
        if (is(req, 'GET', /^\/providers\/[^/]+$/)) answer(res, 404, { error: 'Not found' });
        if (deleteBroken && is(req, 'DELETE', /^\/patients\/[^/]+$/)) answer(res, 500, { error: 'Internal error' });
      },
    });
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });

  it('the new failures under AUTH-001/002/009/010/023 are new and fail the run; the same defect alone passes', async () => {
    const first = await run(['--reporter', 'console,json']);
    expect(first.code, first.out.slice(-1500)).toBe(1);
    const saved = join(dir, 'first-report.json');
    writeFileSync(saved, readFileSync(join(out, 'report.json')));

    deleteBroken = true;
    const second = await run(['--reporter', 'console,json', '--baseline', saved]);
    expect(second.code, second.out.slice(-2500)).toBe(1);
    const newLine = /^new since the baseline \(\d+, failing the run\): (.*)$/m.exec(second.out)![1]!;
    for (const [check, rule] of [
      ['missing_key_rejected', 'AUTH-001'],
      ['invalid_key_rejected', 'AUTH-002'],
      ['expired_key_rejected', 'AUTH-009'],
      ['revoked_key_rejected', 'AUTH-010'],
      ['missing_scope_forbidden', 'AUTH-023'],
    ]) {
      expect(newLine).toContain(`${check} [${rule}] DELETE /patients/{patientId} → 500`);
      expect(second.out).toMatch(new RegExp(`✗ ${check} {2}\\[${rule}, documented\\] {2}\\(\\d+ new, \\d+ known\\)`));
    }
    expect(second.out).toMatch(/DELETE \/patients\/\{patientId\} answered 500 \(new\)/);
    expect(second.out).toMatch(/GET \/providers\/\{providerId\} answered 404 \(known\)/);

    deleteBroken = false;
    const again = await run(['--reporter', 'console', '--baseline', join(out, 'baseline.json')]);
    expect(again.code, again.out.slice(-1500)).toBe(0);
    expect(again.out).toContain('new since the baseline: none');
  }, 120_000);
});
