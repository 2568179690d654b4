// GET /__mock/requests.har outside --upstream: the journal as HAR 1.2, oldest first, with what the journal keeps (the
// request's headers and body, an upload's form, the answer's headers, an error's body), keys redacted, and the
// journal's filters; a bad filter is a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../documents/sample-files.ts';
import { startMock, type RunningMock } from '../../server.ts';

describe('the journal as HAR', () => {
  let m: RunningMock;
  beforeAll(async () => {
    m = await startMock({ mode: 'engine-only', port: 0, quiet: true });
  });
  afterAll(() => m?.close());

  it('lists each kept request as a HAR entry, keys redacted', async () => {
    const key = m.keys.find((k) => k.label === 'all')!.key;
    await fetch(`${m.url}/patients?limit=2`, { headers: { 'x-api-key': key } });
    const body = JSON.stringify({ first_name: 'Ada', note: key, colour: 'green' });
    await fetch(`${m.url}/patients`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body,
    });
    const r = await fetch(`${m.controlUrl}/requests.har`);
    expect(r.headers.get('content-disposition')).toContain('.har');
    const text = await r.text();
    expect(text).not.toContain(key);
    const { log } = JSON.parse(text);
    expect(log.version).toBe('1.2');
    expect(log.entries.map((e: any) => `${e.request.method} ${e.request.url} ${e.response.status}`)).toEqual([
      `GET ${m.url}/patients?limit=2 200`,
      `POST ${m.url}/patients 400`,
    ]);
    const [list, post] = log.entries;
    expect(list.request.queryString).toEqual([{ name: 'limit', value: '2' }]);
    expect(list.response.content).toEqual({ size: 0, mimeType: '' });
    expect(post.request.postData).toMatchObject({ mimeType: 'application/json', text: expect.stringContaining('[redacted key]') });
    expect(JSON.parse(post.response.content.text)).toMatchObject({ details: { colour: expect.any(String) } });
    expect(post._key).toBe('all');

    const only = JSON.parse(await (await fetch(`${m.controlUrl}/requests.har?status=4xx`)).text());
    expect(only.log.entries).toHaveLength(1);
    expect((await fetch(`${m.controlUrl}/requests.har?status=abc`)).status).toBe(400);
  });

  it('keeps what other readers need: request headers (keys masked), the answer headers, an upload as multipart', async () => {
    const key = m.keys.find((k) => k.label === 'all')!.key;
    const list = await (await fetch(`${m.url}/patients?limit=1`, { headers: { 'x-api-key': key } })).json();
    const patientId = list.data[0].id as string;
    const form = new FormData();
    form.set('external_id', 'har-upload-1');
    form.set('file', new Blob([makePdf(['HAR']) as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'scan 1.pdf');
    const upload = await fetch(`${m.url}/patients/${patientId}/documents`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
    expect(upload.status).toBe(201);
    const text = await (await fetch(`${m.controlUrl}/requests.har?path=/documents`)).text();
    expect(text).not.toContain(key);
    const [entry] = JSON.parse(text).log.entries;
    const header = (list: Array<{ name: string; value: string }>, name: string) => list.find((h) => h.name === name)?.value;
    expect(header(entry.request.headers, 'x-api-key')).toBe('[redacted]');
    expect(header(entry.request.headers, 'content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(header(entry.response.headers, 'content-type')).toMatch(/^application\/json/);
    expect(header(entry.response.headers, 'x-ratelimit-remaining')).toMatch(/^\d+$/);
    const { postData } = entry.request;
    expect(postData.mimeType).toBe(header(entry.request.headers, 'content-type'));
    expect(postData.params).toEqual([
      { name: 'external_id', value: 'har-upload-1' },
      { name: 'file', fileName: 'scan 1.pdf', _bytes: expect.any(Number) },
    ]);
    const boundary = postData.mimeType.split('boundary=')[1];
    expect(postData.text).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="external_id"\r\n\r\nhar-upload-1\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan 1.pdf"\r\n\r\n\r\n--${boundary}--\r\n`,
    );
    expect(postData.comment).toMatch(/the file's \d+ bytes are not kept/);
  });
});
