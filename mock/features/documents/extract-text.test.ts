// Extraction limits, in the thread that runs them: decompression bombs are refused while inflating (never after),
// each bound names itself in the error, and files within the bounds still yield their text.
import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EXTRACTION_LIMITS, MiB, type ExtractionLimits } from './extract-limits.ts';
import { extractText } from './extract-text.ts';
import { inflatedSize } from './inflate-bounds.ts';
import { makeDocx, makeDocxBomb, makePdf, makePdfBomb, makeZip } from './sample-files.ts';

const limits = (over: Partial<ExtractionLimits>) => ({ ...EXTRACTION_LIMITS, ...over });
const refused = (why: string) => ({ ok: false, error: expect.stringMatching(new RegExp(`^Text extraction refused: ${why}`)) });

describe('DOCX', () => {
  it('a deflated document (as Word writes it) within the limits yields its text', async () => {
    expect(await extractText('docx', makeDocx(['Discharge summary', 'Follow-up in two weeks'], { deflate: true }))).toEqual({
      ok: true,
      textLength: 'Discharge summary Follow-up in two weeks'.length,
    });
  });

  it('a 200 MiB word/document.xml is refused at the XML bound, without inflating the rest', async () => {
    const bomb = makeDocxBomb(200);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage().rss;
    expect(await extractText('docx', bomb)).toEqual(refused(`the document's XML inflates past 8 MiB \\(stopped in word/document\\.xml\\)`));
    // Inflating 200 MiB, or handing it to mammoth, would cost hundreds of MB; counting costs a chunk at a time.
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * MiB);
  });

  it('the inflated total counts media too', async () => {
    const media = new Uint8Array(3 * MiB);
    const docx = makeZip([{ name: 'word/media/scan.bin', method: 8, data: deflateRawSync(media), size: media.length, crc: crc32(media) }]);
    expect(await extractText('docx', docx, limits({ docxInflatedBytes: 2 * MiB }))).toEqual(
      refused('the archive inflates past 2 MiB \\(stopped in word/media/scan\\.bin\\)'),
    );
  });

  it('the entry count is checked before anything is inflated', async () => {
    const entries = Array.from({ length: 11 }, (_, i) => ({ name: `part${i}.xml`, data: new Uint8Array(1) }));
    expect(await extractText('docx', makeZip(entries), limits({ docxEntries: 10 }))).toEqual(
      refused('the archive has 11 entries; the limit is 10'),
    );
  });

  it('text past the character bound is refused', async () => {
    expect(await extractText('docx', makeDocx(['0123456789']), limits({ textChars: 5 }))).toEqual(
      refused('the text is longer than 5 characters'),
    );
  });
});

describe('PDF', () => {
  it('a PDF within the limits yields its text', async () => {
    expect(await extractText('pdf', makePdf(['Referral letter', 'Patient: Ada']))).toEqual({
      ok: true,
      textLength: 'Referral letter Patient: Ada'.length,
    });
  });

  it('a content stream that inflates to 200 MiB is refused before pdf.js reads it', async () => {
    expect(await extractText('pdf', makePdfBomb(200))).toEqual(refused('its compressed streams inflate past 128 MiB'));
  });

  it('the page and text bounds', async () => {
    expect(await extractText('pdf', makePdf(['x']), limits({ pdfPages: 0 }))).toEqual(refused('the PDF has 1 page\\(s\\); the limit is 0'));
    expect(await extractText('pdf', makePdf(['0123456789']), limits({ textChars: 5 }))).toEqual(
      refused('the text is longer than 5 characters'),
    );
  });
});

describe('inflatedSize', () => {
  it('counts exactly within the budget and stops one chunk past it', async () => {
    const data = new Uint8Array(5 * MiB);
    const raw = deflateRawSync(data);
    expect(await inflatedSize(raw, 'deflate-raw', 10 * MiB)).toBe(5 * MiB);
    const stopped = await inflatedSize(raw, 'deflate-raw', MiB);
    expect(stopped).toBeGreaterThan(MiB);
    expect(stopped).toBeLessThan(2 * MiB);
  });
  it('a damaged stream counts what it yielded', async () => {
    expect(await inflatedSize(new Uint8Array([1, 2, 3]), 'deflate', MiB)).toBe(0);
  });
});
