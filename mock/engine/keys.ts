// API keys: only their SHA-256 digests are kept; a presented key is hashed and its digest compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthInfo, SeedFile } from './deps.ts';

export type KeyState = SeedFile['keys'][number]['state'];

interface StoredKey {
  digest: Buffer;
  info: AuthInfo;
  state: KeyState;
}

export type KeyCheck = { ok: true; auth: AuthInfo } | { ok: false; reason: 'missing' | 'unknown' | 'expired' | 'revoked' };

export interface Keyring {
  check(raw: string | undefined): KeyCheck;
  /** Stable, non-secret identity of a presented key (its digest), for rate limiting. */
  digestOf(raw: string): string;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();

export function createKeyring(keys: SeedFile['keys']): Keyring {
  const byDigest = new Map<string, StoredKey>();
  for (const k of keys) {
    const digest = sha256(k.key);
    byDigest.set(digest.toString('hex'), {
      digest,
      state: k.state,
      info: { key_id: digest.toString('hex').slice(0, 16), organization_id: k.organization_id, provider_id: k.provider_id, scopes: Object.freeze([...k.scopes]) },
    });
  }
  return {
    digestOf: (raw) => sha256(raw).toString('hex'),
    check(raw) {
      if (!raw) return { ok: false, reason: 'missing' };
      const digest = sha256(raw);
      const stored = byDigest.get(digest.toString('hex'));
      if (!stored || !timingSafeEqual(stored.digest, digest)) return { ok: false, reason: 'unknown' };
      if (stored.state !== 'active') return { ok: false, reason: stored.state };
      return { ok: true, auth: stored.info };
    },
  };
}

/** `*` covers every scope. */
export function hasScope(granted: readonly string[], required: readonly string[]): boolean {
  return granted.includes('*') || required.every((s) => granted.includes(s));
}
