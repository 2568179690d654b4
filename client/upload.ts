// Document upload: refuses, before anything is sent, a file over the spec's x-max-bytes or whose bytes are not one
// of the spec's accepted types (a name that claims another accepted type is refused too). Then multipart/form-data.
import { uploadContentTypes, uploadMaxBytes } from '../generated/spec-values.ts';
import type { DocumentUpload } from '../generated/types.ts';
import { UploadRejectedError } from './errors.ts';
import { contentTypeOfName, sniffContentType, type UploadContentType } from '../spec/runtime/file-types.ts';

export interface UploadInput {
  /** The file: a Blob/File, bytes (Buffer, Uint8Array, ArrayBuffer) or a path on disk (Node only: the `node` entry). */
  file: Blob | Uint8Array | ArrayBuffer | string;
  /** Sent as the part's file name; defaults to the File's name or the path's base name. */
  filename?: string;
  /** Optional external identifier, unique per organization. */
  externalId?: string;
}

export interface PreparedUpload {
  form: FormData;
  filename: string;
  contentType: UploadContentType;
  size: number;
}

function tooLarge(size: number): UploadRejectedError {
  return new UploadRejectedError('too-large', `file is ${size} bytes; the upload accepts at most ${uploadMaxBytes} bytes (10 MB)`);
}

/** Reads a file path (Node: client/read-path.ts); the browser entry has none. */
export type PathReader = (
  path: string,
  maxBytes: number,
  tooLarge: (size: number) => UploadRejectedError,
) => Promise<{ bytes: Uint8Array<ArrayBuffer>; name: string }>;

/** Bytes of the input, checking the size before reading whatever it can. */
async function read(
  file: UploadInput['file'],
  readPath: PathReader | undefined,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; name?: string }> {
  if (typeof file === 'string') {
    if (!readPath)
      throw new TypeError('a file path upload needs Node (this is the browser build of the client): pass a Blob/File or bytes');
    return readPath(file, uploadMaxBytes, tooLarge);
  }
  if (typeof Blob !== 'undefined' && file instanceof Blob) {
    if (file.size > uploadMaxBytes) throw tooLarge(file.size);
    const name = (file as { name?: unknown }).name;
    return { bytes: new Uint8Array(await file.arrayBuffer()), ...(typeof name === 'string' && name ? { name } : {}) };
  }
  if (file instanceof ArrayBuffer || ArrayBuffer.isView(file)) {
    const view = file instanceof ArrayBuffer ? new Uint8Array(file) : new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
    if (view.byteLength > uploadMaxBytes) throw tooLarge(view.byteLength);
    return { bytes: new Uint8Array(view) };
  }
  throw new TypeError('file must be a Blob, a Buffer/Uint8Array/ArrayBuffer or a file path');
}

export async function prepareUpload(input: UploadInput, readPath?: PathReader): Promise<PreparedUpload> {
  if (!input || typeof input !== 'object') throw new TypeError('upload input must be an object { file, filename?, externalId? }');
  if (input.externalId !== undefined && (typeof input.externalId !== 'string' || input.externalId.length === 0))
    throw new TypeError('externalId must be a non-empty string');
  const { bytes, name } = await read(input.file, readPath);
  const filename = input.filename ?? name;
  if (!filename) throw new TypeError('filename is required when the file is a Blob without a name or raw bytes');
  const contentType = sniffContentType(bytes);
  if (!contentType)
    throw new UploadRejectedError(
      'unsupported-type',
      `${filename} is not one of the accepted types (${uploadContentTypes.join(', ')}) by its content`,
    );
  const claimed = contentTypeOfName(filename);
  if (claimed && claimed !== contentType)
    throw new UploadRejectedError('name-mismatch', `${filename} is named as ${claimed} but its content is ${contentType}`);
  // Field names are checked against the spec's DocumentUpload schema.
  const field = <K extends keyof DocumentUpload>(k: K) => k;
  const form = new FormData();
  form.append(field('file'), new Blob([bytes], { type: contentType }), filename);
  if (input.externalId !== undefined) form.append(field('external_id'), input.externalId);
  return { form, filename, contentType, size: bytes.byteLength };
}
