// What the suite reads and keeps of an answer: the 10 MB bound, and cuts that never leave half a key behind.
import { describe, expect, it } from 'vitest';
import { AnswerTooLarge, KeptText, cutText, readBounded } from './answer-bounds.ts';

const streamOf = (chunks: number, size: number) =>
  new ReadableStream<Uint8Array>({
    pull(c) {
      if (chunks-- > 0) c.enqueue(new Uint8Array(size).fill(0x61));
      else c.close();
    },
  });

describe('readBounded', () => {
  it('reads an answer up to the bound, and refuses one that declares more or goes on past it', async () => {
    expect(await readBounded(new Response('héllo'), 10)).toBe('héllo');
    const declared = new Response('x', { headers: { 'content-length': String(50 * 1024 * 1024) } });
    await expect(readBounded(declared)).rejects.toThrow('answer of 50 MB (Content-Length) is over the 10 MB bound: not read');
    await expect(readBounded(new Response(streamOf(11, 1024 * 1024)))).rejects.toThrow(AnswerTooLarge);
    expect((await readBounded(new Response(streamOf(10, 1024 * 1024)))).length).toBe(10 * 1024 * 1024);
  });
});

describe('cutText and KeptText', () => {
  const key = 'crk_9f1c2b7a04d84e0c8a5d3e6f7b8c9d0e';

  it('cuts between words only: a key the cut would split is dropped whole', () => {
    const s = `${'e'.repeat(10)} ${'x'.repeat(280)}${key} refused`;
    for (const max of [100, 300, 310, 320]) {
      const cut = cutText(s, max);
      expect(cut).toMatch(/… \(\d+ more characters not kept\)$/);
      expect(cut.includes(key.slice(0, 8))).toBe(false);
    }
    expect(cutText(s, 400)).toBe(s);
    expect(cutText(`a ${key} b`, 30)).toBe('a … (38 more characters not kept)');
  });

  it('keeps each string within its bound and all of them within the total, then a short floor each', () => {
    const kept = new KeptText(1000, 400, 50);
    const long = 'word '.repeat(1000);
    expect(kept.keep(long).length).toBeLessThan(440);
    expect(kept.keep(long).length).toBeLessThan(440);
    const third = kept.keep(long);
    expect(third.length).toBeLessThan(260);
    expect(kept.keep(long).length).toBeLessThan(90);
    expect(kept.keep('short')).toBe('short');
  });
});
