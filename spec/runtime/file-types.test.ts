// File-type sniffing, shared by the client (before upload) and the mock (on receipt): the formats' own signatures,
// and one DOCX rule, the strict one: a zip whose central directory lists word/document.xml.
import { describe, expect, it } from 'vitest';
import { uploadContentTypes } from '../../generated/spec-values.ts';
// Real sample files (test-only use of the mock's builders: the point is that what passes here, the mock accepts).
import { makeDocx, makeJpeg, makePdf, makePng, makeZip } from '../../mock/features/documents/sample-files.ts';
import { contentTypeOfName, MIME, sniffContentType, sniffFileKind, zipEntryNames } from './file-types.ts';

const enc = new TextEncoder();
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('file types by content', () => {
  it('recognises each accepted type by its signature, whatever it is called', () => {
    expect(sniffContentType(makePdf(['x']))).toBe('application/pdf');
    expect(sniffContentType(makePng())).toBe('image/png');
    expect(sniffContentType(makeJpeg())).toBe('image/jpeg');
    expect(sniffContentType(makeDocx(['x']))).toBe(DOCX);
    expect(sniffFileKind(makeDocx(['x'], { deflate: true }))).toBe('docx');
  });

  it('DOCX is a zip listing word/document.xml: a zip with only [Content_Types].xml and other word/ parts is not', () => {
    const loose = makeZip([
      { name: '[Content_Types].xml', data: enc.encode('<Types/>') },
      { name: 'word/styles.xml', data: enc.encode('<w:styles/>') },
    ]);
    expect(sniffContentType(loose)).toBeUndefined();
    expect(sniffContentType(makeZip([{ name: 'hello.txt', data: enc.encode('hello') }]))).toBeUndefined();
    // The names only in local headers (no central directory) are not a readable archive.
    const noDirectory = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Uint8Array(26), ...enc.encode('word/document.xml')]);
    expect(sniffContentType(noDirectory)).toBeUndefined();
  });

  it('refuses text, empty and truncated input without throwing', () => {
    for (const bytes of [enc.encode('just text'), new Uint8Array(0), new Uint8Array([0x50, 0x4b, 0x03]), makeDocx(['x']).subarray(0, 40)])
      expect(sniffContentType(bytes)).toBeUndefined();
  });

  it('reads the entry names of a zip from its central directory', () => {
    expect(zipEntryNames(makeDocx(['x']))).toContain('word/document.xml');
    expect(zipEntryNames(enc.encode('not a zip at all, long enough to have an end record'))).toBeUndefined();
  });

  it('has a signature and a kind for every type the spec accepts, and claims types by extension', () => {
    expect(Object.values(MIME).sort()).toEqual([...uploadContentTypes].sort());
    expect(contentTypeOfName('Scan.JPG')).toBe('image/jpeg');
    expect(contentTypeOfName('report.docx')).toBe(DOCX);
    expect(contentTypeOfName('notes.txt')).toBeUndefined();
    expect(contentTypeOfName('no-extension')).toBeUndefined();
  });
});
