// The harness every check file's test shares: one mock for the file (loopback, time-scale 0.01, Prism --strict, no
// rate limit in the way), the three runs each file must pass (--profile all, documented, --read-only) and the proof
// that one check fails on exactly its rule. Test-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockOptions, type RunningMock } from '../../mock/server.ts';
import { runSuite, type RunOptions } from '../run/runner.ts';
import { MockControl } from '../target/mock-control.ts';
import type { CheckDef, CheckResult, RunReport } from '../run/model.ts';
import { startBrokenProxy, type Variant } from './broken-proxy.ts';
import { testMockOptions } from './mock-options.ts';
import { allChecks } from '../checks/index.ts';
import { responseChecks } from '../../judge/checks/index.ts';
import { Register } from '../../spec/runtime/register.ts';

/** What a variant changes: its request and response transformers. */
export type Breaks = Omit<Variant, 'name' | 'area' | 'rule'>;

// Read once for the test file's runs, not once a run (a run only looks rule ids up in it; reading spec/rules.yaml
// took 70-200 ms of CPU, and a file such as coverage-honesty.test.ts makes some 150 runs).
const register = Register.load();

export const suiteOptions = (url: string): RunOptions => ({
  url,
  register,
  mock: true,
  scopedKeys: [],
  profile: 'all',
  only: [],
  concurrency: 6,
  timeoutMs: 10_000,
  readOnly: false,
});

/** The mock the tests of a file share (testMockOptions). */
export const startTestMock = () => startMock(testMockOptions);

/** Starts the file's mock before its tests and stops it after them; `mock()` is it. */
export function useTestMock(): { mock(): RunningMock } {
  let mock: RunningMock | undefined;
  beforeAll(async () => {
    mock = await startTestMock();
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
  });
  return { mock: () => mock! };
}

/**
 * Mocks for tests that run side by side (describe.concurrent): `onFreeMock(run)` lends `run` a mock no other run is
 * using (started on first need, stopped after the file), so each mock serves one run at a time, as a file's one mock
 * serves its tests in turn, and no run's webhooks crowd another's. The seed is deterministic: every mock has the
 * same keys. `readings`: the pool's mocks play them (spec/readings.yaml).
 */
export function useMockPool(readings?: MockOptions['readings']): { onFreeMock<T>(run: (mock: RunningMock) => Promise<T>): Promise<T> } {
  const idle: RunningMock[] = [];
  const started: RunningMock[] = [];
  afterAll(async () => {
    for (const m of started) await m.close();
  });
  return {
    async onFreeMock(run) {
      let m = idle.pop();
      if (!m) started.push((m = readings ? await startMock({ ...testMockOptions, readings }) : await startTestMock()));
      try {
        return await run(m);
      } finally {
        idle.push(m);
      }
    },
  };
}

/** The checks of these names, in the suite's order (a name that is no check fails here, not later). */
export function checksNamed(names: string[]): CheckDef[] {
  const unknown = names.filter((n) => !allChecks.some((c) => c.name === n));
  if (unknown.length) throw new Error(`no such checks: ${unknown.join(', ')}`);
  return allChecks.filter((c) => names.includes(c.name));
}

/** The failures of a run, one readable line each (an empty list when it passed). */
export const failureLines = (r: RunReport) =>
  r.results
    .filter((x) => x.outcome === 'failed')
    .flatMap((x) =>
      x.failures.slice(0, 2).map((f) => `${x.name} [${x.ruleId}] ${f.message}: expected ${f.expected}, got ${f.actual.slice(0, 200)}`),
    );

export interface CheckFile {
  mock(): RunningMock;
  /** The mock's active `*` key of the first organization. */
  mainKey(): string;
  /** The base URL of the mock behind a proxy origin (or of the mock itself). */
  urlVia(origin?: string): string;
  /**
   * Runs the one check and asserts it failed, every failure citing `rule`, and nothing was left behind. A response
   * check (it judges every exchange, so it cannot be run alone) is run with `driver`, a check that sends requests.
   */
  /** The check's failed result, for a caller that also pins what the failure says. */
  expectFails(check: string, rule: string, opts?: Partial<RunOptions>, driver?: string): Promise<CheckResult>;
  /** Checks the documented profile skips in this file (their demands rest on the kit's assumptions). */
  documentedSkips: ReadonlySet<string>;
}

/**
 * Starts the file's mock and declares the three runs against it: every check passes with --profile all; in the
 * documented profile assumed rules are skipped (and the checks in `documentedSkips` with a reason matching theirs);
 * with --read-only and no --mock, writing checks and mock-only checks are skipped, the rest pass, nothing is created.
 */
