import { describe, expect, it } from 'vitest';
import { controlRefusal, isControlPath, isLoopback, isLoopbackHost, isLoopbackOrigin } from './loopback.ts';

describe('control API peers', () => {
  it('accepts loopback peers only', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true);
    for (const a of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', 'fe80::1', '', undefined]) expect(isLoopback(a)).toBe(false);
  });
  it('accepts loopback host names and the --host value only (DNS rebinding)', () => {
    for (const h of ['localhost', 'LOCALHOST:4010', '127.0.0.1:4010', '127.9.9.9', '[::1]:4010', '[::1]'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of [
      'evil.example',
      'evil.example:4010',
      '127.0.0.1.nip.io',
      'localhost.evil.example',
      '10.0.0.5:4010',
      '',
      undefined,
      'a b',
      '127.0.0.1:4010/x',
    ])
      expect(isLoopbackHost(h), String(h)).toBe(false);
    expect(isLoopbackHost('10.0.0.5:4010', '10.0.0.5')).toBe(true);
    expect(isLoopbackHost('[fd00::5]:4010', 'fd00::5')).toBe(true);
  });
  it('accepts loopback page origins only', () => {
    for (const o of ['http://localhost:5173', 'https://127.0.0.1', 'http://[::1]:3000']) expect(isLoopbackOrigin(o), o).toBe(true);
    for (const o of ['https://evil.example', 'null', 'http://localhost.evil.example', 'file://'])
      expect(isLoopbackOrigin(o), o).toBe(false);
  });
  it('one decision: peer, then Host, then Origin', () => {
    const ok = { peer: '127.0.0.1', host: 'localhost:4010', origin: undefined };
    expect(controlRefusal(ok)).toBeUndefined();
    expect(controlRefusal({ ...ok, peer: '203.0.113.9' })).toMatch(/loopback clients only/);
    expect(controlRefusal({ ...ok, host: 'evil.example:4010' })).toMatch(/Host "evil.example:4010"/);
    expect(controlRefusal({ ...ok, origin: 'https://evil.example' })).toMatch(/other origins/);
    expect(controlRefusal({ ...ok, origin: 'http://localhost:5173' })).toBeUndefined();
  });
  it('knows the control paths', () => {
    for (const p of ['/__mock', '/__mock/keys']) expect(isControlPath(p)).toBe(true);
    for (const p of ['/__mockery', '/ext-api/v1/__mock', '//__mock/keys']) expect(isControlPath(p)).toBe(false);
  });
});
