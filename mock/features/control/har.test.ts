// GET /__mock/requests.har outside --upstream: the journal as HAR 1.2, oldest first, with what the journal keeps (the
// request body, an error's body), keys redacted, and the journal's filters; a bad filter is a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
