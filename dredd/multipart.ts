// multipart/form-data bodies for the upload operation, built as bytes (Dredd sends a Buffer body as is).
import { randomBytes } from 'node:crypto';
import { uploadMaxBytes } from '../generated/spec-values.ts';

type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };

function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `dredd-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = 'filename' in p ? `form-data; name="${p.name}"; filename="${p.filename}"` : `form-data; name="${p.name}"`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${'filename' in p ? `Content-Type: ${p.type}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), 'filename' in p ? p.data : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A 1x1 PNG: an accepted file type, identified by its content. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/**
 * The upload form: `png` an accepted file, `text` a type the upload does not accept, `oversized` a PNG one byte
 * over the spec's x-max-bytes, `none` no file part at all (a validation failure).
 */
export type UploadFile = 'png' | 'text' | 'oversized' | 'none';

export function uploadForm(externalId: string, file: UploadFile = 'png'): { body: Buffer; contentType: string } {
  const png = Buffer.from(PNG_1X1, 'base64');
  const parts: Part[] = [];
  if (file === 'png') parts.push({ name: 'file', filename: 'dredd.png', type: 'image/png', data: png });
  if (file === 'text')
    parts.push({
      name: 'file',
      filename: 'dredd.txt',
      type: 'text/plain',
      data: Buffer.from('plain text is not an accepted document type\n'),
    });
  if (file === 'oversized')
    parts.push({
      name: 'file',
      filename: 'dredd-large.png',
      type: 'image/png',
      data: Buffer.concat([png, Buffer.alloc(uploadMaxBytes + 1 - png.length)]),
    });
  parts.push({ name: 'external_id', value: externalId });
  return multipart(parts);
}
