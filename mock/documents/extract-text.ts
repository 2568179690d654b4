// Text extraction per file kind: real for PDF (unpdf) and DOCX (mammoth), simulated for images (no OCR engine).
// Only the length survives: the API never returns the text.
import type { FileKind } from './sniff.ts';

export type ExtractionOutcome = { ok: true; textLength: number } | { ok: false; error: string };

/** Whitespace runs count as one space, so a length does not depend on a library's line-break choices. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export async function extractText(kind: FileKind, bytes: Uint8Array): Promise<ExtractionOutcome> {
  try {
    switch (kind) {
      case 'pdf':
        return { ok: true, textLength: normalizeText(await pdfText(bytes)).length };
      case 'docx':
        return { ok: true, textLength: normalizeText(await docxText(bytes)).length };
      case 'png':
      case 'jpeg':
        return simulatedOcr(kind, bytes);
    }
  } catch (err) {
    return { ok: false, error: `Text extraction failed: ${describe(err)}` };
  }
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { getDocumentProxy, extractText: unpdfText } = await import('unpdf');
  // pdf.js may detach the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(bytes.slice(), { verbosity: 0 });
  try {
    const { text } = await unpdfText(pdf, { mergePages: true });
    return text;
  } finally {
    await pdf.destroy();
  }
}

async function docxText(bytes: Uint8Array): Promise<string> {
  const mammoth = (await import('mammoth')).default;
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
  return value;
}

/**
 * Images: the mock has no OCR, so a structurally sound image "yields" one character of text per 40 bytes
 * (at least 40, at most 20,000); a damaged one fails. Listed in the README's choices of the mock.
 */
export function simulatedOcr(kind: 'png' | 'jpeg', bytes: Uint8Array): ExtractionOutcome {
  const sound = kind === 'png' ? pngIsSound(bytes) : bytes.length >= 4 && bytes[bytes.length - 2] === 0xff && bytes[bytes.length - 1] === 0xd9;
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
