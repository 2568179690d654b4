// The readings of time: how long the engine schedules an extraction and a regeneration under each (its clock's
// `after` calls, in simulated milliseconds), against the kit's figures. "Roughly 10 to 30 seconds" and "typical
// duration is under a minute" are no bounds: a fast extractor, a slow one and a slow regeneration are all documented.
import { afterEach, describe, expect, it } from 'vitest';
import { documentsFeature } from '../features/documents/feature.ts';
import { makePdf } from '../features/documents/sample-files.ts';
import { notesFeature } from '../features/notes/feature.ts';
import { patientsFeature } from '../features/patients/feature.ts';
import { providersFeature } from '../features/providers/feature.ts';
import type { ReadingId } from '../platform/deps.ts';
import { nodeRuntime } from '../runtime/node.ts';
import { generateSeed } from '../seed/generate.ts';
import { createHarness, type Harness, waitFor } from '../testing/fake-deps.ts';

let h: Harness | undefined;
afterEach(() => h?.close());

/** The harness, with every duration the engine schedules recorded. */
function timed(features: Parameters<typeof createHarness>[0], readings: ReadingId[]): { h: Harness; scheduled: number[] } {
  h = createHarness(features, { readings, timeScale: 0.001 });
  const scheduled: number[] = [];
  const after = h.deps.clock.after.bind(h.deps.clock);
  h.deps.clock.after = (ms, fn) => {
    scheduled.push(ms);
    return after(ms, fn);
  };
  return { h, scheduled };
}

async function extractionTimes(readings: ReadingId[]): Promise<{ scheduled: number[]; answered: string }> {
  const { h, scheduled } = timed([documentsFeature(nodeRuntime.documents)], readings);
  h.deps.store.collection<{ id: string; name: string }>('patients').insert('org-1', { id: '123', name: 'Ada' });
  const f = new FormData();
  f.append('file', new Blob([makePdf(['Letter']) as Uint8Array<ArrayBuffer>]), 'letter.pdf');
  const res = await h.api('/patients/123/documents', { method: 'POST', body: f });
  const { data } = (await res.json()) as { data: { id: string; status: string } };
  await waitFor(async () => {
    const list = (await (await h.api('/patients/123/documents')).json()) as { data: Array<{ id: string; status: string }> };
    return list.data.find((d) => d.id === data.id)?.status === 'completed';
  });
  return { scheduled, answered: data.status };
}

async function regenerationTimes(readings: ReadingId[]): Promise<number[]> {
  const seed = await generateSeed();
  const { h, scheduled } = timed([providersFeature, patientsFeature, notesFeature], readings);
  await h.seed(seed);
  const org = seed.organizations[0]!.id;
  const sessions = seed.sessions as Array<{ id: string; organization_id: string; transcript: { status: string } }>;
  const notes = seed.notes as Array<{ session_id: string }>;
  const s = sessions.find(
    (x) => x.organization_id === org && x.transcript.status === 'completed' && notes.some((n) => n.session_id === x.id),
  )!;
  const res = await h.api(`/sessions/${s.id}/notes/regenerate`, { method: 'POST', org });
  expect(res.status).toBe(202);
  return scheduled;
}

describe('readings of time', () => {
  it('extraction: the kit’s PDF takes 10 to 30 s after a 1 s pickup; extraction-fast at most 2 s; extraction-slow 45 s', async () => {
    const kit = await extractionTimes([]);
    expect(kit.answered).toBe('pending');
    expect(kit.scheduled[0]).toBe(1_000);
    expect(kit.scheduled[1]).toBeGreaterThanOrEqual(10_000);
    expect(kit.scheduled[1]).toBeLessThanOrEqual(30_000);
    expect((await extractionTimes(['extraction-fast'])).scheduled[1]).toBeLessThanOrEqual(2_000);
    expect((await extractionTimes(['extraction-slow'])).scheduled[1]).toBe(45_000);
  });

  it('upload-answers-processing: no pickup wait, the upload answers processing', async () => {
    const r = await extractionTimes(['upload-answers-processing']);
    expect(r.answered).toBe('processing');
    expect(r.scheduled[0]).toBeGreaterThanOrEqual(10_000);
  });

  it('regeneration: under a minute by the kit, 90 s under regeneration-slow', async () => {
    const kit = await regenerationTimes([]);
    expect(kit.length).toBe(1);
    expect(kit[0]).toBeLessThan(60_000);
    expect(await regenerationTimes(['regeneration-slow'])).toEqual([90_000]);
  });
});
