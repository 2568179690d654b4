// Malformed and unusual multipart uploads through the running mock (Prism --strict in front, and engine-only): every
// refusal is the contract's 400 `{ error, details }` (never a 500 under --strict), names in UTF-8 or RFC 5987 form are
// kept exactly, and the file they name is served with a valid Content-Disposition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockMode, type RunningMock } from '../../server.ts';
import { makePdf } from './sample-files.ts';

const B = 'xxBOUNDARYxx';
const part = (headers: string, body: string | Buffer) =>
  Buffer.concat([Buffer.from(`--${B}\r\n${headers}\r\n\r\n`), Buffer.from(body), Buffer.from('\r\n')]);
const end = Buffer.from(`--${B}--\r\n`);
const filePart = (disposition: string, bytes: Buffer) =>
  part(`Content-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: application/pdf`, bytes);

describe.each<[MockMode, boolean]>([
  ['default', true],
  ['engine-only', false],
])('multipart uploads in %s mode (strict=%s)', (mode, strict) => {
  let m: RunningMock;
  const violations: string[] = [];
  let pdf: Buffer;
  beforeAll(async () => {
    m = await startMock({ port: 0, mode, strict, quiet: true, timeScale: 0.001, onViolation: (l) => violations.push(l) });
    pdf = Buffer.from(makePdf(['multipart test']));
  });
  afterAll(async () => {
    await m?.close();
    expect(violations).toEqual([]);
  });
  const patient = () =>
    (m.seed.patients as Array<{ id: string; organization_id: string }>).find((p) => p.organization_id === m.seed.organizations[0]!.id)!.id;
  const post = async (body: Buffer, type = `multipart/form-data; boundary=${B}`) => {
    const r = await fetch(`${m.url}/patients/${patient()}/documents`, {
      method: 'POST',
      headers: { 'x-api-key': m.seed.keys[0]!.key, 'content-type': type },
      body: new Uint8Array(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: r.status, body: await r.json() };
  };

  it('ERR-001 malformed bodies answer 400 with details: no boundary, truncated, 30 parts, a CR in the filename, two file parts', async () => {
    const many = Buffer.concat([...Array.from({ length: 30 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"`, 'x')), end]);
    const cases: Array<[string, Buffer, string?]> = [
      ['no boundary', Buffer.concat([filePart('filename="a.pdf"', pdf), end]), 'multipart/form-data'],
      ['truncated', Buffer.concat([filePart('filename="a.pdf"', pdf)]).subarray(0, 200)],
      ['30 parts', many],
      ['CR in the filename', Buffer.concat([filePart('filename="a\rb.pdf"', pdf), end])],
      ['two file parts', Buffer.concat([filePart('filename="a.pdf"', pdf), filePart('filename="b.pdf"', pdf), end])],
    ];
    for (const [what, body, type] of cases) {
      const r = await post(body, type);
      expect(r.status, what).toBe(400);
      expect(r.body, what).toEqual({ error: expect.any(String), details: expect.any(Object) });
      expect(Object.keys(r.body.details).length, what).toBeGreaterThan(0);
    }
    const twice = await post(Buffer.concat([filePart('filename="a.pdf"', pdf), filePart('filename="b.pdf"', pdf), end]));
    expect(twice.body.details).toEqual({ file: 'sent more than once' });
  });

  it('an RFC 5987 filename* and a plain UTF-8 filename are kept exactly; public_url serves the file with both forms', async () => {
    const name = '文😀.pdf';
    for (const disposition of [`filename*=UTF-8''${encodeURIComponent(name)}`, `filename="${name}"`]) {
      const r = await post(Buffer.concat([filePart(disposition, pdf), end]));
      expect(r.status, disposition).toBe(201);
      expect(r.body.data.filename).toBe(name);
      const file = await fetch(r.body.data.public_url);
      expect(file.status).toBe(200);
      const cd = file.headers.get('content-disposition')!;
      expect(cd).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
      expect(cd).toMatch(/filename="[\x20-\x7e]+"/);
      expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);
    }
  });
});
