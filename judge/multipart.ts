// A recorded multipart/form-data request body read back into its form: the text fields, and the file part's name,
// type and size. The size is known only when the recorder kept the body's byte count: a body kept as text may have
// lost bytes of the file in decoding, but the rest of it (boundaries, part headers, text fields) is the bytes it was.
import type { SentRequest } from './define.ts';

export type RecordedForm = NonNullable<SentRequest['form']>;

/** A Content-Disposition or Content-Type parameter (`name="file"`), unquoted. */
const param = (header: string, name: string) =>
  new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${name}=([^;\\s]+)`, 'i').exec(header);
const paramOf = (header: string, name: string) => {
  const m = param(header, name);
  return m ? (m[1] ?? m[2]) : undefined;
};

/**
 * The form a multipart body holds, or undefined when `contentType` is not multipart/form-data with a boundary or the
 * body is not one. `bytes`: the body's size as sent, when the recorder kept it.
 */
export function parseMultipart(contentType: string | undefined, text: string, bytes?: number): RecordedForm | undefined {
  if (!/^multipart\/form-data/i.test(contentType?.trim() ?? '')) return undefined;
  const boundary = paramOf(contentType!, 'boundary');
  if (!boundary) return undefined;
  const chunks = text.split(`--${boundary}`);
  if (chunks.length < 3) return undefined;
  const fields: Record<string, string> = {};
  let file: RecordedForm['file'];
  let fileText: string | undefined;
  for (const chunk of chunks.slice(1, -1)) {
    const part = chunk.replace(/^\r\n/, '').replace(/\r\n$/, '');
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const body = part.slice(split + 4);
    const disposition = /^content-disposition:(.*)$/im.exec(head)?.[1] ?? '';
    const name = paramOf(disposition, 'name');
    const filename = paramOf(disposition, 'filename');
    if (!name) continue;
    if (filename === undefined) {
      fields[name] = body;
      continue;
    }
    file = { name: filename, type: (/^content-type:(.*)$/im.exec(head)?.[1] ?? '').trim().toLowerCase(), head: body.slice(0, 8) };
    fileText = body;
  }
  if (file && fileText !== undefined && bytes !== undefined) {
    // Everything but the file's content is text as sent: the file is what remains of the body's bytes.
    const size = bytes - (Buffer.byteLength(text) - Buffer.byteLength(fileText));
    if (size >= 0) file.bytes = size;
  }
  return { fields, ...(file ? { file } : {}) };
}
