// API keys: only their SHA-256 digests are kept; a presented key is hashed (its digest cached for the next request
// presenting it) and looked up by its digest, then compared in constant time. Lookup by digest leaks nothing about the secret: timing can only depend on
// the digest, which an attacker cannot steer towards a stored one. The hash function is the runtime's (node:crypto in
// Node, a small synchronous SHA-256 in a page: mock/runtime/), so the check stays synchronous everywhere.
import type { AuthInfo, SeedFile } from './deps.ts';

/** Lower-case hex SHA-256 of a string's UTF-8 bytes, synchronously. */
export type Sha256Hex = (text: string) => string;

type KeyState = SeedFile['keys'][number]['state'];

interface StoredKey {
  digest: string;
  info: AuthInfo;
  state: KeyState;
}

/** Whose key it is, as the request journal shows it: the seed's label (or `key <id>`), never the key itself. */
interface KeyOwner {
  label: string;
  organization_id: string;
}

export type KeyCheck =
  | { ok: true; auth: AuthInfo; owner: KeyOwner }
  | { ok: false; reason: 'missing' | 'unknown' | 'expired' | 'revoked'; owner?: KeyOwner };

export interface Keyring {
  /** At most one hash per call (none for a key presented recently); checkKey (auth.ts) calls it once per request, rate limit and auth read the result. */
  check(raw: string | undefined): KeyCheck;
}

/** Compares two strings of equal length in time that depends on the length only. */
function equalConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
/** Presented keys whose digests are kept (keyring.check). */
const DIGEST_CACHE_SIZE = 256;
/** Longer strings are hashed every time rather than held (the service's keys are ~40 characters). */
const MAX_CACHED_KEY = 200;
const MISSING: KeyCheck = Object.freeze({ ok: false, reason: 'missing' });
const UNKNOWN: KeyCheck = Object.freeze({ ok: false, reason: 'unknown' });

export function createKeyring(keys: SeedFile['keys'], sha256: Sha256Hex): Keyring {
  const byDigest = new Map<string, StoredKey & { result: KeyCheck }>();
  for (const k of keys) {
    const hex = sha256(k.key);
    const info: AuthInfo = {
      key_id: hex.slice(0, 16),
      organization_id: k.organization_id,
      provider_id: k.provider_id,
      scopes: Object.freeze([...k.scopes]),
    };
    const owner: KeyOwner = Object.freeze({ label: k.label ?? `key ${info.key_id.slice(0, 8)}`, organization_id: k.organization_id });
    const result: KeyCheck = Object.freeze(
      k.state === 'active' ? { ok: true as const, auth: info, owner } : { ok: false as const, reason: k.state, owner },
    );
    byDigest.set(hex, { digest: hex, state: k.state, info, result });
  }
  const checkDigest = (hex: string): KeyCheck => {
    const stored = byDigest.get(hex);
    if (!stored || !equalConstantTime(stored.digest, hex)) return UNKNOWN;
    return stored.result;
  };
  // The presented keys' digests, so that a client sending the same key on every request is hashed once, not per request
  // (the hash was the largest single cost of the checks). Bounded: emptied whole when full, so a flood of made-up keys
  // costs what it did. The digest is still looked up and compared as before: the cache only skips recomputing it (a
  // hit tells the caller no more than that this exact string was sent before).
  const digests = new Map<string, string>();
  const digestOf = (raw: string) => {
    if (raw.length > MAX_CACHED_KEY) return sha256(raw);
    let hex = digests.get(raw);
    if (hex === undefined) {
      if (digests.size >= DIGEST_CACHE_SIZE) digests.clear();
      digests.set(raw, (hex = sha256(raw)));
    }
    return hex;
  };
  return { check: (raw) => (raw ? checkDigest(digestOf(raw)) : MISSING) };
}

/** `*` covers every scope. */
export function hasScope(granted: readonly string[], required: readonly string[]): boolean {
  return granted.includes('*') || required.every((s) => granted.includes(s));
}
