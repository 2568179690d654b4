// The platform's middleware in front of every API route, in order: rate limit (headers on every response),
// injected http faults, operation lookup (404 / 405 with Allow), auth (401) and scope (403), path ids (400).
// Routes the spec has but no module answers get 501, which Prism turns into a mocked response.
import type { MiddlewareHandler } from 'hono';
import { PEER_HEADER } from '../control/loopback.ts';
import { responseHeaders } from './cors.ts';
import type { EngineDeps, EngineEnv } from './deps.ts';
import { faultScope, type EngineFaults } from './faults.ts';
import { hasScope, type Keyring } from './keys.ts';
import { RATE_LIMIT_MESSAGE, type RateLimiter } from './rate-limit.ts';
import { API_BASE, type SpecIndex } from './spec.ts';

type MW = MiddlewareHandler<EngineEnv>;

const UNAUTHORIZED: Record<'missing' | 'unknown' | 'expired' | 'revoked', string> = {
  missing: 'Missing API key',
  unknown: 'Invalid API key',
  expired: 'API key expired',
  revoked: 'API key revoked',
};

export type PeerOf = (c: { env: unknown; req: { header(name: string): string | undefined } }) => string;

/**
 * The client's address. Engine-only: the socket's peer. Behind the default mode's front (`behindFront`), the socket's
 * peer is the front itself, so the address the front recorded in PEER_HEADER (always overwritten there, never the
 * client's) is used; the engine listens on loopback only, where nothing else can reach it.
 */
export function peerResolver(behindFront: boolean): PeerOf {
  const socketPeer: PeerOf = (c) =>
    (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown';
  return behindFront ? (c) => c.req.header(PEER_HEADER) ?? socketPeer(c) : socketPeer;
}

/** The rate-limit identity of a request without an active key: its client's address, one bucket per peer. */
export const peerIdentity = (peer: string) => `peer:${peer}`;

export function rateLimit(limiter: RateLimiter, keyring: Keyring, faults: EngineFaults, peerOf: PeerOf): MW {
  return async (c, next) => {
    const key = c.req.header('x-api-key');
    // The key is hashed once per request: the result is what auth uses. Only an active key has a bucket of its own;
    // a missing, unknown, expired or revoked key counts against the client's address, so guessing keys is throttled.
    const check = keyring.check(key);
    c.set('keyCheck', check);
    const d = limiter.hit(check.ok ? check.auth.key_id : peerIdentity(peerOf(c)), faults.take('rate-limited', faultScope(c)));
    if (d.limited) return c.json({ error: RATE_LIMIT_MESSAGE }, 429, d.headers);
    responseHeaders(c, d.headers);
    return next();
  };
}

export function httpFaults(faults: EngineFaults): MW {
  return async (c, next) => {
    const rel = c.req.path.slice(API_BASE.length) || '/';
    const scope = faultScope(c);
    const f = faults.takeHttp(c.req.method, rel, scope) ?? faults.takeHttp(c.req.method, c.req.path, scope);
    if (!f) return next();
    const status = f.status ?? 500;
    const body = status === 429 ? { error: RATE_LIMIT_MESSAGE } : { error: `Injected fault: HTTP ${status}` };
    if (status === 429) c.header('Retry-After', '1');
    return c.json(body, status as 500);
  };
}

export function resolveOperation(spec: SpecIndex, deps: EngineDeps, keyring: Keyring): MW {
  return async (c, next) => {
    const rel = c.req.path.slice(API_BASE.length) || '/';
    const m = spec.match(c.req.method, rel);
    if (!m) return deps.responses.error(c, 404, 'Not found');
    if (!m.op) {
      c.header('Allow', m.allow.join(', '));
      return c.json({ error: `Method ${c.req.method} not allowed; allowed: ${m.allow.join(', ')}` }, 405);
    }
    const check = c.get('keyCheck') ?? keyring.check(c.req.header('x-api-key'));
    if (!check.ok) return deps.responses.error(c, 401, UNAUTHORIZED[check.reason]);
    if (!hasScope(check.auth.scopes, m.op.scopes))
      return deps.responses.error(c, 403, `Insufficient scope: ${m.op.scopes.join(', ')} required`);
    const params = deps.validator.params(m.op.operationId, m.params);
    if (!params.ok) return deps.responses.validation(c, params.details);
    c.set('auth', check.auth);
    c.set('operationId', m.op.operationId);
    return next();
  };
}

/** Registered after every module: an operation of the spec that no module answers. */
export const notImplemented: MW = async (c) =>
  c.json({ error: `${c.get('operationId') ?? 'This operation'} is not modelled by the engine; Prism mocks it from the spec.` }, 501);
