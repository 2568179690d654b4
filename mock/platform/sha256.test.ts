// The page's SHA-256 agrees with node:crypto on the test vectors and on key-like and multi-block, non-ASCII input.
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { sha256Hex } from './sha256.ts';

it('matches FIPS 180-4 vectors and node:crypto', () => {
  expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  for (const s of ['crk_test_0123456789abcdef', 'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(64), 'é€😀'.repeat(40)])
    expect(sha256Hex(s)).toBe(createHash('sha256').update(s, 'utf8').digest('hex'));
});
