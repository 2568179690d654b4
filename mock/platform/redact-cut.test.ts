// Keys are redacted as if before the journal cut a body at 4 KB (issue 42, item 8): a seed key, a key-shaped word and
// a key-named field's value that straddle the cut leave nothing of themselves in what GET /__mock/requests shows
// (before, up to 15 of a key's 24 characters stayed: what was left no longer looked like a key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type InProcessMock } from '../in-process/node.ts';
import { JOURNAL_BODY_BYTES } from './journal-entry.ts';
import { createRedactor, REDACTED, redactCut } from './redact.ts';

describe('redactCut', () => {
  const redact = createRedactor(['crk_all_0123456789abcdef01234567']);
  it('removes a key-shaped word touching the end, and a key-named value left open', () => {
    expect(redactCut('{"note":"see crk_all_0123456', redact)).toBe(`{"note":"see ${REDACTED}`);
    expect(redactCut('{"x":1,"api_key":"hunter2-hunt', redact)).toBe(`{"x":1,"api_key":"${REDACTED}`);
    expect(redactCut('{"first_name":"Ada","last', redact)).toBe('{"first_name":"Ada","last');
    expect(redactCut('{"first_name":"Ada"}', redact)).toBe('{"first_name":"Ada"}');
  });
});

describe('the journal shows no part of a key a 4 KB cut went through', () => {
  let mock: InProcessMock;
  beforeAll(async () => {
    mock = await createMock();
  });
  afterAll(async () => {
    await mock.close();
  });

  /** A JSON body whose `field` value starts `before` characters before the cut. */
  const straddling = (field: string, value: string, before: number) => {
    const around = (x: string) => `{"pad":"${x}","${field}":"`;
    const start = around('x'.repeat(JOURNAL_BODY_BYTES - before - around('').length));
    expect(start.length).toBe(JOURNAL_BODY_BYTES - before);
    return `${start}${value}","more":"${'y'.repeat(200)}"}`;
  };

  it.each([
    ['a seed key', 'note', () => mock.keys.find((k) => k.scopes.includes('*'))!.key],
    ['a key-shaped word', 'note', () => 'zz_abcdefghijklmnop0123456789'],
    ['a key-named field', 'api_key', () => 'hunter2-hunter2-hunter2-hunter2'],
  ])('%s', async (_what, field, secret) => {
    const value = secret();
    const key = mock.keys.find((k) => k.scopes.includes('*'))!.key;
    const body = straddling(field, value, 15);
    const r = await mock.fetch(`${mock.baseUrl}/patients`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body,
    });
    expect(r.status).toBe(400);
    const shown = (
      (await (await mock.fetch(`${mock.controlUrl}/requests?limit=1`)).json()) as {
        data: Array<{ request: { body: string; truncated: boolean } }>;
      }
    ).data[0]!.request;
    expect(shown.truncated).toBe(true);
    expect(shown.body.endsWith(REDACTED)).toBe(true);
    for (let n = 4; n <= 15; n++)
      expect(shown.body, `${n} characters of it`).not.toContain(value.slice(0, n).slice(-4) + value.slice(4, n));
    expect(shown.body).not.toContain(value.slice(0, 10));
  });
});
