// Another tool reads the mock's HAR: `redocly drift` (in the kit's dependencies) on the HAR of a documented suite run
// against the mock finds nothing but the suite's deliberate probes: its keyless requests (answered 401) and
// the methods the contract does not have (answered 405, or 404 for an empty path id). Before the HAR kept request
// headers and uploads it reported every keyed request as keyless and every upload as bodiless.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../../conformance/run/runner.ts';
import { startMock, type RunningMock } from '../../server.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'har-drift-'));
let m: RunningMock;
beforeAll(async () => {
  // Time-scaled as the tests' mock is (the requests are the same; the document checks' extractions end in a
  // second instead of the documented "roughly 10 to 30 seconds", which took this file 50 s).
  m = await startMock({ port: 0, quiet: true, journalSize: 20_000, timeScale: 0.01 });
});
afterAll(async () => {
  await m?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  method: string;
  path: string;
  status: number;
  occurrences: number;
}
type Entry = {
  request: { method: string; headers: Array<{ name: string }>; postData?: { mimeType: string } };
  response: { status: number };
};

describe("redocly drift on the mock's HAR of a documented run", () => {
  it('finds only the keyless probes and the undocumented methods', async () => {
    // Areas with every kind of request the suite sends: keyless probes, JSON writes (the patients the uploads go
    // to), uploads, the provider write probes.
    await runSuite({
      url: m.url,
      key: m.keys.find((k) => k.label === 'all')!.key,
      mock: false,
      scopedKeys: [],
      profile: 'documented',
      only: ['auth', 'doc', 'prv'],
      concurrency: 4,
      timeoutMs: 10_000,
      readOnly: false,
    });
    const har = join(dir, 'run.har');
    writeFileSync(har, await (await fetch(`${m.controlUrl}/requests.har`)).text());
    const out = join(dir, 'drift.json');
    const args = ['drift', har, '--api', join(ROOT, 'generated/openapi.json'), '--match-mode', 'basepath', '--format', 'json', '-o', out];
    // It exits 1 when it finds an error (the probes are errors to it): the report is what is judged.
    const ran = await promisify(execFile)(join(ROOT, 'node_modules/.bin/redocly'), args, { cwd: ROOT, timeout: 60_000 }).catch(
      (e: { code?: number }) => e,
    );
    expect('code' in ran ? ran.code : 0).toBe(1);
    const problems = (JSON.parse(readFileSync(out, 'utf8')) as { problems: Problem[] }).problems.filter((p) => p.severity !== 'info');
    const entries = (JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: Entry[] } }).log.entries;
    const keyless = entries.filter((e) => !e.request.headers.some((h) => h.name === 'x-api-key'));
    const count = (rule: string) => problems.filter((p) => p.ruleId === rule).reduce((n, p) => n + p.occurrences, 0);

    expect(entries.some((e) => e.request.postData?.mimeType.startsWith('multipart/form-data') && e.response.status === 201)).toBe(true);
    expect([...new Set(problems.map((p) => p.ruleId))].sort()).toEqual(['security-baseline', 'undocumented-endpoint']);
    // Each security finding is one of the suite's keyless requests, each answered 401; nothing else of the requests.
    expect(keyless.length).toBeGreaterThan(0);
    expect(count('security-baseline')).toBe(keyless.length);
    expect(new Set(keyless.map((e) => e.response.status))).toEqual(new Set([401]));
    const undocumented = problems.filter((p) => p.ruleId === 'undocumented-endpoint');
    expect(undocumented.map((p) => `${p.method} ${p.status}`).sort()).toEqual(['DELETE 405', 'PATCH 405', 'POST 405', 'PUT 405']);
  }, 240_000);
});
