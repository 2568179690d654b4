// Which accepted type a file is, from its bytes. The accepted types come from the spec (the upload's
// encoding.file.contentType); the signatures are the formats' own. `satisfies` makes a type added to the spec
// without a signature a compile error here rather than a silent refusal.
import { uploadContentTypes } from '../generated/spec-values.ts';

export type UploadContentType = (typeof uploadContentTypes)[number];

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

function contains(bytes: Uint8Array, needle: number[]): boolean {
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const SIGNATURES = {
  'application/pdf': { test: (b: Uint8Array) => startsWith(b, ascii('%PDF-')), extensions: ['.pdf'] },
  'image/jpeg': { test: (b: Uint8Array) => startsWith(b, [0xff, 0xd8, 0xff]), extensions: ['.jpg', '.jpeg'] },
  'image/png': { test: (b: Uint8Array) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), extensions: ['.png'] },
  // DOCX is a ZIP: require the OOXML part list and the word/ folder, so any other ZIP is refused.
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    test: (b: Uint8Array) => startsWith(b, ZIP) && contains(b, ascii('[Content_Types].xml')) && contains(b, ascii('word/')),
    extensions: ['.docx'],
  },
} satisfies Record<UploadContentType, { test: (b: Uint8Array) => boolean; extensions: string[] }>;

const accepted: readonly string[] = uploadContentTypes;

/** The accepted type the bytes are, or undefined. */
export function sniffContentType(bytes: Uint8Array): UploadContentType | undefined {
  return (Object.keys(SIGNATURES) as UploadContentType[]).find((t) => accepted.includes(t) && SIGNATURES[t].test(bytes));
}

/** The accepted type a file name's extension claims, or undefined for an unknown extension. */
export function contentTypeOfName(filename: string): UploadContentType | undefined {
  const ext = /\.[^./\\]+$/.exec(filename.toLowerCase())?.[0];
  return ext ? (Object.keys(SIGNATURES) as UploadContentType[]).find((t) => SIGNATURES[t].extensions.includes(ext)) : undefined;
}
