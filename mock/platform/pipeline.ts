// The platform's middleware in front of every API route, one factory per job, in the order the engine mounts them:
//   checkKey        hashes the presented key once                                 sets keyCheck
//   rateLimit       X-RateLimit-* on every answer; 429                            reads keyCheck
//   httpFaults      injected http faults
//   routeOperation  the spec's operation for method + path; 404 / 405 with Allow  sets operation, operationId, pathParams
//   authenticate    401                                                            reads keyCheck; sets auth
//   requireScope    403 from x-required-scopes                                     reads operation, auth
//   checkPathIds    400 for path ids outside their schema                          reads operation, pathParams
// Routes the spec has but no feature answers get 501 (notImplemented), which Prism turns into a mocked response.
import type { MiddlewareHandler } from 'hono';
import { adapterOf } from './adapter.ts';
import { responseHeaders } from './cors.ts';
import type { EngineEnv, Responses, Validator } from './deps.ts';
import { faultScope, type EngineFaults } from './faults.ts';
import { hasScope, type Keyring } from './keys.ts';
import { PEER_HEADER } from './loopback.ts';
import { RATE_LIMIT_MESSAGE, type RateLimiter } from './rate-limit.ts';
import { API_BASE, type SpecIndex } from './spec.ts';

type MW = MiddlewareHandler<EngineEnv>;

export const UNAUTHORIZED: Record<'missing' | 'unknown' | 'expired' | 'revoked', string> = {
  missing: 'Missing API key',
  unknown: 'Invalid API key',
  expired: 'API key expired',
  revoked: 'API key revoked',
};

export type PeerOf = (c: { env: unknown; req: { header(name: string): string | undefined } }) => string;

/**
 * The client's address. Engine-only: the adapter's peer (the socket's). Behind the default mode's front
 * (`behindFront`), the socket's peer is the front itself, so the address the front recorded in PEER_HEADER (always
 * overwritten there, never the client's) is used; the engine listens on loopback only, where nothing else can reach it.
 */
export function peerResolver(behindFront: boolean): PeerOf {
  const adapterPeer: PeerOf = (c) => adapterOf(c)?.peer ?? 'unknown';
  return behindFront ? (c) => c.req.header(PEER_HEADER) ?? adapterPeer(c) : adapterPeer;
}

/** The rate-limit identity of a request without an active key: its client's address, one bucket per peer. */
export const peerIdentity = (peer: string) => `peer:${peer}`;

/** A middleware that needs what an earlier one sets, mounted without it: a wiring bug, answered 500 by onError. */
function required<T>(value: T | undefined, name: string, setBy: string): T {
  if (value === undefined) throw new Error(`c.var.${name} is not set: mount ${setBy} before this middleware`);
  return value;
}

/** The presented key is hashed once per request; rate limit and auth both read the result. */
export function checkKey(keyring: Keyring): MW {
  return async (c, next) => {
    c.set('keyCheck', keyring.check(c.req.header('x-api-key')));
    return next();
  };
}

/**
 * Only an active key has a bucket of its own; a missing, unknown, expired or revoked key counts against the client's
 * address, so guessing keys is throttled.
 */
export function rateLimit(limiter: RateLimiter, faults: EngineFaults, peerOf: PeerOf): MW {
  return async (c, next) => {
    const check = required(c.get('keyCheck'), 'keyCheck', 'checkKey');
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

/** The spec's operation for the method and path: 404 for a path the spec lacks, 405 with Allow for a wrong method. */
export function routeOperation(spec: SpecIndex, responses: Responses): MW {
  return async (c, next) => {
    const rel = c.req.path.slice(API_BASE.length) || '/';
    const m = spec.match(c.req.method, rel);
    if (!m) return responses.error(c, 404, 'Not found');
    if (!m.op) {
      c.header('Allow', m.allow.join(', '));
      return c.json({ error: `Method ${c.req.method} not allowed; allowed: ${m.allow.join(', ')}` }, 405);
    }
    c.set('operation', m.op);
    c.set('operationId', m.op.operationId);
    c.set('pathParams', m.params);
    return next();
  };
}

export function authenticate(responses: Responses): MW {
  return async (c, next) => {
    const check = required(c.get('keyCheck'), 'keyCheck', 'checkKey');
    if (!check.ok) return responses.error(c, 401, UNAUTHORIZED[check.reason]);
    c.set('auth', check.auth);
    return next();
  };
}

export function requireScope(responses: Responses): MW {
  return async (c, next) => {
    const op = required(c.get('operation'), 'operation', 'routeOperation');
    const auth = required(c.get('auth'), 'auth', 'authenticate');
    if (!hasScope(auth.scopes, op.scopes)) return responses.error(c, 403, `Insufficient scope: ${op.scopes.join(', ')} required`);
    return next();
  };
}

export function checkPathIds(validator: Validator, responses: Responses): MW {
  return async (c, next) => {
    const op = required(c.get('operation'), 'operation', 'routeOperation');
    const params = validator.params(op.operationId, required(c.get('pathParams'), 'pathParams', 'routeOperation'));
    if (!params.ok) return responses.validation(c, params.details);
    return next();
  };
}

/** Registered after every feature: an operation of the spec that no feature answers. */
export const notImplemented: MW = async (c) =>
  c.json({ error: `${c.get('operationId') ?? 'This operation'} is not modelled by the engine; Prism mocks it from the spec.` }, 501);
