// One defect, one cause: failures that share an answer (an operation and its status) are one cause, whatever checks
// they fail; a check failing alone the same way on several operations is one cause too. A single-defect server
// (GET /providers/{id} answering 404) fails several checks, and every report says so: "N checks failed with M failures from 1 cause".
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMock } from '../../mock/server.ts';
import { causeGroups, causesOf, shapeOf } from './causes.ts';
import { main } from '../cli.ts';
import type { CheckResult, Failure, RunReport } from '../run/model.ts';
import { answer, is, startBrokenProxy } from '../testing/broken-proxy.ts';
import { startTestMock } from '../testing/check-file.ts';

const failure = (operation: string | undefined, status: number | undefined, expected: string): Failure => ({
  ruleId: 'X-001',
  message: operation ?? 'no request',
  expected,
  actual: String(status),
  operation,
  status,
});
const failed = (name: string, ruleId: string, failures: Failure[]): CheckResult => ({
  name,
  area: ruleId.split('-')[0]!,
  ruleId,
  rule: '',
  provenance: 'documented',
  outcome: 'failed',
  failures,
  assertions: failures.length,
  ms: 1,
});

describe('causes', () => {
  it('failures on one answer are one cause across checks; a check in two causes counts in both', () => {
    const causes = causesOf([
      failed('provider_by_id', 'PRV-008', [
        failure('GET /providers/{providerId}', 404, '200 with provider 1b4e28ba-2fa1-11d2-883f-0016d3cca427'),
        failure('GET /providers/{providerId}', 404, '200 with provider 6fa459ea-ee8a-3ca4-894e-db77e160355e'),
      ]),
      failed('missing_key_rejected', 'AUTH-001', [
        failure('GET /providers/{providerId}', 404, '401 for GET /providers/{providerId}'),
        failure('DELETE /patients/{patientId}', 500, '401 for DELETE /patients/{patientId}'),
      ]),
      failed('patient_lifecycle', 'PAT-024', [failure('DELETE /patients/{patientId}', 500, '200 { success: true }')]),
      { ...failed('fine', 'PAT-001', []), outcome: 'passed' },
    ]);
    expect(causes).toEqual([
      {
        summary: 'GET /providers/{providerId} answered 404',
        checks: ['provider_by_id', 'missing_key_rejected'],
        rules: ['PRV-008', 'AUTH-001'],
        failures: 3,
      },
      {
        summary: 'DELETE /patients/{patientId} answered 500',
        checks: ['missing_key_rejected', 'patient_lifecycle'],
        rules: ['AUTH-001', 'PAT-024'],
        failures: 2,
      },
    ]);
  });

  it('a check failing alone the same way on several operations is one cause; one without a request is its own', () => {
    const groups = causeGroups([
      failed('error_body_shape', 'GEN-005', [
        failure('POST /patients', 400, 'a JSON error body { error: <string> } for 400'),
        failure('GET /patients/{patientId}', 404, 'a JSON error body { error: <string> } for 404'),
        failure('GET /providers/{providerId}', 404, 'a JSON error body { error: <string> } for 404'),
      ]),
      failed('delivery_payload_valid', 'EVT-006', [failure(undefined, undefined, 'payload valid against DocumentEvent')]),
    ]);
    expect(groups.map((g) => [g.cause.summary, g.cause.failures])).toEqual([
      ['error_body_shape: expected a JSON error body { error: <string> } for 400 (on 3 operations and statuses)', 3],
      ['delivery_payload_valid: expected payload valid against DocumentEvent', 1],
    ]);
  });

  it('what changes from run to run is not part of a failure’s shape', () => {
    expect(shapeOf('409 body { existing: { id: "7281", external_id: "crc-20261122ab12cd-dup-3" } } for /patients/123456789')).toBe(
      shapeOf('409 body { existing: { id: "9", external_id: "crc-20261123ffee00-dup-7" } } for /patients/987654321'),
    );
    expect(shapeOf('401 for GET /providers/{providerId}')).not.toBe(shapeOf('401 for DELETE /patients/{patientId}'));
  });
});

