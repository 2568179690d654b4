// A run report around given check results, for tests of what reads reports (baseline, reporters, redaction):
// every other field as a finished run with nothing else to say would have it. Test-only.
import { causesOf } from '../report/causes.ts';
import type { CheckResult, RunReport } from '../run/model.ts';

export const runReport = (results: CheckResult[], target = 'http://127.0.0.1:1/ext-api/v1'): RunReport => ({
  target,
  runId: 'r1',
  profile: 'documented',
  startedAt: '2026-11-23T00:00:00.000Z',
  seconds: 1,
  results,
  causes: causesOf(results),
  notChecked: [],
  coveredBySchemas: [],
  cleanup: { created: 0, removed: 0, leftovers: [] },
  interrupted: false,
  pacing: { pauses: 0, seconds: 0 },
});