export function describeCheckFile(title: string, checks: CheckDef[], documentedSkips: Record<string, RegExp> = {}): CheckFile {
  let mock: RunningMock;
  let mainKey = '';
  const names = checks.map((c) => c.name);

  beforeAll(async () => {
    mock = await startTestMock();
    mainKey = (await new MockControl(mock.url, 5_000).keys()).find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
  });

  // Retried before counting: whole runs include webhook timing checks whose scaled 10 ms gaps load can stretch.
  describe(`${title} against the mock`, { retry: 2 }, () => {
    it('all pass with --profile all and leave nothing behind', async () => {
      const { report } = await runSuite({ ...suiteOptions(mock.url), only: names });
      expect(failureLines(report)).toEqual([]);
      const mine = report.results.filter((r) => names.includes(r.name));
      expect(mine.length).toBe(names.length);
      expect(mine.filter((r) => r.outcome !== 'passed').map((r) => `${r.name}: ${r.reason}`)).toEqual([]);
      expect(report.cleanup.leftovers).toEqual([]);
      expect(report.cleanup.removed).toBe(report.cleanup.created);
    }, 30_000);

    it('documented profile: assumed rules skipped, the rest pass', async () => {
      const { report } = await runSuite({ ...suiteOptions(mock.url), only: names, profile: 'documented' });
      expect(failureLines(report)).toEqual([]);
      for (const c of checks) {
        const r = report.results.find((x) => x.name === c.name)!;
        if (c.provenance === 'assumed') expect(r.reason, c.name).toMatch(/assumed rule/);
        else if (documentedSkips[c.name]) expect(r.reason, c.name).toMatch(documentedSkips[c.name]!);
        else expect(r.outcome, c.name).toBe('passed');
      }
    }, 30_000);

    it('--read-only without --mock: checks that write or need the mock are skipped, the rest pass, nothing is created', async () => {
      const { report } = await runSuite({ ...suiteOptions(mock.url), only: names, readOnly: true, mock: false, key: mainKey });
      expect(failureLines(report)).toEqual([]);
      expect(report.cleanup.created).toBe(0);
      for (const c of checks) {
        const r = report.results.find((x) => x.name === c.name)!;
        if (c.needs?.write) expect(r.reason, c.name).toMatch(/read-only/);
        else if (c.needs?.mock) expect(r.reason, c.name).toMatch(/needs --mock/);
        else if (c.needs?.keys?.length) expect(r.reason, c.name).toMatch(/needs --[a-z-]+-key/);
        else expect(r.outcome, c.name).toBe('passed');
      }
    }, 30_000);
  });

  const file: CheckFile = {
    documentedSkips: new Set(Object.keys(documentedSkips)),
    mock: () => mock,
    mainKey: () => mainKey,
    urlVia: (origin) => (origin ? `${origin}${new URL(mock.url).pathname}` : mock.url),
    async expectFails(check, rule, opts = {}, driver) {
      expect((driver ? responseChecks : checks).find((c) => c.name === check)?.rule, check).toBe(rule);
      const { report } = await runSuite({ ...suiteOptions(mock.url), ...opts, only: [driver ?? check] });
      const result = report.results.find((r) => r.name === check)!;
      expect(result.outcome, JSON.stringify(result)).toBe('failed');
      expect(result.failures.every((f) => f.ruleId === rule)).toBe(true);
      // One defect, one failure: besides the check, at most two others (here the response checks) fail with it.
      const others = report.results.filter((r) => r.name !== check && (r.outcome === 'failed' || r.outcome === 'timed-out'));
      expect(others.map((r) => `${r.name} [${r.ruleId}]`).length, others.map((r) => r.name).join(', ')).toBeLessThanOrEqual(2);
      expect(report.cleanup.leftovers).toEqual([]);
      return result;
    },
  };
  return file;
}

/**
 * One test per broken variant: a loopback proxy in front of the mock applies it, and the check must fail on its rule;
 * plus a test that every check of the file has a variant (or is in `provenElsewhere`).
 */
export function describeBrokenVariants(
  title: string,
  file: CheckFile,
  checks: CheckDef[],
  /** `kitOnly`: why this variant stays on the kit's mock (a defect only time shows, and a reading removes the time). */
  broken: Array<[check: string, rule: string, breaks: Breaks | (() => Breaks), kitOnly?: string]>,
  provenElsewhere: string[] = [],
  /** For response checks: the check that sends the requests they judge. */
  [driver]: string[] = [],
): void {
  // A variant of a documented check runs in front of a mock that plays every reading (spec/readings.yaml), judged by
  // the documented profile: a reading the document allows must never hide a defect. Assumed checks keep the kit's.
  let readings: RunningMock | undefined;
  afterAll(async () => {
    await readings?.close();
  });
  const documented = (rule: string) => register.resolve(rule).provenance === 'documented';
  describe(`${title} against broken variants (each fails on its rule)`, { retry: 2 }, () => {
    it('every check of the file has a broken variant', () => {
      const covered = [...broken.map(([b]) => b), ...provenElsewhere];
      expect(checks.map((c) => c.name).filter((n) => !covered.includes(n))).toEqual([]);
    });

    for (const [check, rule, breaks, kitOnly] of broken) {
      const own = checks.find((c) => c.name === check);
      // A check the documented profile skips in this file (its demand rests on an assumption) keeps the kit's mock.
      const underReadings = documented(rule) && own?.provenance !== 'assumed' && !file.documentedSkips.has(driver ?? check) && !kitOnly;
      it(`${check} fails on ${rule}${underReadings ? ' (under --readings all)' : ''}`, async () => {
        const target = underReadings ? (readings ??= await startMock({ ...testMockOptions, readings: 'all' })) : file.mock();
        const proxy = await startBrokenProxy(new URL(target.url).origin, {
          name: check,
          area: own?.area ?? '',
          rule,
          ...(typeof breaks === 'function' ? breaks() : breaks),
        });
        try {
          const url = `${proxy.origin}${new URL(target.url).pathname}`;
          await file.expectFails(check, rule, { url, ...(underReadings && { profile: 'documented' }) }, driver);
        } finally {
          await proxy.close();
        }
      }, 20_000);
    }
  });
}
