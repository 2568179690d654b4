import { describe, expect, it } from 'vitest';
import { renderConsole } from './console.ts';
import { renderHtml } from './html.ts';
import { mergeReports } from './merge.ts';
import type { RunReport } from '../run/model.ts';
import { type Timing, timingLine, timingTable, Timings } from './timings.ts';

const t = (wait: Timing['wait'], ms: number, ended = true): Timing => ({ wait, check: 'c', subject: 's', ms, ended, limitMs: 100_000 });

describe('timingTable', () => {
  it('gives each kind of wait its count, median and range over the waits that ended, and those that gave up', () => {
    const rows = timingTable([t('extraction', 3000), t('extraction', 1000), t('extraction', 2000), t('extraction', 100_000, false)]);
    expect(rows).toEqual([
      {
        wait: 'extraction',
        words: 'a PDF may take roughly 10 to 30 seconds',
        ended: 3,
        gaveUp: 1,
        minMs: 1000,
        medianMs: 2000,
        maxMs: 3000,
        limitMs: 100_000,
      },
    ]);
    expect(timingLine(rows[0]!)).toBe(
      `extraction: 3 ended, median 2.00 s (1.00 s–3.00 s); 1 not ended within the suite's limit of 100.0 s — the document: "a PDF may take roughly 10 to 30 seconds"`,
    );
  });

  it('leaves out kinds not waited on, and a kind none of whose waits ended has no figures', () => {
    const rows = timingTable([t('regeneration', 180_000, false)]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ wait: 'regeneration', ended: 0, gaveUp: 1 });
    expect(rows[0]!.medianMs).toBeUndefined();
    expect(timingTable([])).toEqual([]);
  });

  it('rounds what it records', () => {
    const timings = new Timings();
    timings.observe(t('regeneration', 1234.56));
    expect(timings.all[0]!.ms).toBe(1235);
  });
});

const report = (timings?: Timing[]): RunReport => ({
  target: 'http://127.0.0.1:1/ext-api/v1',
  runId: 'r',
  profile: 'documented',
  startedAt: '2026-11-28T00:00:00.000Z',
  seconds: 1,
  results: [],
  notChecked: [],
  coveredBySchemas: [],
  cleanup: { created: 0, removed: 0, leftovers: [] },
  interrupted: false,
  pacing: { pauses: 0, seconds: 0 },
  causes: [],
  ...(timings && { timings }),
});

describe('the timing table in the reports', () => {
  it('is in the console and the HTML when the run waited, and absent when it did not', () => {
    const r = report([t('extraction', 1500), t('regeneration', 40_000)]);
    const text = renderConsole(r);
    expect(text).toContain('waits for the service');
    expect(text).toContain('extraction: 1 ended, median 1.50 s');
    expect(text).toContain('regeneration: 1 ended, median 40.0 s');
    const html = renderHtml(r);
    expect(html).toContain('<section id="timings">');
    expect(html).toContain('<q>Typical duration is under a minute.</q>');
    expect(renderConsole(report())).not.toContain('waits for the service');
    expect(renderHtml(report())).not.toContain('id="timings"');
  });

  it("keeps every shard's waits when shards merge", () => {
    const merged = mergeReports([
      { ...report([t('extraction', 1000)]), shard: '1/2' },
      { ...report([t('extraction', 3000)]), shard: '2/2' },
    ]);
    expect(merged.timings?.map((x) => x.ms)).toEqual([1000, 3000]);
  });
});
