// CORS for the control API (/__mock), so that a page of the app under development (a dev server on another loopback
// port) can arm and clear faults and read the journal: without it the browser hides every answer ("Failed to
// fetch", issue 42). Only for origins both rules admit: the control API's own (a loopback origin, or the --host
// value: loopback.ts, checked before this runs) and the API's CORS policy (cors.ts). Never `*`, also with
// `--cors-origin '*'`: a page of another site reaches no control route, and the peer must still be loopback.
import type { MiddlewareHandler } from 'hono';
import { type CorsPolicy, isOriginAllowed } from './cors.ts';
import { isLoopbackOrigin } from './loopback.ts';

const METHODS = 'GET,HEAD,POST,PATCH,DELETE,OPTIONS';
/** A control request's only header a page sets: its JSON body's type (no key: the control API takes none). */
const HEADERS = 'Content-Type';

/** Whether a page of `origin` may read control answers. */
function controlOriginAllowed(policy: CorsPolicy, origin: string | undefined, boundHost?: string): origin is string {
  return origin !== undefined && isLoopbackOrigin(origin, boundHost) && isOriginAllowed(policy, origin);
}

/** Headers of a control answer to this origin: its own Allow-Origin when allowed, else only `Vary: Origin`. */
export function controlCorsHeaders(policy: CorsPolicy, origin: string | undefined, boundHost?: string): Record<string, string> {
  return controlOriginAllowed(policy, origin, boundHost) ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } : { Vary: 'Origin' };
}

/** A control preflight's headers (204); an origin not allowed gets none of the CORS ones, so the browser stops. */
export function controlPreflightHeaders(policy: CorsPolicy, origin: string | undefined, boundHost?: string): Record<string, string> {
  if (!controlOriginAllowed(policy, origin, boundHost)) return { Vary: 'Origin' };
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': METHODS,
    'Access-Control-Allow-Headers': HEADERS,
    'Access-Control-Max-Age': '600',
    Vary: 'Origin, Access-Control-Request-Headers',
  };
}

/** The engine's control app: preflights answered here, every other answer given this origin's headers. */
export const controlCors =
  (policy: CorsPolicy, boundHost?: string): MiddlewareHandler =>
  async (c, next) => {
    const origin = c.req.header('origin');
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined)
      return c.body(null, 204, controlPreflightHeaders(policy, origin, boundHost));
    for (const [k, v] of Object.entries(controlCorsHeaders(policy, origin, boundHost))) c.header(k, v);
    await next();
  };
