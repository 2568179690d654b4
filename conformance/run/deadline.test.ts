// Every run ends: the suite's CLI, as its own process, against a target that answers every request 429 with
// Retry-After (a window that never reopens) and one that falls silent, each after the mock answered its first two API
// requests so that the checks (or the exploration) have begun. Each ends within --max-time (plus the cleanup's bound),
// with every report written, what did not run marked, and the rate limit's waits reported.
import { describe, expect, it } from 'vitest';
import { parseCli, UsageError } from './args.ts';
import { MockControl } from '../target/mock-control.ts';
import { useTestMock } from '../testing/check-file.ts';
import { runHostile, type HostileCase } from '../testing/hostile-run.ts';
import type { RunReport } from './model.ts';

const { mock } = useTestMock();
const REPORTS = ['junit.xml', 'report.json', 'report.html'];

async function mainKey(): Promise<string> {
  return (await new MockControl(mock().url, 5000).keys()).find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
}

const after2 = (c: Omit<HostileCase, 'upstream' | 'spareApi'>): HostileCase => ({
  ...c,
  upstream: new URL(mock().url).origin,
  spareApi: 2,
});

describe('--max-time: the whole run ends, with its reports', { timeout: 120_000 }, () => {
  it('parses durations (seconds, s, m, h; default 15 minutes) and refuses anything else', () => {
    const url = ['--url', 'http://127.0.0.1:1/ext-api/v1', '--key', 'k'];
    expect(parseCli(url).maxTimeMs).toBe(900_000);
    expect(parseCli([...url, '--max-time', '90']).maxTimeMs).toBe(90_000);
    expect(parseCli([...url, '--max-time', '20m']).maxTimeMs).toBe(1_200_000);
    expect(parseCli([...url, '--max-time', '1.5h']).maxTimeMs).toBe(5_400_000);
    for (const bad of ['0', '-5', '15 min', 'soon', '25h']) expect(() => parseCli([...url, '--max-time', bad]), bad).toThrow(UsageError);
  });

  it('a target whose every answer is 429 with Retry-After (a window that never reopens): the deadline stops the run, waits reported', async () => {
    const run = await runHostile(
      after2({ label: '429', mode: 'rate-limited', retryAfter: 3, args: ['--mock', '--max-time', '12', '--check-timeout', '60'] }),
      [await mainKey()],
    );
    expect(run.exit).toBe(1);
    expect(run.seconds).toBeLessThan(12 + 20);
    expect([...run.files.keys()]).toEqual(expect.arrayContaining(REPORTS));
    const report = JSON.parse(run.files.get('report.json')!) as RunReport;
    // The deadline, or a 3 s wait that would have ended past it, stopped the run.
    expect(report.stopped).toMatchObject({ why: expect.stringMatching(/--max-time 12 s$/), maxSeconds: 12 });
    expect(report.stopped!.notRun + report.stopped!.cutShort).toBeGreaterThan(0);
    expect(report.results.filter((r) => r.reason === `not run: ${report.stopped!.why}`)).toHaveLength(report.stopped!.notRun);
    expect(report.pacing.pauses).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/STOPPED EARLY: .*--max-time 12 s: \d+ check\(s\) stopped .* rate-limit waits took \d+ s/);
    expect(run.files.get('junit.xml')).toContain(`not run: ${report.stopped!.why}`);
  });

  it('Retry-After: 60 asks past the deadline: not waited at all, the run ends at once with its verdict', async () => {
    const run = await runHostile(after2({ label: '429/60', mode: 'rate-limited', args: ['--mock', '--max-time', '40'] }), [
      await mainKey(),
    ]);
    expect(run.exit).toBe(1);
    expect(run.seconds).toBeLessThan(40);
    expect([...run.files.keys()]).toEqual(expect.arrayContaining(REPORTS));
    const report = JSON.parse(run.files.get('report.json')!) as RunReport;
    expect(report.stopped?.why).toBe("the target's rate limit asked for 60 s more (Retry-After), past --max-time 40 s");
    expect(run.stdout).toMatch(/STOPPED EARLY: the target's rate limit asked for 60 s more/);
  });

  it('--explore against a server that stops answering: stops after a run of timeouts, with its reports', async () => {
    const args = ['--mock', '--explore', '--only', 'explore', '--seed', '1', '--timeout', '1000', '--max-time', '60'];
    const run = await runHostile(after2({ label: 'silent', mode: 'silent', args }), [await mainKey()]);
    expect(run.exit).toBe(1);
    expect(run.seconds).toBeLessThan(40);
    expect([...run.files.keys()]).toEqual(expect.arrayContaining(REPORTS));
    const report = JSON.parse(run.files.get('report.json')!) as RunReport;
    expect(report.stopped?.why).toMatch(/^the target stopped answering \(5 requests in a row without an answer within 1000 ms\)$/);
    expect(run.files.get('report.json')).toContain('no answer within 1000 ms');
    expect(run.stdout).toMatch(/STOPPED EARLY: the target stopped answering/);
  });
});
