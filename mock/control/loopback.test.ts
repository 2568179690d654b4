import { describe, expect, it } from 'vitest';
import { isLoopback } from './loopback.ts';

describe('control API peers', () => {
  it('accepts loopback peers only', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true);
    for (const a of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', 'fe80::1', '', undefined]) expect(isLoopback(a)).toBe(false);
  });
});
