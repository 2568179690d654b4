// Small real files built in code: the seed's document bytes and the tests' uploads. Each is a valid file of its
// type (a text PDF, a Word document, a PNG) so that extraction runs the real libraries on them.
import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';

const enc = new TextEncoder();

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A one-page PDF whose text is `lines` (Helvetica, ASCII). */
export function makePdf(lines: string[]): Uint8Array {
  const esc = (s: string) => s.replace(/[\\()]/g, (m) => `\\${m}`).replace(/[^\x20-\x7e]/g, '?');
  const stream = ['BT', '/F1 12 Tf', '14 TL', '72 720 Td', ...lines.map((l) => `(${esc(l)}) Tj T*`), 'ET'].join('\n');
  return pdfWithContent(enc.encode(stream), '');
}

/** A decompression bomb: a one-page PDF whose FlateDecode content stream inflates to `mib` MiB of text operators. */
export function makePdfBomb(mib: number): Uint8Array {
  const chunk = enc.encode('(Patient reports mild headache, no fever.) Tj T*\n'.repeat(20_000));
  const raw = deflateRepeated([
    { bytes: enc.encode('BT\n/F1 12 Tf\n14 TL\n72 720 Td\n'), times: 1 },
    { bytes: chunk, times: Math.ceil((mib * 1024 * 1024) / chunk.length) },
    { bytes: enc.encode('ET'), times: 1 },
  ]);
  // zlib framing around the raw deflate (the trailing Adler-32 is not checked before the bound stops reading)
  return pdfWithContent(concat([new Uint8Array([0x78, 0x9c]), raw.data, new Uint8Array(4)]), ' /Filter /FlateDecode');
}

function pdfWithContent(content: Uint8Array, filter: string): Uint8Array {
  const objects: Uint8Array[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    concat([enc.encode(`<< /Length ${content.length}${filter} >>\nstream\n`), content, enc.encode('\nendstream')]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ].map((o) => (typeof o === 'string' ? enc.encode(o) : o));
  const parts: Uint8Array[] = [enc.encode('%PDF-1.4\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const part = concat([enc.encode(`${i + 1} 0 obj\n`), o, enc.encode('\nendobj\n')]);
    parts.push(part);
    length += part.length;
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  tail += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  return concat([...parts, enc.encode(tail)]);
}

/** A zip entry: `data` is stored as is, or is raw deflate (method 8) of `size` bytes whose CRC-32 is `crc`. */
type ZipEntry = { name: string; data: Uint8Array } | { name: string; data: Uint8Array; method: 8; size: number; crc: number };

/** A zip archive; entries are stored (uncompressed) unless given deflated. */
export function makeZip(entries: ZipEntry[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const [method, size, crc] = 'method' in e ? [e.method, e.size, e.crc] : [0, e.data.length, crc32(e.data)];
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, method, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, e.data.length, true);
    local.setUint32(22, size, true);
    local.setUint16(26, name.length, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 20, true);
    central.setUint16(10, method, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, e.data.length, true);
    central.setUint32(24, size, true);
    central.setUint16(28, name.length, true);
    central.setUint32(42, offset, true);
    const localBytes = concat([new Uint8Array(local.buffer), name, e.data]);
    locals.push(localBytes);
    centrals.push(concat([new Uint8Array(central.buffer), name]));
    offset += localBytes.length;
  }
  const dir = concat(centrals);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, dir.length, true);
  end.setUint32(16, offset, true);
  return concat([...locals, dir, new Uint8Array(end.buffer)]);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const DOCUMENT_HEAD = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>`;
const DOCUMENT_TAIL = '</w:body></w:document>';
const paragraph = (line: string) =>
  `<w:p><w:r><w:t xml:space="preserve">${line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</w:t></w:r></w:p>`;

/** The parts of a minimal Word document around its word/document.xml. */
function docxParts(document: ZipEntry): ZipEntry[] {
  return [
    {
      name: '[Content_Types].xml',
      data: enc.encode(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: enc.encode(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
    },
    document,
  ];
}

/** Raw deflate of `pieces` in order, each repeated `times[i]` times, without ever holding the inflated whole. */
function deflateRepeated(pieces: Array<{ bytes: Uint8Array; times: number }>): { data: Uint8Array; size: number; crc: number } {
  const out: Uint8Array[] = [];
  let size = 0;
  let crc = 0;
  for (const { bytes, times } of pieces) {
    // A sync-flushed run of blocks is self-contained, so one compressed piece can be repeated as is.
    const deflated = deflateRawSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH, level: 9 });
    for (let i = 0; i < times; i++) {
      out.push(deflated);
      crc = crc32(bytes, crc);
    }
    size += bytes.length * times;
  }
  out.push(deflateRawSync(new Uint8Array(0))); // the final block
  return { data: concat(out), size, crc };
}

/** A minimal Word document (DOCX) with one paragraph per line; its parts deflated, as Word writes them, if asked. */
export function makeDocx(lines: string[], opts: { deflate?: boolean } = {}): Uint8Array {
  const xml = enc.encode(DOCUMENT_HEAD + lines.map(paragraph).join('') + DOCUMENT_TAIL);
  const document: ZipEntry = opts.deflate
    ? { name: 'word/document.xml', method: 8, ...deflateRepeated([{ bytes: xml, times: 1 }]) }
    : { name: 'word/document.xml', data: xml };
  return makeZip(docxParts(document));
}

/** A decompression bomb: a small DOCX whose word/document.xml inflates to about `mib` MiB of paragraphs. */
export function makeDocxBomb(mib: number): Uint8Array {
  const line = paragraph('Patient reports mild headache, no fever; follow-up in two weeks.');
  const lines = Math.ceil((mib * 1024 * 1024) / line.length);
  const perChunk = Math.floor((1024 * 1024) / line.length);
  const document = deflateRepeated([
    { bytes: enc.encode(DOCUMENT_HEAD), times: 1 },
    { bytes: enc.encode(line.repeat(perChunk)), times: Math.floor(lines / perChunk) },
    { bytes: enc.encode(line.repeat(lines % perChunk) + DOCUMENT_TAIL), times: 1 },
  ]);
  return makeZip(docxParts({ name: 'word/document.xml', method: 8, ...document }));
}

/** A solid-colour RGB PNG of width x height. */
export function makePng(width = 1, height = 1, rgb: [number, number, number] = [200, 220, 240]): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const head = new DataView(new ArrayBuffer(8));
    head.setUint32(0, data.length);
    const typed = concat([enc.encode(type), data]);
    const tail = new DataView(new ArrayBuffer(4));
    tail.setUint32(0, crc32(typed));
    return concat([new Uint8Array(head.buffer, 0, 4), typed, new Uint8Array(tail.buffer)]);
  };
  const ihdr = new DataView(new ArrayBuffer(13));
  ihdr.setUint32(0, width);
  ihdr.setUint32(4, height);
  ihdr.setUint8(8, 8); // bit depth
  ihdr.setUint8(9, 2); // truecolour
  const row = [0, ...Array.from({ length: width }, () => rgb).flat()];
  const raw = new Uint8Array(Array.from({ length: height }, () => row).flat());
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', new Uint8Array(ihdr.buffer)),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** Starts like a PDF but has no readable structure: recognised on upload, fails extraction. */
export function makeCorruptPdf(): Uint8Array {
  return enc.encode('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R\ngarbage without xref or trailer\n');
}

/** A tiny JPEG-shaped byte sequence (SOI, APP0 JFIF, EOI): recognised by its magic bytes. */
export function makeJpeg(): Uint8Array {
  return new Uint8Array([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
  ]);
}
