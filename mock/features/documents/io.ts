// What the documents feature needs from its runtime, swapped at the composition edge (mock/runtime/): how a multipart
// upload is read (busboy in Node, Request.formData() in a page) and how text is extracted (a worker thread in Node,
// the page's own thread in a browser).
import type { FieldErrors } from '../../platform/deps.ts';
import type { FileKind } from '../../../spec/runtime/file-types.ts';
import type { ExtractionOutcome } from './extract-text.ts';

export type ParsedUpload =
  | { ok: true; fields: Record<string, string>; file?: { bytes: Uint8Array; filename: string } }
  // A 400 always names what is wrong (the contract's ValidationError has `details`).
  | { ok: false; status: 400; message: string; details: FieldErrors }
  | { ok: false; status: 413 | 415; message: string };

/** Reads the upload form: the file (at most `maxBytes` of it kept) and the text fields, or the refusal. */
export type UploadReader = (req: Request, maxBytes: number) => Promise<ParsedUpload>;

export type TextExtractor = (kind: FileKind, bytes: Uint8Array) => Promise<ExtractionOutcome>;

export interface DocumentsIO {
  readUpload: UploadReader;
  extractText: TextExtractor;
}
