// The gate's Host decisions: a remembered answer must be the answer, refusal or not; the API answers the Host names
// Vite's dev server does (IP literals, localhost and *.localhost, the --host value, --allowed-host names, any with
// `all`), case-insensitively, and refuses any other with a 403 naming the flag; every refusal is handed on for the
// journal and the terminal.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { FrontRefusal } from '../platform/record-refusals.ts';
import { createGate, type GateOptions } from './gate.ts';
import { parseAllowedHost } from './host-check.ts';

function call(
  gate: ReturnType<typeof createGate>,
  host: string | undefined,
  url = '/ext-api/v1/patients',
  extra: Record<string, string> = {},
) {
  let status = 0;
  let body = '';
  const headers: Record<string, string> = { ...(host === undefined ? {} : { host }), ...extra };
  const req = { url, method: 'GET', headers, httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1' }, resume() {} };
  const res = { writeHead: (s: number) => void (status = s), end: (b: string) => void (body = b) };
  const admitted = gate(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  return { admitted, status, body: body ? JSON.parse(body) : undefined, headers };
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
    const gate = createGate({ allowedHosts: ['.example'] });
    for (let i = 0; i < 600; i++) expect(call(gate, `h${i}.example:${i}`).admitted, String(i)).toBeDefined();
    for (let i = 0; i < 600; i++) expect(call(gate, `h${i}.example:${i}`).admitted, String(i)).toBeDefined();
    expect(call(gate, `${'a'.repeat(300)}.example`).admitted).toBeDefined();
    expect(call(gate, `${'a'.repeat(300)}.other`).status).toBe(403);
    expect(call(gate, `${'a'.repeat(300)} x`).status).toBe(400);
    expect(call(gate, 'bad host:1').status).toBe(400);
  });
});

describe('gate: which Host names the API answers', () => {
  const answered = (opts: GateOptions, host: string) => call(createGate(opts), host).admitted !== undefined;

  it('answers IP literals, localhost and *.localhost whatever the case, and the --host value', () => {
    for (const host of [
      '127.0.0.1:4010',
      '192.168.1.20:4010',
      '[::1]:4010',
      '[fe80::1]',
      'localhost',
      'LOCALHOST:4010',
      'app.localhost:5173',
      'localhost.:4010',
    ])
      expect(answered({}, host), host).toBe(true);
    expect(answered({ boundHost: 'devbox.lan' }, 'DevBox.LAN:4010')).toBe(true);
    expect(answered({ boundHost: '::1' }, '[::1]:4010')).toBe(true);
  });

  it('hands a Host on in lower case, the form the engine behind accepts', () => {
    const r = call(createGate(), 'LOCALHOST:4010');
    expect(r.admitted).toBeDefined();
    expect(r.headers.host).toBe('localhost:4010');
  });

  it('answers --allowed-host names (a leading dot: the name and every name under it), and any with all', () => {
    expect(answered({ allowedHosts: ['app.example.test'] }, 'App.Example.Test:4010')).toBe(true);
    expect(answered({ allowedHosts: ['app.example.test'] }, 'other.example.test:4010')).toBe(false);
    expect(answered({ allowedHosts: ['.example.test'] }, 'example.test')).toBe(true);
    expect(answered({ allowedHosts: ['.example.test'] }, 'a.b.example.test')).toBe(true);
    expect(answered({ allowedHosts: ['.example.test'] }, 'badexample.test')).toBe(false);
    expect(answered({ allowedHosts: ['all'] }, 'evil.example:4010')).toBe(true);
  });

  it('refuses another name with a 403 naming the flag, and hands the refusal on', () => {
    const refused: FrontRefusal[] = [];
    const gate = createGate({ onRefused: (r) => refused.push(r), rateHeaders: () => ({ 'X-RateLimit-Limit': '1' }) });
    const r = call(gate, 'Evil.Example:4010', '/ext-api/v1/patients?x=1', { 'x-api-key': 'crk_guess' });
    expect(r.status).toBe(403);
    expect(r.body.error).toContain('Host "evil.example:4010" is not allowed');
    expect(r.body.error).toContain('--allowed-host evil.example');
    expect(refused).toEqual([
      expect.objectContaining({
        method: 'GET',
        target: '/ext-api/v1/patients?x=1',
        status: 403,
        refusal: {
          by: 'host',
          reason: expect.stringMatching(/^Host "evil.example:4010" is not allowed: .*\(DNS rebinding protection\)$/),
          allow: '--allowed-host evil.example',
          subject: 'evil.example',
        },
      }),
    ]);
    expect(refused[0]!.headers['x-api-key']).toBe('crk_guess');
  });

  it('leaves the control API to its own, stricter rule: a foreign Host is refused there whatever --allowed-host says', () => {
    const refused: FrontRefusal[] = [];
    const gate = createGate({ allowedHosts: ['all'], onRefused: (r) => refused.push(r) });
    const r = call(gate, 'evil.example:4010', '/__mock/keys');
    expect(r.status).toBe(403);
    expect(r.body.error).toMatch(/control API answers only requests addressed to a loopback host/);
    expect(refused[0]!.refusal).toMatchObject({ by: 'front', subject: 'evil.example' });
    expect(call(gate, 'localhost:4010', '/__mock/keys', { origin: 'http://app.test' }).status).toBe(403);
    expect(refused[1]!.refusal).toMatchObject({ by: 'front', subject: 'http://app.test' });
  });

  it('hands on a bad target and a bad Host with the reason and no flag', () => {
    const refused: FrontRefusal[] = [];
    const gate = createGate({ onRefused: (r) => refused.push(r) });
    call(gate, 'localhost', 'nope');
    call(gate, 'a/b@c');
    expect(refused.map((r) => [r.status, r.refusal])).toEqual([
      [400, { by: 'front', reason: 'Bad request target: must be a path starting with / (or an absolute http URL)' }],
      [400, { by: 'front', reason: 'Bad Host header: is not a host name with an optional port' }],
    ]);
  });
});

describe('parseAllowedHost', () => {
  it('keeps names in the URL form, a leading dot and all; refuses ports, paths and empty names', () => {
    expect(['App.Example.Test', '.example.test', 'all', 'bücher.test'].map(parseAllowedHost)).toEqual([
      'app.example.test',
      '.example.test',
      'all',
      'xn--bcher-kva.test',
    ]);
    for (const bad of ['', '.', 'a:80', 'a/b', 'http://a', 'a b', '[::1']) expect(parseAllowedHost(bad), bad).toBeUndefined();
  });
});
