// API keys: only their SHA-256 digests are kept; a presented key is hashed (once per request) and looked up by its
// digest, then compared in constant time. Lookup by digest leaks nothing about the secret: timing can only depend on
// the digest, which an attacker cannot steer towards a stored one.
import { hash, timingSafeEqual } from 'node:crypto';
import type { AuthInfo, SeedFile } from './deps.ts';

type KeyState = SeedFile['keys'][number]['state'];

interface StoredKey {
  digest: Buffer;
  info: AuthInfo;
  state: KeyState;
}

export type KeyCheck = { ok: true; auth: AuthInfo } | { ok: false; reason: 'missing' | 'unknown' | 'expired' | 'revoked' };

export interface Keyring {
  /** One hash per call; the pipeline calls it once per request and keeps the result (rate limit, then auth). */
  check(raw: string | undefined): KeyCheck;
}

const sha256 = (s: string) => hash('sha256', s, 'hex');
const MISSING: KeyCheck = Object.freeze({ ok: false, reason: 'missing' });
const UNKNOWN: KeyCheck = Object.freeze({ ok: false, reason: 'unknown' });

export function createKeyring(keys: SeedFile['keys']): Keyring {
  const byDigest = new Map<string, StoredKey & { result: KeyCheck }>();
  for (const k of keys) {
    const hex = sha256(k.key);
    const info: AuthInfo = {
      key_id: hex.slice(0, 16),
      organization_id: k.organization_id,
      provider_id: k.provider_id,
      scopes: Object.freeze([...k.scopes]),
    };
    const result: KeyCheck = Object.freeze(
      k.state === 'active' ? { ok: true as const, auth: info } : { ok: false as const, reason: k.state },
    );
    byDigest.set(hex, { digest: Buffer.from(hex, 'latin1'), state: k.state, info, result });
  }
  const checkDigest = (hex: string): KeyCheck => {
    const stored = byDigest.get(hex);
    if (!stored || !timingSafeEqual(stored.digest, Buffer.from(hex, 'latin1'))) return UNKNOWN;
    return stored.result;
  };
  return { check: (raw) => (raw ? checkDigest(sha256(raw)) : MISSING) };
}

/** `*` covers every scope. */
export function hasScope(granted: readonly string[], required: readonly string[]): boolean {
  return granted.includes('*') || required.every((s) => granted.includes(s));
}
