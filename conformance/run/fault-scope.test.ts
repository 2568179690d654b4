// No races between checks: a fault a check arms through the mock's control API is scoped to it, so a check running
// at the same time never takes it (before scoping, B's upload consumed A's extraction-fails and A's retry check
// failed on a slow target).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { runSuite } from './runner.ts';
import { failureLines, suiteOptions } from '../testing/check-file.ts';
import { followDocument, uploadDocument } from '../checks/support/common.ts';
import type { CheckContext, CheckDef } from './model.ts';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({
    port: 0,
    host: '127.0.0.1',
    timeScale: 0.01,
    strict: true,
    quiet: true,
    rateLimit: { requests: 1_000_000, seconds: 60 },
  });
}, 60_000);
afterAll(async () => {
  await mock?.close();
});

/** A latch one check opens and another waits on (bounded). */
function latch() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return {
    open,
    wait: () => Promise.race([opened, new Promise<void>((_, no) => setTimeout(() => no(new Error('latch not opened in 10 s')), 10_000))]),
  };
}

async function extraction(ctx: CheckContext, label: string) {
  const patient = await ctx.fixtures.patient();
  const externalId = ctx.externalId(label);
  await uploadDocument(ctx, String(patient.id), externalId);
  return (await followDocument(ctx, String(patient.id), externalId, 8_000)).last?.status;
}

describe('fault scopes in the suite', () => {
  it("one check's armed fault never reaches another check running at the same time", async () => {
    const armed = latch();
    const otherDone = latch();
    const arming: CheckDef = {
      name: 'arms_extraction_fails',
      area: 'documents',
      rule: 'DOC-020',
      needs: { mock: true, write: true },
      async run(ctx) {
        await ctx.mock!.fault({ kind: 'extraction-fails', count: 1 });
        armed.open();
        await otherDone.wait();
        const status = await extraction(ctx, 'armed');
        ctx.expect(status === 'failed', { expected: 'its own upload takes its fault: failed', actual: String(status) });
      },
    };
    const bystander: CheckDef = {
      name: 'uploads_meanwhile',
      area: 'documents',
      rule: 'DOC-012',
      needs: { mock: true, write: true },
      async run(ctx) {
        await armed.wait();
        try {
          const status = await extraction(ctx, 'bystander');
          ctx.expect(status === 'completed', { expected: "another check's fault is not taken: completed", actual: String(status) });
        } finally {
          otherDone.open();
        }
      },
    };
    const { report } = await runSuite({ ...suiteOptions(mock.url), checks: [arming, bystander], concurrency: 2 });
    expect(failureLines(report)).toEqual([]);
    for (const name of ['arms_extraction_fails', 'uploads_meanwhile'])
      expect(report.results.find((r) => r.name === name)?.outcome, name).toBe('passed');
  }, 60_000);
});
