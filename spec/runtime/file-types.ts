// Which accepted upload type a file is, from its bytes (never its name or declared Content-Type), for the client
// (before it uploads) and the mock (when it receives) alike, so a file the client passes is one the mock takes.
// The accepted types come from the spec (the upload's encoding.file.contentType, through generated/spec-values.ts);
// the signatures are the formats' own. Runs in browsers: no Node built-ins.
import { uploadContentTypes } from '../../generated/spec-values.ts';

export type UploadContentType = (typeof uploadContentTypes)[number];
export type FileKind = 'pdf' | 'jpeg' | 'png' | 'docx';

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const ZIP = [0x50, 0x4b, 0x03, 0x04];

/** `satisfies` makes a type added to the spec without a signature a compile error here, not a silent refusal. */
const SIGNATURES = {
  'application/pdf': { kind: 'pdf', test: (b: Uint8Array) => startsWith(b, ascii('%PDF-')), extensions: ['.pdf'] },
  'image/jpeg': { kind: 'jpeg', test: (b: Uint8Array) => startsWith(b, [0xff, 0xd8, 0xff]), extensions: ['.jpg', '.jpeg'] },
  'image/png': {
    kind: 'png',
    test: (b: Uint8Array) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    extensions: ['.png'],
  },
  // DOCX is a ZIP whose central directory lists the main document part; any other ZIP is refused.
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    kind: 'docx',
    test: (b: Uint8Array) => startsWith(b, ZIP) && (zipEntryNames(b)?.includes('word/document.xml') ?? false),
    extensions: ['.docx'],
  },
} as const satisfies Record<UploadContentType, { kind: FileKind; test: (b: Uint8Array) => boolean; extensions: readonly string[] }>;

const TYPES = (Object.keys(SIGNATURES) as UploadContentType[]).filter((t) => (uploadContentTypes as readonly string[]).includes(t));

/** The MIME type of each kind (reported as a document's `file_type`). */
export const MIME = Object.fromEntries(TYPES.map((t) => [SIGNATURES[t].kind, t])) as Record<FileKind, UploadContentType>;

/** The accepted type the bytes are, or undefined. */
export function sniffContentType(bytes: Uint8Array): UploadContentType | undefined {
  return TYPES.find((t) => SIGNATURES[t].test(bytes));
}

/** The accepted kind the bytes are (pdf, jpeg, png, docx), or undefined. */
export function sniffFileKind(bytes: Uint8Array): FileKind | undefined {
  const type = sniffContentType(bytes);
  return type && SIGNATURES[type].kind;
}

/** The accepted type a file name's extension claims, or undefined for an unknown extension. */
export function contentTypeOfName(filename: string): UploadContentType | undefined {
  const ext = /\.[^./\\]+$/.exec(filename.toLowerCase())?.[0];
  return ext ? TYPES.find((t) => (SIGNATURES[t].extensions as readonly string[]).includes(ext)) : undefined;
}

/** Names in a zip's central directory; undefined when the archive has none that can be read. */
export function zipEntryNames(bytes: Uint8Array): string[] | undefined {
  if (bytes.length < 22) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const names: string[] = [];
  const dec = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return undefined;
    const nameLen = view.getUint16(at + 28, true);
    const extraLen = view.getUint16(at + 30, true);
    const commentLen = view.getUint16(at + 32, true);
    names.push(dec.decode(bytes.subarray(at + 46, at + 46 + nameLen)));
    at += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}
