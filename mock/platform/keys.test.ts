// The keyring: a presented key's digest is computed once and kept (bounded), and the answers stay those of the digest.
import { describe, expect, it } from 'vitest';
import { nodeRuntime } from '../runtime/node.ts';
import { createKeyring } from './keys.ts';

describe('the keyring', () => {
  const counted = () => {
    const calls: string[] = [];
    const sha = (s: string) => (calls.push(s), nodeRuntime.sha256Hex(s));
    const keyring = createKeyring(
      [
        { key: 'k-live', organization_id: 'o', provider_id: 'p', scopes: ['*'], state: 'active' },
        { key: 'k-old', organization_id: 'o', provider_id: 'p', scopes: ['*'], state: 'revoked' },
      ],
      sha,
    );
    calls.length = 0; // the seed's own keys
    return { keyring, calls };
  };

  it('hashes a key presented again only once, with the same answers', () => {
    const { keyring, calls } = counted();
    for (let i = 0; i < 3; i++) {
      expect(keyring.check('k-live')).toMatchObject({ ok: true, auth: { organization_id: 'o' } });
      expect(keyring.check('k-old')).toMatchObject({ ok: false, reason: 'revoked' });
      expect(keyring.check('nope')).toEqual({ ok: false, reason: 'unknown' });
    }
    expect(keyring.check(undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(calls).toEqual(['k-live', 'k-old', 'nope']);
  });

  it('keeps a bounded number of digests, and none of a long string', () => {
    const { keyring, calls } = counted();
    for (let i = 0; i < 1000; i++) keyring.check(`guess-${i}`);
    keyring.check('guess-0');
    expect(calls.length).toBe(1001); // guess-0 was dropped when the cache emptied
    const long = 'x'.repeat(500);
    keyring.check(long);
    keyring.check(long);
    expect(calls.filter((s) => s === long).length).toBe(2);
  });
});
