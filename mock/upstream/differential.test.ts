// The differential proof, targeted: the suite's run (one area each) against a single-defect server whose defect one
// exchange shows, recorded through --upstream as HAR, fails the same rule under `conformance --har`; the same run
// against the clean mock is judged clean on the server's side (the suite's own deliberate bad requests are the
// client's violations, which the HAR shows as such). CPU-heavy: a few areas, one run each.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../conformance/run/runner.ts';
import type { Breaks } from '../../conformance/testing/check-file.ts';
import { harReport } from '../../conformance/testing/har-report.ts';
import { testMockOptions } from '../../conformance/testing/mock-options.ts';
import { startSwappableProxy } from '../../conformance/testing/single-defect.ts';
import { variants } from '../../conformance/testing/variants.ts';
import { Contract } from '../../spec/runtime/contract.ts';
import { Register } from '../../spec/runtime/register.ts';
import { rulesTheJudgeNames } from '../../judge/judged-rules.ts';
import { startMock, type RunningMock } from '../server.ts';

const dir = mkdtempSync(join(tmpdir(), 'upstream-differential-'));
const catalogue = variants({ main: '', scoped: [], otherOrg: '', expired: '' });
const register = Register.load();
const named = rulesTheJudgeNames(new Contract(), register);
/** Servers of such a rule whose defect this traffic does not show in one exchange, and why. */
const NOT_SHOWN: Record<string, string> = {
  'delete answers success but keeps the patient': 'a sequence: the DELETE itself answers a clean {success: true}',
  '429 without Retry-After': "no 429 in this traffic: the suite provokes one only against the mock's control (needs mock)",
  'regenerate answers 200': 'no 202 in this traffic: the suite regenerates a real session only with --mock',
};
/** The single-defect servers whose defect one exchange shows: a documented exchange rule the judge names. */
const CASES = catalogue.filter((v) => {
  const rule = register.get(v.rule);
  return rule?.provenance === 'documented' && rule.seen === 'exchange' && named.has(v.rule) && !(v.name in NOT_SHOWN);
});

let upstream: RunningMock;
let swap: Awaited<ReturnType<typeof startSwappableProxy>>;

beforeAll(async () => {
  upstream = await startMock({ ...testMockOptions, mode: 'engine-only' });
  swap = await startSwappableProxy(new URL(upstream.url).origin);
}, 60_000);
afterAll(async () => {
  await swap?.close();
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The suite's run of one area through a fresh --upstream proxy, and `conformance --har` of the proxy's journal. */
async function recordedRun(name: string, area: string, breaks?: Breaks) {
  swap.plant(breaks);
  const proxy = await startMock({ upstream: `${swap.origin}/ext-api/v1`, port: 0, quiet: true, journalSize: 20_000 });
  try {
    const key = upstream.keys.find((k) => k.label === 'all')!.key;
    await runSuite({
      url: proxy.url,
      key,
      mock: false,
      scopedKeys: [],
      profile: 'documented',
      only: [area],
      concurrency: 4,
      timeoutMs: 10_000,
      readOnly: false,
    });
    const har = join(dir, `${name}.har`);
    writeFileSync(har, await (await fetch(`${proxy.controlUrl}/requests.har`)).text());
    const { report } = await harReport(har, join(dir, name));
    const failed = report.results.filter((r) => r.outcome === 'failed');
    // The server's side: failures of a response; the client's (the suite's deliberate probes) say "the client's request".
    const server = failed.filter((r) => r.failures.some((f) => !f.message.includes("the client's request")));
    return { server: [...new Set(server.map((r) => r.ruleId))].sort(), exchanges: report.target };
  } finally {
    await proxy.close();
  }
}

describe('the differential proof through --upstream and --har', () => {
  it('a clean run through the proxy is judged clean on the server side', async () => {
    for (const area of ['pat', 'xid', 'prv']) expect(await recordedRun(`clean-${area}`, area), area).toMatchObject({ server: [] });
  }, 240_000);

  it('covers every such server of the catalogue', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(10);
  });

  for (const v of CASES)
    it(`${v.rule}: ${v.name} fails ${v.rule} under --har`, async () => {
      // The variant with the upstream's key: one that swaps keys needs the real one.
      const none = 'not-a-key-of-the-mock';
      const keys = { main: upstream.keys.find((k) => k.label === 'all')!.key, scoped: [], otherOrg: none, expired: none, revoked: none };
      const planted = variants(keys).find((x) => x.name === v.name)!;
      const { server } = await recordedRun(v.name.replace(/\W+/g, '-'), v.area, planted);
      expect(server).toContain(v.rule);
    }, 120_000);
});