describe('a single-defect server: GET /providers/{id} answers 404', () => {
  let mock: RunningMock;
  let proxy: { origin: string; close(): Promise<void> };
  const dir = mkdtempSync(join(tmpdir(), 'crc-causes-'));
  const lines: string[] = [];
  let code: number;

  beforeAll(async () => {
    mock = await startTestMock();
    proxy = await startBrokenProxy(new URL(mock.url).origin, {
      name: 'provider by id answers 404',
      area: 'prv',
      rule: 'PRV-008',
      response: (res, req) => void (is(req, 'GET', /^\/providers\/[^/]+$/) && answer(res, 404, { error: 'Not found' })),
    });
    const argv = ['--url', `${proxy.origin}/ext-api/v1`, '--mock', '--only', 'prv,auth,ver'];
    code = await main([...argv, '--reporter', 'console,junit,json,html', '--out', dir], lines.push.bind(lines), lines.push.bind(lines));
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });

  it('the console ends with "N checks failed with M failures from 1 cause", the cause with its checks and rule ids', () => {
    expect(code).toBe(1);
    const out = lines.join('\n');
    const end =
      /\n(\d+) checks failed with (\d+) failures from 1 cause:\n {2}1\. GET \/providers\/\{providerId\} answered 404: (\d+) checks, (\d+) failures\n {5}(.+)$/.exec(
        out,
      );
    expect(end, out.slice(-1500)).not.toBeNull();
    expect(Number(end![1])).toBeGreaterThanOrEqual(5);
    // One cause: its checks and failures are the heading's.
    expect(end![3]).toBe(end![1]);
    expect(end![4]).toBe(end![2]);
    for (const c of ['provider_by_id [PRV-008]', 'missing_key_rejected [AUTH-001]', 'missing_scope_forbidden [AUTH-023]'])
      expect(end![5]).toContain(c);
    // Each area once, in the report's order; progress lines count checks and name none.
    for (const area of ['PRV', 'AUTH', 'VER']) expect(out.match(new RegExp(`^ {2}${area} `, 'gm'))).toHaveLength(1);
  });

  it('report.json has a top-level causes array with summary, checks and rules', () => {
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
    const failedChecks = report.results.filter((r) => r.outcome === 'failed');
    expect(report.causes).toHaveLength(1);
    const [cause] = report.causes;
    expect(cause!.summary).toBe('GET /providers/{providerId} answered 404');
    expect(new Set(cause!.checks)).toEqual(new Set(failedChecks.map((r) => r.name)));
    expect(cause!.rules).toEqual(cause!.checks.map((n) => failedChecks.find((r) => r.name === n)!.ruleId));
    for (const r of failedChecks) for (const f of r.failures) expect([f.operation, f.status]).toEqual(['GET /providers/{providerId}', 404]);
  });

  it('JUnit names the cause on every failed testcase and lists the other checks it failed', () => {
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const cases = xml.split('<testcase ').slice(1);
    const failing = cases.filter((c) => c.includes('<failure '));
    expect(failing.length).toBeGreaterThanOrEqual(5);
    for (const c of failing) {
      expect(c).toContain('<property name="cause" value="1: GET /providers/{providerId} answered 404"/>');
      expect(c).toMatch(/<failure message="[A-Z]+-\d{3}: cause 1: GET \/providers\/\{providerId\} answered 404"/);
      expect(c).toMatch(/cause 1 of 1: GET \/providers\/\{providerId\} answered 404 \(also failing: [a-z_]+ \[[A-Z]+-\d{3}\]/);
    }
  });

  it('the HTML report opens on the cause, each of its checks linked to its evidence', () => {
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    const section = /<section id="failed-rules">([\s\S]*?)<\/section>/.exec(html)![1]!;
    expect(section).toMatch(/Failed rules: \d+ checks failed with \d+ failures from 1 cause/);
    expect(section).toContain('<div class="cause" id="cause-1"><h3>1. GET /providers/{providerId} answered 404');
    for (const href of section.match(/href="#check-[a-z_]+"/g)!) expect(html).toContain(`id="${href.slice(7, -1)}"`);
    expect(html).toContain('<a class="tag" href="#cause-1">cause 1</a>');
  });
});
