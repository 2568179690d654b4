// The upload judged on its recorded form, on exchanges written by hand: the raw multipart body as --upstream sees it
// (its size from the byte count), HAR's params, and what a recorder did not keep (not judged).
import { describe, expect, it } from 'vitest';
import { Contract } from '../spec/runtime/contract.ts';
import { Register } from '../spec/runtime/register.ts';
import { parseMultipart } from './multipart.ts';
import { judgeTraffic, trafficJudge, type RecordedExchange } from './traffic.ts';

const judge = trafficJudge(new Contract(), Register.load(), 'documented');
const json = { 'content-type': 'application/json', 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '1' };
const URL = 'http://127.0.0.1:4010/ext-api/v1/patients/12/documents';
const B = 'b0und';
const TYPE = `multipart/form-data; boundary=${B}`;
const DOC = { id: '3f1c2a9e-8b7d-4c6e-9a01-2b3c4d5e6f70', filename: 'a.pdf', status: 'pending', upload_date: '2026-01-01T00:00:00Z' };

/** A multipart body of text fields and one file (its content `file`), as the client sent it. */
const body = (fields: Record<string, string>, file?: { name: string; type: string; content: string }) =>
  Object.entries(fields)
    .map(([k, v]) => `--${B}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('') +
  (file
    ? `--${B}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.content}\r\n`
    : '') +
  `--${B}--\r\n`;

const sent = (text: string, status: number, answer: unknown, over: Partial<RecordedExchange> = {}): RecordedExchange => ({
  method: 'POST',
  url: URL,
  requestHeaders: { 'x-api-key': 'k', 'content-type': TYPE },
  requestBody: text,
  status,
  responseHeaders: json,
  responseBody: JSON.stringify(answer),
  ...over,
});
const rules = (rec: RecordedExchange) => new Set(judgeTraffic(rec, judge).violations.map((v) => v.ruleId));
const pdf = { name: 'a.pdf', type: 'application/pdf', content: '%PDF-1.4' };
const created = { data: DOC, message: 'Document uploaded; text extraction started' };

describe('the upload on its recorded form', () => {
  it('reads a raw multipart body: fields, the file part, its size from the bytes sent', () => {
    const text = body({ external_id: 'e1' }, pdf);
    expect(parseMultipart(TYPE, text, Buffer.byteLength(text) + 1000)).toEqual({
      fields: { external_id: 'e1' },
      file: { name: 'a.pdf', type: 'application/pdf', bytes: 1008, head: '%PDF-1.4' },
    });
    expect(parseMultipart('application/json', text)).toBeUndefined();
  });

  it('an accepted type refused 415 (DOC-010), a small file refused 413 (DOC-011)', () => {
    const text = body({}, pdf);
    expect(rules(sent(text, 415, { error: 'Unsupported' }))).toContain('DOC-010');
    expect(rules(sent(text, 413, { error: 'Too large' }, { requestBytes: Buffer.byteLength(text) }))).toContain('DOC-011');
    const other = body({}, { name: 'a.txt', type: 'text/plain', content: 'hi' });
    expect(rules(sent(other, 415, { error: 'Unsupported' })).has('DOC-010')).toBe(false);
    // Labelled a PDF, its bytes none: the server may refuse it.
    expect(rules(sent(body({}, { ...pdf, content: 'not a pdf' }), 415, { error: 'Unsupported' })).has('DOC-010')).toBe(false);
    // Its size not kept: a 413 is not judged.
    expect(rules(sent(text, 413, { error: 'Too large' })).has('DOC-011')).toBe(false);
  });

  it('a file past 10 MiB or of another type answered 2xx (LIM-001); a PDF under it, nothing', () => {
    const text = body({}, pdf);
    expect(rules(sent(text, 201, created, { requestBytes: 10_485_761 + Buffer.byteLength(text) }))).toContain('LIM-001');
    expect(rules(sent(body({}, { name: 'a.txt', type: 'text/plain', content: 'hi' }), 201, created))).toContain('LIM-001');
    expect(rules(sent(text, 201, created, { requestBytes: 10_000_000 }))).toEqual(new Set());
    // Labelled text, its bytes a PDF's: it is one.
    expect(rules(sent(body({}, { name: 'a.txt', type: 'text/plain', content: '%PDF-1.7' }), 201, created)).has('LIM-001')).toBe(false);
    // A generic part type named like a PDF is taken as one.
    expect(rules(sent(body({}, { ...pdf, type: 'application/octet-stream' }), 201, created)).has('LIM-001')).toBe(false);
  });

  it("the form's external_id: the document's (XID-012), within 1 to 255 characters (LIM-002)", () => {
    const withId = (id: string, answered: string | null) =>
      sent(body({ external_id: id }, pdf), 201, { ...created, data: { ...DOC, external_id: answered } });
    expect(rules(withId('e1', 'other'))).toContain('XID-012');
    expect(rules(withId('e1', 'e1'))).toEqual(new Set());
    expect(rules(withId('x'.repeat(256), 'x'.repeat(256)))).toContain('LIM-002');
  });

  it("the path's patient_id in the form refused 400 for it (XID-013); another patient's, not judged", () => {
    const refused = { error: 'Validation failed', details: { patient_id: 'unknown field' } };
    expect(rules(sent(body({ patient_id: '12' }, pdf), 400, refused))).toContain('XID-013');
    expect(rules(sent(body({ patient_id: '99' }, pdf), 400, refused)).has('XID-013')).toBe(false);
  });

  it("reads HAR's params (the mock's _bytes), and a body sent as JSON to the upload is GEN-007's", () => {
    const form = { fields: {}, file: { name: 'a.pdf', type: '', bytes: 20_000_000 } };
    expect(rules(sent('', 201, created, { requestBody: undefined, requestForm: form }))).toContain('LIM-001');
    const asJson = sent(
      '{"file":"x"}',
      400,
      { error: 'Validation failed', details: {} },
      {
        requestHeaders: { 'x-api-key': 'k', 'content-type': 'application/json' },
      },
    );
    expect(judgeTraffic(asJson, judge).violations.map((v) => `${v.side} ${v.ruleId}`)).toContain('request GEN-007');
  });
});
