// The documented profile passes every reading of the document the mock plays (spec/readings.yaml): all of them at
// once, each that does not combine on its own, and each alone on the checks of its rules; --profile all still fails
// where the readings leave the kit's assumptions, so assumptions are judged there. A false failure of a documented
// check on a server another team could ship from the same document shows here first.
import { afterAll, describe, expect, it } from 'vitest';
import { readingsCatalogue } from '../../generated/readings.ts';
import { type MockOptions, type RunningMock, startMock } from '../../mock/server.ts';
import { runSuite } from '../run/runner.ts';
import { failureLines, suiteOptions } from './check-file.ts';
import { testMockOptions } from './mock-options.ts';

const started: RunningMock[] = [];
afterAll(async () => {
  for (const m of started) await m.close();
});

async function mockWith(readings: MockOptions['readings']): Promise<RunningMock> {
  const m = await startMock({ ...testMockOptions, readings });
  started.push(m);
  return m;
}

const played = readingsCatalogue.filter((r) => r.plays === 'engine');

describe('the documented profile on the readings the mock plays', () => {
  it('passes --readings all (every reading that combines), cleaning up after itself', async () => {
    const m = await mockWith('all');
    expect(m.engine?.readings.ids.length).toBe(played.filter((r) => r.combines).length);
    const { report } = await runSuite({ ...suiteOptions(m.url), profile: 'documented' });
    expect(failureLines(report)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === 'passed').length).toBeGreaterThan(100);
    expect(report.cleanup.leftovers).toEqual([]);
  }, 180_000);

  it.each(played.filter((r) => !r.combines).map((r) => r.id))(
    'passes %s, which does not combine, on its own',
    async (id) => {
      const m = await mockWith([id]);
      const { report } = await runSuite({ ...suiteOptions(m.url), profile: 'documented' });
      expect(failureLines(report)).toEqual([]);
    },
    180_000,
  );

  // Each reading alone, on the checks of the rules its places touch: a reading another masks under `all` shows here.
  it('passes each reading alone on the checks of its rules', async () => {
    const failed: string[] = [];
    for (const r of played) {
      const m = await mockWith([r.id]);
      const { report } = await runSuite({ ...suiteOptions(m.url), profile: 'documented', only: [...r.rules] });
      failed.push(...failureLines(report).map((l) => `${r.id}: ${l}`));
      await m.close();
      started.splice(started.indexOf(m), 1);
    }
    expect(failed).toEqual([]);
  }, 600_000);

  it('fails --profile all where the readings leave the kit’s assumptions (they are judged there)', async () => {
    const m = await mockWith('all');
    const { report } = await runSuite({ ...suiteOptions(m.url), profile: 'all', only: ['APT-028', 'DOC-036', 'NOTE-025', 'ERR-019'] });
    const failed = new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.ruleId));
    expect([...failed]).toEqual(expect.arrayContaining(['APT-028', 'DOC-036', 'ERR-019', 'NOTE-025']));
  }, 180_000);
});
