// Streams a multipart/form-data upload through busboy: keeps at most `maxBytes` of the file, never the rest.
import { Readable } from 'node:stream';
import busboy from 'busboy';
import type { FieldErrors } from '../engine/deps.ts';

export type ParsedUpload =
  | { ok: true; fields: Record<string, string>; file?: { bytes: Uint8Array; filename: string } }
  // A 400 always names what is wrong (the contract's ValidationError has `details`).
  | { ok: false; status: 400; message: string; details: FieldErrors }
  | { ok: false; status: 413 | 415; message: string };

/** Limits of the form around the file (the file's own is maxBytes). */
const LIMITS = { fieldSize: 4096, fields: 20, files: 5, parts: 25 };

const malformed = (reason: string): ParsedUpload => ({
  ok: false,
  status: 400,
  message: 'Malformed multipart body',
  details: { body: reason },
});

/** Multipart framing and the small text fields around the file. */
const FRAMING_SLACK = 64 * 1024;

export async function readUpload(req: Request, maxBytes: number, fileField = 'file'): Promise<ParsedUpload> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type))
    return { ok: false, status: 415, message: 'Unsupported Content-Type: expected multipart/form-data' };
  const tooLarge = { ok: false, status: 413, message: `File too large: the limit is ${maxBytes} bytes` } as const;
  const declared = Number(req.headers.get('content-length') ?? NaN);
  // A declared length far past the limit is refused before reading anything.
  if (Number.isFinite(declared) && declared > maxBytes + FRAMING_SLACK) return tooLarge;
  if (!req.body) return { ok: false, status: 400, message: 'Validation failed', details: { [fileField]: 'is required' } };

  let bb: busboy.Busboy;
  try {
    // Parameters without a charset (a plain filename="…") are read as UTF-8, as browsers send them; RFC 5987
    // `filename*=UTF-8''…` is decoded by busboy itself.
    bb = busboy({ headers: { 'content-type': type }, defParamCharset: 'utf8', limits: { fileSize: maxBytes + 1, ...LIMITS } });
  } catch (err) {
    return malformed((err as Error).message);
  }

  return new Promise<ParsedUpload>((resolve) => {
    const fields: Record<string, string> = {};
    const details: FieldErrors = {};
    let file: { bytes: Uint8Array; filename: string } | undefined;
    // Set when the part starts, not when its bytes end: a second file part may start before the first one ends.
    let sawFile = false;
    let overLimit = false;
    let settled = false;
    let total = 0;
    const source = Readable.fromWeb(req.body as import('node:stream/web').ReadableStream<Uint8Array>);
    const done = (result: ParsedUpload) => {
      if (settled) return;
      settled = true;
      source.unpipe(bb);
      source.destroy();
      resolve(result);
    };

    bb.on('file', (name, stream, info) => {
      if (name !== fileField || sawFile) {
        details[name] = name === fileField ? 'sent more than once' : 'unknown field';
        stream.on('error', () => undefined);
        stream.resume();
        return;
      }
      sawFile = true;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!overLimit) chunks.push(chunk);
      });
      // A form cut short errors the file stream too; the parser's own error answers the request.
      stream.on('error', () => undefined);
      // busboy signals reaching fileSize (limit + 1 bytes, so exactly the limit passes) and stops passing bytes:
      // drop what was kept.
      stream.on('limit', () => {
        overLimit = true;
        chunks.length = 0;
      });
      stream.on('end', () => {
        if (!overLimit) file = { bytes: new Uint8Array(Buffer.concat(chunks)), filename: info.filename || 'upload' };
      });
    });
    bb.on('field', (name, value, info) => {
      if (name === fileField) details[name] = 'must be a file part';
      else if (name in fields) details[name] = 'sent more than once';
      else if (info.valueTruncated) details[name] = 'too long';
      else fields[name] = value;
    });
    bb.on('partsLimit', () => done(malformed(`too many parts: at most ${LIMITS.parts}`)));
    bb.on('filesLimit', () => done(malformed(`too many file parts: at most ${LIMITS.files}`)));
    bb.on('fieldsLimit', () => done(malformed(`too many fields: at most ${LIMITS.fields}`)));
    bb.on('error', (err) => done(malformed((err as Error).message)));
    bb.on('close', () => {
      if (overLimit) return done(tooLarge);
      if (Object.keys(details).length) return done({ ok: false, status: 400, message: 'Validation failed', details });
      done({ ok: true, fields, ...(file ? { file } : {}) });
    });
    source.on('data', (chunk: Buffer) => {
      total += chunk.length;
      // Past the limit plus framing, nothing more is worth reading.
      if (total > maxBytes + FRAMING_SLACK) done(tooLarge);
    });
    source.on('error', (err) => done(malformed(`upload interrupted: ${err.message}`)));
    source.pipe(bb);
  });
}
