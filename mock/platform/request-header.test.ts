import { describe, expect, it } from 'vitest';
import { requestHeader } from './request-header.ts';

describe('requestHeader', () => {
  it("reads through the adapter's header() when it has one, not the web request", () => {
    const c = { env: { header: (n: string) => (n === 'x-api-key' ? 'crk_a' : undefined) }, req: { header: () => 'not read' } };
    expect(requestHeader(c, 'x-api-key')).toBe('crk_a');
    expect(requestHeader(c, 'origin')).toBeUndefined();
  });
  it('falls back to the web request without an adapter (app.fetch alone) or one without header()', () => {
    const req = { header: (n: string) => (n === 'origin' ? 'http://x' : undefined) };
    expect(requestHeader({ env: undefined, req }, 'origin')).toBe('http://x');
    expect(requestHeader({ env: { peer: '127.0.0.1' }, req }, 'origin')).toBe('http://x');
  });
});
