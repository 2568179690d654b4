import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { NodeEnv, rawHeader } from './node-env.ts';

describe('request headers from the raw list', () => {
  const raw = [
    'Host',
    '127.0.0.1:4010',
    'X-API-Key',
    'crk_a',
    'Content-Type',
    'application/json',
    'x-api-key',
    'crk_b',
    'Origin',
    'http://localhost:5173',
  ];
  it('answer what web Headers.get answers for the same fields, without building one', () => {
    const web = new Headers(Array.from({ length: raw.length / 2 }, (_, i) => [raw[2 * i]!, raw[2 * i + 1]!] as [string, string]));
    for (const name of ['host', 'x-api-key', 'content-type', 'origin', 'x-mock-fault-scope'])
      expect(rawHeader(raw, name), name).toBe(web.get(name) ?? undefined);
    expect(rawHeader(raw, 'x-api-key')).toBe('crk_a, crk_b');
  });
  it("are what NodeEnv hands the engine as the adapter's header()", () => {
    const env = new NodeEnv({ rawHeaders: raw } as unknown as IncomingMessage, {} as ServerResponse);
    expect(env.header('origin')).toBe('http://localhost:5173');
    expect(env.header('x-mock-fault-scope')).toBeUndefined();
    const web = new Headers(Array.from({ length: raw.length / 2 }, (_, i) => [raw[2 * i]!, raw[2 * i + 1]!] as [string, string]));
    expect(env.allHeaders()).toEqual(Object.fromEntries(web));
  });
});
