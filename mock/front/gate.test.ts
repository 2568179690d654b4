// The gate remembers the Host values it has checked: a remembered answer must be the answer, refusal or not.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createGate } from './gate.ts';

function call(gate: ReturnType<typeof createGate>, host: string | undefined, url = '/ext-api/v1/patients') {
  let status = 0;
  let body = '';
  const req = { url, headers: host === undefined ? {} : { host }, httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1' }, resume() {} };
  const res = { writeHead: (s: number) => void (status = s), end: (b: string) => void (body = b) };
  const admitted = gate(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  return { admitted, status, body: body ? JSON.parse(body) : undefined };
}

describe('gate: Host checks', () => {
  it('refuses a bad Host every time it is sent, and admits a good one every time', () => {
    const gate = createGate();
    for (let i = 0; i < 3; i++) {
      expect(call(gate, 'bad host:1')).toMatchObject({ admitted: undefined, status: 400, body: { error: 'Bad Host header' } });
      expect(call(gate, '127.0.0.1:4010').admitted).toMatchObject({ path: '/ext-api/v1/patients', control: false });
    }
    expect(call(gate, undefined)).toMatchObject({ status: 400, body: { details: { host: 'is required' } } });
  });
  it('gives the same answers past the bound on remembered values, and for very long values', () => {
    const gate = createGate();
    for (let i = 0; i < 600; i++) expect(call(gate, `h${i}.example:${i}`).admitted, String(i)).toBeDefined();
    expect(call(gate, `${'a'.repeat(300)}.example`).admitted).toBeDefined();
    expect(call(gate, `${'a'.repeat(300)} x`).status).toBe(400);
    expect(call(gate, 'bad host:1').status).toBe(400);
  });
});
