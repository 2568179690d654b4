// The page's upload reader (Request.formData()) answers as the busboy reader does for the same forms: the file and
// its fields, each refusal with its status and details, the size limit without reading past it.
import { describe, expect, it } from 'vitest';
import { readUpload } from './upload.ts';
import { readUploadWeb } from './upload-web.ts';

const B = 'xxBOUNDARYxx';
const enc = new TextEncoder();
const part = (headers: string, body: string | Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer>[] => [
  enc.encode(`--${B}\r\n${headers}\r\n\r\n`),
  typeof body === 'string' ? enc.encode(body) : body,
  enc.encode('\r\n'),
];
const file = (name: string, bytes: Uint8Array<ArrayBuffer>, filename = 'a.pdf') =>
  part(`Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/pdf`, bytes);
const field = (name: string, value: string) => part(`Content-Disposition: form-data; name="${name}"`, value);
const form = (...parts: Uint8Array<ArrayBuffer>[][]) => new Blob([...parts.flat(), enc.encode(`--${B}--\r\n`)]);
const request = (body: Blob | null, type = `multipart/form-data; boundary=${B}`) =>
  new Request('http://127.0.0.1/x', { method: 'POST', headers: { 'content-type': type }, ...(body ? { body } : {}) });
const pdf = enc.encode('%PDF-1.4 tiny');

const cases: Array<[string, () => Request]> = [
  ['a file and a field', () => request(form(file('file', pdf), field('external_id', 'ext-1')))],
  ['a name in UTF-8', () => request(form(file('file', pdf, 'Überweisung.pdf')))],
  ['two file parts', () => request(form(file('file', pdf), file('file', pdf)))],
  ['a file under another name', () => request(form(file('attachment', pdf), file('file', pdf)))],
  ['a text part named file', () => request(form(field('file', 'not a file')))],
  ['a field twice', () => request(form(file('file', pdf), field('external_id', 'a'), field('external_id', 'b')))],
  ['a field too long', () => request(form(file('file', pdf), field('external_id', 'x'.repeat(5000))))],
  ['30 parts', () => request(form(...Array.from({ length: 30 }, (_, i) => field(`f${i}`, 'x'))))],
  ['a file past the limit', () => request(form(file('file', new Uint8Array(2048))))],
  ['another content type', () => request(form(file('file', pdf)), 'application/json')],
  ['no body', () => request(null)],
];

describe('the upload reader of a page', () => {
  it.each(cases)('answers as busboy does: %s', async (_name, make) => {
    const [node, web] = [await readUpload(make(), 1024), await readUploadWeb(make(), 1024)];
    expect(web).toEqual(node);
  });

  it('stops reading past the limit plus framing', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const req = new Request('http://127.0.0.1/x', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${B}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(await readUploadWeb(req, 1024)).toMatchObject({ ok: false, status: 413 });
    expect(pulled).toBeLessThan(4);
  });
});
