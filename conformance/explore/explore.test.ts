// --explore against the mock (no false failure) and against one planted defect at a time (the right check fails,
// with a shrunk case that replays), and its determinism: the same seed plans the same cases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMock } from '../../mock/server.ts';
import { Contract } from '../../spec/runtime/contract.ts';
import { MockControl } from '../target/mock-control.ts';
import type { RunReport } from '../run/model.ts';
import { runSuite } from '../run/runner.ts';
import { startTestMock, suiteOptions } from '../testing/check-file.ts';
import { exploreDefects } from '../testing/defects-explore.ts';
import { startSwappableProxy } from '../testing/single-defect.ts';
import { answer } from '../testing/broken-proxy.ts';
import { mergeReports } from '../report/merge.ts';
import { SchemaValidator } from '../../spec/runtime/schemas.ts';
import { concrete } from './case.ts';
import { Plan } from './plan.ts';
import { parseReplayId } from './replay-id.ts';

let mock: RunningMock;
let proxy: Awaited<ReturnType<typeof startSwappableProxy>>;
let mainKey = '';
const viaProxy = () => `${proxy.origin}${new URL(mock.url).pathname}`;

beforeAll(async () => {
  mock = await startTestMock();
  proxy = await startSwappableProxy(new URL(mock.url).origin);
  mainKey = (await new MockControl(mock.url, 5_000).keys()).find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

/** Exploration alone (--explore --only explore), as the CLI runs it. */
async function explore(
  url: string,
  explore: { seed: number; budget: number; replay?: ReturnType<typeof parseReplayId> },
  profile: 'all' | 'documented' = 'all',
  shard?: { k: number; of: number },
) {
  const { report } = await runSuite({ ...suiteOptions(url), profile, only: ['explore'], explore, shard });
  return report;
}

const failed = (r: RunReport) => r.results.filter((x) => x.outcome === 'failed');

describe('--explore against the mock', () => {
  it('passes with seed 1 in either profile, every case complete and everything it created removed', async () => {
    for (const [profile, budget] of [
      ['all', 150],
      ['documented', 100],
    ] as const) {
      const report = await explore(mock.url, { seed: 1, budget }, profile);
      expect(failed(report).map((r) => `${r.name} ${r.explored?.operation}: ${r.failures[0]?.actual}`)).toEqual([]);
      expect(report.exploration).toMatchObject({ seed: 1, incomplete: 0 });
      expect(report.exploration!.cases).toBeGreaterThan(budget / 4);
      expect(report.cleanup.leftovers).toEqual([]);
      expect(report.cleanup.removed).toBe(report.cleanup.created);
      // Every kind of case ran, and results say which operation each check explored.
      expect(Object.keys(report.exploration!.kinds).sort()).toEqual(['auth', 'negative', 'positive', 'stateful']);
      expect(report.results.every((r) => r.explored)).toBe(true);
    }
  }, 60_000);
});

describe('--explore --read-only', () => {
  it('sends reads only: no case that writes, not even to set up', async () => {
    const { report } = await runSuite({ ...suiteOptions(mock.url), readOnly: true, only: ['explore'], explore: { seed: 1, budget: 60 } });
    expect(report.exploration!.cases).toBeGreaterThan(10);
    expect(report.cleanup.created).toBe(0);
    expect(new Set(report.results.map((r) => r.explored!.operation.split(' ')[0]))).toEqual(new Set(['GET']));
    expect(failed(report)).toEqual([]);
  }, 30_000);
});

describe('--explore is polite', () => {
  it('waits out a spent rate-limit window (Retry-After) and resends, without a false failure', async () => {
    let n = 0;
    const limited = new WeakSet<object>();
    // Every 40th API request is refused as a rate-limited target does, before anything is done: the mock is asked
    // something harmless instead, and its answer becomes a 429 saying the window is spent for a second.
    proxy.plant({
      request(req) {
        if (req.url.startsWith('/__mock') || ++n % 40) return;
        limited.add(req);
        Object.assign(req, { method: 'GET', url: '/ext-api/v1/providers', body: Buffer.alloc(0) });
      },
      response(res, req) {
        if (!limited.has(req)) return;
        answer(res, 429, { error: 'Rate limit exceeded. Please retry after the window resets.' });
        Object.assign(res.headers, { 'retry-after': '1', 'x-ratelimit-remaining': '0' });
      },
    });
    try {
      const report = await explore(viaProxy(), { seed: 1, budget: 50 });
      expect(failed(report).map((r) => `${r.name} ${r.explored?.operation}: ${r.failures[0]?.actual}`)).toEqual([]);
      expect(report.pacing.pauses).toBeGreaterThan(0);
      expect(report.exploration!.incomplete).toBe(0);
    } finally {
      proxy.plant();
    }
  }, 30_000);
});

describe('--explore finds a planted defect no check was written for', () => {
  for (const d of exploreDefects)
    it(`${d.defect}: ${d.check} fails, shrunk, re-checked and replayable`, async () => {
      proxy.plant(d.breaks(mainKey));
      try {
        const report = await explore(viaProxy(), { seed: 1, budget: 150 });
        const hit = failed(report).find((r) => r.name === d.check && d.operation.test(r.explored?.operation ?? ''));
        expect(
          hit,
          failed(report)
            .map((r) => `${r.name} ${r.explored?.operation}`)
            .join('; '),
        ).toBeDefined();
        if (d.alone) expect([...new Set(failed(report).map((r) => r.ruleId))]).toEqual([hit!.ruleId]);
        const f = hit!.failures[0]!;
        expect(f.explored).toMatchObject({ rechecked: true });
        expect(f.explored!.steps).toBeLessThanOrEqual(f.explored!.generatedSteps);
        expect(f.curl).toMatch(d.shrunkHas);
        expect(f.message).toContain(`--replay ${f.explored!.replay}`);
        // The replay id sends exactly that case again: the same check fails on the same operation, nothing else sent.
        // (As the CLI does with --replay alone: no --only, yet no rule check runs.)
        const replay = parseReplayId(f.explored!.replay);
        const { report: again } = await runSuite({ ...suiteOptions(viaProxy()), explore: { seed: replay.seed, budget: 150, replay } });
        expect(again.exploration!.cases).toBe(1);
        expect(again.results.filter((r) => !r.explored)).toEqual([]);
        expect(failed(again).some((r) => r.name === d.check && r.explored?.operation === hit!.explored?.operation)).toBe(true);
      } finally {
        proxy.plant();
      }
    }, 60_000);
});

describe('--shard k/n', () => {
  /** What a report says of each check and operation: outcome, cases, and the shrunk case of its failure. */
  const view = (r: RunReport) =>
    r.results
      .map(
        (x) =>
          `${x.name} ${x.explored?.operation} ${x.outcome} ${x.assertions} ${x.failures.map((f) => `${f.explored?.replay}+${f.explored?.alike}`)}`,
      )
      .sort();

  it('two shards merged equal one whole run, failures and their shrunk cases included', async () => {
    proxy.plant(exploreDefects.find((d) => d.defect.includes('largest limit'))!.breaks(mainKey));
    try {
      const whole = await explore(viaProxy(), { seed: 2, budget: 150 });
      const shards = [];
      for (const k of [1, 2]) shards.push(await explore(viaProxy(), { seed: 2, budget: 150 }, 'all', { k, of: 2 }));
      expect(shards.map((s) => s.shard)).toEqual(['1/2', '2/2']);
      expect(shards[0]!.exploration!.cases).toBeLessThan(whole.exploration!.cases);
      const merged = mergeReports(shards);
      expect(failed(whole).length).toBeGreaterThan(0);
      expect(view(merged)).toEqual(view(whole));
      expect(merged.exploration).toMatchObject({
        cases: whole.exploration!.cases,
        requests: whole.exploration!.requests,
        kinds: whole.exploration!.kinds,
      });
    } finally {
      proxy.plant();
    }
  }, 60_000);
});

describe('--replay', () => {
  it('an id whose shrink steps name no candidate is a clear error, not an empty run', async () => {
    const replay = parseReplayId('1-3-999');
    await expect(runSuite({ ...suiteOptions(mock.url), explore: { seed: 1, budget: 10, replay } })).rejects.toThrow(
      /--replay 1-3-999: its shrink steps name no candidate/,
    );
  });
});

describe('seeded plan', () => {
  const contract = new Contract();
  it('the same seed plans the same cases; another seed others', () => {
    const plan = (seed: number) => JSON.stringify(new Plan(contract, 'all', true).cases(seed, 400));
    expect(plan(7)).toBe(plan(7));
    expect(plan(7)).not.toBe(plan(8));
  });

  it('under the documented profile, every negative case breaks what the document states (judged as sent, placeholders filled)', () => {
    const relaxed = new SchemaValidator(contract.doc, 'documented');
    const assumedOnly: string[] = [];
    let negatives = 0;
    for (const seed of [11, 12, 13])
      for (const c of new Plan(contract, 'documented', true).cases(seed, 3000)) {
        const step = c.steps.at(-1)!;
        if (c.kind !== 'negative' || !step.body || step.violation?.label === 'an unknown property') continue;
        negatives++;
        const pointer = contract.byId(step.op).jsonBodyPointer!;
        if (!relaxed.validate(pointer, concrete(step.body)).length) assumedOnly.push(`${seed}-${c.index} ${c.label}`);
      }
    expect(negatives).toBeGreaterThan(50);
    expect(assumedOnly).toEqual([]);
  });
});
