// Extraction in a worker thread: the text comes back as in-thread, and whatever a file costs inside the worker is
// bounded (heap, wall clock) and ends as a failed outcome naming the bound, never as a dead or stalled process.
import { describe, expect, it } from 'vitest';
import { EXTRACTION_LIMITS, MiB } from './extract-limits.ts';
import { createOffThreadExtractor, extractOffThread } from './off-thread.ts';
import { makeDocx, makeDocxBomb, makePdf, makePng } from './sample-files.ts';

describe('off-thread extraction', () => {
  it('DOCX, PDF and images yield the same text lengths as in-thread', async () => {
    expect(await extractOffThread('docx', makeDocx(['Discharge summary'], { deflate: true }))).toEqual({ ok: true, textLength: 17 });
    expect(await extractOffThread('pdf', makePdf(['Referral letter']))).toEqual({ ok: true, textLength: 15 });
    expect(await extractOffThread('png', makePng(2, 2))).toEqual({ ok: true, textLength: 40 });
  });

  it('a bomb is refused by the worker, and the event loop keeps turning meanwhile', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const outcome = await extractOffThread('docx', makeDocxBomb(200));
    clearInterval(timer);
    expect(outcome).toEqual({ ok: false, error: expect.stringContaining("the document's XML inflates past 8 MiB") });
    expect(ticks).toBeGreaterThan(0);
  });

  it('a file past the heap limit fails naming it; the process carries on', async () => {
    // Bounds opened wide so that mammoth itself parses 24 MiB of XML (about 1.5 GB in one thread) in a 64 MB heap.
    const extract = createOffThreadExtractor({ ...EXTRACTION_LIMITS, docxXmlBytes: 64 * MiB, heapMb: 64 });
    expect(await extract('docx', makeDocxBomb(24))).toEqual({
      ok: false,
      error: 'Text extraction refused: it needed more than 64 MB of heap',
    });
    expect(await extract('docx', makeDocx(['still here']))).toEqual({ ok: true, textLength: 10 });
  });

  it('a file that grows the process past the memory bound fails naming it (buffers are outside the heap limit)', async () => {
    const extract = createOffThreadExtractor({ ...EXTRACTION_LIMITS, memoryGrowthMb: 1 }); // a worker's own start costs more
    expect(await extract('pdf', makePdf(['x']))).toEqual({
      ok: false,
      error: 'Text extraction refused: it needed more than 1 MB of memory',
    });
  });

  it('a file past the time limit fails naming it', async () => {
    const extract = createOffThreadExtractor({ ...EXTRACTION_LIMITS, seconds: 0.001 });
    expect(await extract('pdf', makePdf(['slow']))).toEqual({ ok: false, error: 'Text extraction refused: it took longer than 0.001 s' });
  });
});
