// What both upload readers (busboy in Node: upload.ts; Request.formData() in a page: upload-web.ts) decide alike: the
// form's limits, the refusals before reading, and the shape of a malformed-body answer.
import type { ParsedUpload } from './io.ts';

/** Limits of the form around the file (the file's own is maxBytes). */
export const LIMITS = { fieldSize: 4096, fields: 20, files: 5, parts: 25 };

/** Multipart framing and the small text fields around the file. */
export const FRAMING_SLACK = 64 * 1024;

export const malformed = (reason: string): ParsedUpload => ({
  ok: false,
  status: 400,
  message: 'Malformed multipart body',
  details: { body: reason },
});

export const tooLargeUpload = (maxBytes: number) =>
  ({ ok: false, status: 413, message: `File too large: the limit is ${maxBytes} bytes` }) as const;

/** 415 for another type, 413 for a declared length far past the limit (nothing read), 400 with no body; else undefined. */
export function precheck(req: Request, maxBytes: number, fileField: string): ParsedUpload | undefined {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type))
    return { ok: false, status: 415, message: 'Unsupported Content-Type: expected multipart/form-data' };
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes + FRAMING_SLACK) return tooLargeUpload(maxBytes);
  if (!req.body) return { ok: false, status: 400, message: 'Validation failed', details: { [fileField]: 'is required' } };
  return undefined;
}
