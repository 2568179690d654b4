// Decompression bombs are refused before a library inflates anything whole: every compressed part of a DOCX (zip
// entries) or PDF (streams) is inflated here as a stream, counting bytes and discarding them, and the count stops
// the moment a bound is crossed. Web-standard only (DecompressionStream), so it runs in a worker or a page alike.
import { mib, type ExtractionLimits } from './extract-limits.ts';

/** Why the document is over a limit, or null when it is within every one. */
export type Verdict = string | null;

/**
 * Bytes `data` inflates to, counted chunk by chunk; stops reading once the count passes `budget` (so at most one
 * chunk past it is ever produced). A damaged stream counts what it yielded before the damage.
 */
export async function inflatedSize(data: Uint8Array, format: 'deflate' | 'deflate-raw', budget: number): Promise<number> {
  const ds = new DecompressionStream(format);
  const writer = ds.writable.getWriter();
  // Not awaited: the write resolves only as the output is read, which is what keeps memory at one chunk.
  writer.write(data as Uint8Array<ArrayBuffer>).catch(() => undefined);
  writer.close().catch(() => undefined);
  const reader = ds.readable.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > budget) break;
    }
  } catch {
    // damaged or truncated data: the library that reads it will fail on it too
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return total;
}

type ZipEntry = { name: string; method: number; data: Uint8Array };

/** The entries as the central directory lists them, located through their local headers, as JSZip reads them. */
function zipEntries(bytes: Uint8Array, maxEntries: number): ZipEntry[] | string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--)
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) return 'the file is not a readable zip archive (no end of central directory)';
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  if (count === 0xffff || at === 0xffffffff) return 'ZIP64 archives are not supported';
  if (count > maxEntries) return `the archive has ${count} entries; the limit is ${maxEntries}`;
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return 'the zip central directory is damaged';
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) return `the zip entry ${name} is damaged`;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + size > bytes.length) return `the zip entry ${name} is truncated`;
    entries.push({ name, method, data: bytes.subarray(start, start + size) });
  }
  return entries;
}

const isXmlPart = (name: string) => /\.(xml|rels)$/i.test(name);

/** A DOCX within the entry count, the inflated total and the XML total, each counted while inflating. */
export async function checkDocx(bytes: Uint8Array, limits: ExtractionLimits): Promise<Verdict> {
  const entries = zipEntries(bytes, limits.docxEntries);
  if (typeof entries === 'string') return entries;
  let total = 0;
  let xml = 0;
  for (const e of entries) {
    const xmlPart = isXmlPart(e.name);
    const budget = Math.min(limits.docxInflatedBytes - total, xmlPart ? limits.docxXmlBytes - xml : Infinity);
    // Stored entries are their own size; a method JSZip cannot inflate is never inflated by anyone.
    const size = e.method === 8 ? await inflatedSize(e.data, 'deflate-raw', budget) : e.data.length;
    total += size;
    if (xmlPart) xml += size;
    if (xml > limits.docxXmlBytes) return `the document's XML inflates past ${mib(limits.docxXmlBytes)} (stopped in ${e.name})`;
    if (total > limits.docxInflatedBytes) return `the archive inflates past ${mib(limits.docxInflatedBytes)} (stopped in ${e.name})`;
  }
  return null;
}

/**
 * A PDF whose compressed streams, images aside (text extraction never decodes them), inflate within the bound.
 * Streams are found by their keywords, as pdf.js's own recovery does, so a broken cross-reference table hides none.
 */
export async function checkPdf(bytes: Uint8Array, limits: ExtractionLimits): Promise<Verdict> {
  const text = new TextDecoder('latin1').decode(bytes);
  const keyword = /(?<!end)stream\r?\n/g;
  let total = 0;
  for (let m = keyword.exec(text); m; m = keyword.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    const dict = text.slice(Math.max(0, text.lastIndexOf('obj', m.index)), m.index);
    if (/\/Subtype\s*\/Image\b/.test(dict)) continue;
    total += await inflatedSize(bytes.subarray(start, end < 0 ? bytes.length : end), 'deflate', limits.pdfInflatedBytes - total);
    if (total > limits.pdfInflatedBytes) return `its compressed streams inflate past ${mib(limits.pdfInflatedBytes)}`;
    keyword.lastIndex = end < 0 ? text.length : end + 'endstream'.length;
  }
  return null;
}
