// A JSON body's integer past 2^53-1 is refused with 400 naming its field, as the same integer in a query is: read as
// a double it would be stored as another number (9007199254740993 as ...992). So is a string past the mock's bound
// (MAX_STRING_CHARS): rows are held in memory and written whole into every page that lists them.
import { describe, expect, it } from 'vitest';
import { createMock } from '../in-process/node.ts';
import { MAX_STRING_CHARS, outOfBounds } from './value-bounds.ts';

describe('integers past 2^53-1 in a JSON body', () => {
  it('are found wherever they sit, written in full or with an exponent', () => {
    const text = '{"a":9007199254740993,"b":[1,{"c":-9007199254740993}],"d":9007199254740991,"e":1e300,"f":"9007199254740993"}';
    expect(outOfBounds(text, JSON.parse(text))).toEqual({
      a: expect.stringMatching(/^must be an integer from -9007199254740991 to 9007199254740991$/),
      'b.1.c': expect.any(String),
      e: expect.any(String),
    });
    expect(outOfBounds('{"a":12,"b":"x"}', { a: 12, b: 'x' })).toBeUndefined();
  });

  it('are answered 400 with details by the API; 2^53-1 itself is stored exactly', async () => {
    const mock = await createMock();
    try {
      const key = mock.keys.find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
      const call = (method: string, path: string, text?: string) =>
        mock.fetch(`${mock.baseUrl}${path}`, {
          method,
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          ...(text === undefined ? {} : { body: text }),
        });
      const patient = (await (await call('GET', '/patients?limit=1')).json()).data[0];
      const create = (minutes: string) =>
        call('POST', '/appointments', `{"patient_id":"${patient.id}","start_at":"2031-05-01T10:00:00Z","duration_minutes":${minutes}}`);
      const refused = await create('9007199254740993');
      expect(refused.status).toBe(400);
      expect((await refused.json()).details).toEqual({ duration_minutes: expect.stringMatching(/^must be an integer from/) });
      const created = await create('9007199254740991');
      expect(created.status).toBe(201);
      const { data } = await created.json();
      expect(data.duration_minutes).toBe(Number.MAX_SAFE_INTEGER);
      const patch = await call('PATCH', `/appointments/${data.id}`, '{"duration_minutes":1.2e17}');
      expect(patch.status).toBe(400);
      expect(Object.keys((await patch.json()).details)).toEqual(['duration_minutes']);
    } finally {
      await mock.close();
    }
  });
});

describe('strings past the mock bound in a JSON body', () => {
  it('are found in nested fields; a string at the bound passes', () => {
    const at = 'x'.repeat(MAX_STRING_CHARS);
    const body = { name: `${at}y`, address: { line1: `${at}z`, city: at }, ok: 'short' };
    const text = JSON.stringify(body);
    expect(outOfBounds(text, body)).toEqual({
      name: `must be at most ${MAX_STRING_CHARS} characters (a bound of the mock: the source gives none)`,
      'address.line1': expect.any(String),
    });
    expect(outOfBounds(JSON.stringify({ name: at }), { name: at })).toBeUndefined();
  });

  it('are answered 400 by the API, so a 1 MB name is never stored, listed or held', async () => {
    const mock = await createMock();
    try {
      const key = mock.keys.find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
      const create = (first_name: string) =>
        mock.fetch(`${mock.baseUrl}/patients`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ first_name, last_name: 'Long' }),
        });
      const refused = await create('x'.repeat(1_000_000));
      expect(refused.status).toBe(400);
      expect((await refused.json()).details).toEqual({ first_name: expect.stringMatching(/^must be at most 10000 characters/) });
      expect((await create('x'.repeat(MAX_STRING_CHARS))).status).toBe(201);
    } finally {
      await mock.close();
    }
  });
});
