// Who is calling and what they may do: the key check (hashed once per request), auth (401) and scope (403), each its
// own check (pipeline.ts), handing its result on by name in the context.
import type { Responses } from './deps.ts';
import { hasScope, type Keyring } from './keys.ts';
import type { Check } from './pipeline.ts';
import { requestHeader } from './request-header.ts';

const UNAUTHORIZED: Record<'missing' | 'unknown' | 'expired' | 'revoked', string> = {
  missing: 'Missing API key',
  unknown: 'Invalid API key',
  expired: 'API key expired',
  revoked: 'API key revoked',
};

/** What an earlier middleware set; unset, the middleware that needs it was mounted without it: a wiring bug (500). */
export function required<T>(value: T | undefined, name: string, setBy: string): T {
  if (value === undefined) throw new Error(`c.var.${name} is not set: mount ${setBy} before this middleware`);
  return value;
}

/** Sets `keyCheck`: the presented key, hashed once per request; rate limit and auth both read it. */
export function checkKey(keyring: Keyring): Check {
  return (c) => {
    c.set('keyCheck', keyring.check(requestHeader(c, 'x-api-key')));
    return undefined;
  };
}

/** Reads `keyCheck`; sets `auth`. */
export function authenticate(responses: Responses): Check {
  return (c) => {
    const check = required(c.get('keyCheck'), 'keyCheck', 'checkKey');
    if (!check.ok) return responses.error(c, 401, UNAUTHORIZED[check.reason]);
    c.set('auth', check.auth);
    return undefined;
  };
}

/** Reads `operation` and `auth`: 403 unless the key has every scope the operation's x-required-scopes names. */
export function requireScope(responses: Responses): Check {
  return (c) => {
    const op = required(c.get('operation'), 'operation', 'routeOperation');
    const auth = required(c.get('auth'), 'auth', 'authenticate');
    if (!hasScope(auth.scopes, op.scopes)) return responses.error(c, 403, `Insufficient scope: ${op.scopes.join(', ')} required`);
    return undefined;
  };
}
