// The upload reader where there is no busboy (a page, any fetch-only host): the body is read up to the limit plus
// framing (no further), then parsed by the platform's own Request.formData(). Same limits and answers as the busboy
// reader (upload.ts) for the same forms; the platform's parser decides what is malformed.
import type { FieldErrors } from '../../platform/deps.ts';
import type { ParsedUpload } from './io.ts';
import { FRAMING_SLACK, LIMITS, malformed, precheck, tooLargeUpload } from './upload-form.ts';

/** The whole body, or undefined past `limit` bytes (the rest is not read). */
async function readBounded(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) out.set(c, (at += c.byteLength) - c.byteLength);
  return out;
}

export async function readUploadWeb(req: Request, maxBytes: number, fileField = 'file'): Promise<ParsedUpload> {
  const refused = precheck(req, maxBytes, fileField);
  if (refused) return refused;
  const type = req.headers.get('content-type')!;
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  try {
    bytes = await readBounded(req.body!, maxBytes + FRAMING_SLACK);
  } catch (e) {
    return malformed(`upload interrupted: ${(e as Error).message}`);
  }
  if (!bytes) return tooLargeUpload(maxBytes);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
  } catch (e) {
    return malformed((e as Error).message || 'the multipart body could not be parsed');
  }

  const entries = [...form.entries()];
  const files = entries.filter(([, v]) => typeof v !== 'string').length;
  // In the order busboy reaches its limits: the file or field count first, the part count after.
  if (files > LIMITS.files) return malformed(`too many file parts: at most ${LIMITS.files}`);
  if (entries.length - files > LIMITS.fields) return malformed(`too many fields: at most ${LIMITS.fields}`);
  if (entries.length > LIMITS.parts) return malformed(`too many parts: at most ${LIMITS.parts}`);
  const fields: Record<string, string> = {};
  const details: FieldErrors = {};
  let file: File | undefined;
  for (const [name, value] of entries) {
    if (typeof value !== 'string') {
      if (name !== fileField) details[name] = 'unknown field';
      else if (file) details[name] = 'sent more than once';
      else file = value;
    } else if (name === fileField) details[name] = 'must be a file part';
    else if (name in fields) details[name] = 'sent more than once';
    else if (value.length > LIMITS.fieldSize) details[name] = 'too long';
    else fields[name] = value;
  }
  if (file && file.size > maxBytes) return tooLargeUpload(maxBytes);
  if (Object.keys(details).length) return { ok: false, status: 400, message: 'Validation failed', details };
  return {
    ok: true,
    fields,
    ...(file ? { file: { bytes: new Uint8Array(await file.arrayBuffer()), filename: file.name || 'upload' } } : {}),
  };
}
