// Text extraction per file kind: real for PDF (unpdf) and DOCX (mammoth), simulated for images (no OCR engine),
// within the limits of extract-limits.ts. Only the length survives: the API never returns the text. Runs in the
// extraction worker (off-thread.ts); nothing here needs Node.
import { EXTRACTION_LIMITS, type ExtractionLimits } from './extract-limits.ts';
import { checkDocx, checkPdf } from './inflate-bounds.ts';
import type { FileKind } from '../../../spec/runtime/file-types.ts';

export type ExtractionOutcome = { ok: true; textLength: number } | { ok: false; error: string };

/** A document over one of the limits: the message is the extraction_error. */
class OverLimit extends Error {}

export const overLimitError = (why: string) => `Text extraction refused: ${why}`;

/** Whitespace runs count as one space, so a length does not depend on a library's line-break choices. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export async function extractText(
  kind: FileKind,
  bytes: Uint8Array,
  limits: ExtractionLimits = EXTRACTION_LIMITS,
): Promise<ExtractionOutcome> {
  try {
    switch (kind) {
      case 'pdf':
        return { ok: true, textLength: normalizeText(await pdfText(bytes, limits)).length };
      case 'docx':
        return { ok: true, textLength: normalizeText(await docxText(bytes, limits)).length };
      case 'png':
      case 'jpeg':
        return simulatedOcr(kind, bytes);
    }
  } catch (err) {
    if (err instanceof OverLimit) return { ok: false, error: overLimitError(err.message) };
    return { ok: false, error: `Text extraction failed: ${describe(err)}` };
  }
}

function refuse(verdict: string | null): void {
  if (verdict) throw new OverLimit(verdict);
}

/** Page by page (unpdf's extractText reads every page at once), stopping at the page and text bounds. */
async function pdfText(bytes: Uint8Array, limits: ExtractionLimits): Promise<string> {
  refuse(await checkPdf(bytes, limits));
  const { getDocumentProxy } = await import('unpdf');
  // pdf.js may detach the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(bytes.slice(), { verbosity: 0 });
  try {
    refuse(pdf.numPages > limits.pdfPages ? `the PDF has ${pdf.numPages} page(s); the limit is ${limits.pdfPages}` : null);
    const pages: string[] = [];
    let chars = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const { items } = await (await pdf.getPage(n)).getTextContent();
      const text = items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
      chars += text.length;
      refuse(chars > limits.textChars ? textOver(limits) : null);
      pages.push(text);
    }
    return pages.join('\n');
  } finally {
    await pdf.destroy();
  }
}

async function docxText(bytes: Uint8Array, limits: ExtractionLimits): Promise<string> {
  refuse(await checkDocx(bytes, limits));
  const mammoth = (await import('mammoth')).default;
  // Node's mammoth reads `buffer`, its browser build `arrayBuffer`: both are given, neither copied twice.
  const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const { value } = await mammoth.extractRawText({ buffer: new Uint8Array(arrayBuffer), arrayBuffer } as unknown as { buffer: Buffer });
  refuse(value.length > limits.textChars ? textOver(limits) : null);
  return value;
}

const textOver = (limits: ExtractionLimits) => `the text is longer than ${limits.textChars.toLocaleString('en-US')} characters`;

/**
 * Images: the mock has no OCR, so a structurally sound image "yields" one character of text per 40 bytes
 * (at least 40, at most 20,000); a damaged one fails. Listed in docs/mock.md's choices of the mock.
 */
export function simulatedOcr(kind: 'png' | 'jpeg', bytes: Uint8Array): ExtractionOutcome {
  const sound =
    kind === 'png' ? pngIsSound(bytes) : bytes.length >= 4 && bytes[bytes.length - 2] === 0xff && bytes[bytes.length - 1] === 0xd9;
  if (!sound) return { ok: false, error: 'Text extraction failed: the image could not be decoded' };
  return { ok: true, textLength: Math.min(20_000, Math.max(40, Math.floor(bytes.length / 40))) };
}

function pngIsSound(bytes: Uint8Array): boolean {
  const text = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 8 + 25 + 12 || text(12) !== 'IHDR') return false;
  return text(bytes.length - 8) === 'IEND';
}

function describe(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0]?.slice(0, 200) || 'unreadable file';
}
