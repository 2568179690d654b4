// A conforming service whose extraction takes 25 s (the document: "a PDF may take roughly 10 to 30 seconds"), run as
// a deployment (no --mock) in the documented profile: every extraction check passes; none times out or is skipped
// for want of time, though each waits longer than --timeout and extract_endpoint_starts_a_run longer than
// --check-timeout (its budget follows the documented durations). Slow by nature: about a minute, the longest check's
// two extractions in a row.
import { describe, expect, it } from 'vitest';
import { runSuite } from '../run/runner.ts';
import { MockControl } from '../target/mock-control.ts';
import { allChecks } from '../checks/index.ts';
import { failureLines, suiteOptions, useTestMock } from './check-file.ts';
import { startSlowExtraction } from './slow-extraction.ts';

const file = useTestMock();
const EXTRACTION_MS = 25_000;

// terminal_status_stays runs alone after the others only for the mock fault it arms, which a run without --mock never
// does: here it runs beside them, and with a worker for every check none queues behind another's 25 s waits. The same
// checks, budgets and verdicts, in the time of the longest check instead of that plus the exclusive one after it.
const checks = allChecks.map((c) => (c.name === 'terminal_status_stays' ? { ...c, exclusive: false } : c));

describe('a service whose extraction takes 25 s', () => {
  it('the documented run of the document checks passes, each extraction check run to its end', async () => {
    const { url } = file.mock();
    const key = (await new MockControl(url, 5_000).keys()).find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
    const proxy = await startSlowExtraction(new URL(url).origin, EXTRACTION_MS);
    try {
      const { report } = await runSuite({
        ...suiteOptions(`${proxy.origin}${new URL(url).pathname}`),
        mock: false,
        key,
        profile: 'documented',
        only: ['doc'],
        checks,
        concurrency: 16,
      });
      expect(failureLines(report)).toEqual([]);
      const waiting = allChecks.filter((c) => c.area === 'DOC' && c.waits?.length && !c.needs?.mock && c.provenance !== 'assumed');
      expect(waiting.map((c) => c.name)).toContain('extract_endpoint_starts_a_run');
      expect(
        waiting
          .map((c) => report.results.find((r) => r.name === c.name)!)
          .filter((r) => r.outcome !== 'passed')
          .map((r) => `${r.name}: ${r.outcome} ${r.reason}`),
      ).toEqual([]);
      expect(report.results.filter((r) => r.outcome === 'timed-out' || r.outcome === 'blocked').map((r) => r.name)).toEqual([]);
      // The proxy really held the documents: one extraction, then another after the extract call.
      expect(report.results.find((r) => r.name === 'extraction_reaches_terminal_state')!.ms).toBeGreaterThanOrEqual(EXTRACTION_MS);
      expect(report.results.find((r) => r.name === 'extract_endpoint_starts_a_run')!.ms).toBeGreaterThanOrEqual(2 * EXTRACTION_MS);
      expect(report.cleanup.leftovers).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 240_000);
});
