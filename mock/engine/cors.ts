// CORS for browsers calling the mock from another origin, in every mode: preflight answered, the request headers
// the API uses allowed, the rate-limit headers exposed.
// Hand-written rather than hono/cors: that one touches `c.res` before the route runs, which makes Hono rebuild every
// response (and @hono/node-server stream it) instead of writing the route's body as is. This one only prepares
// headers; a route that builds its own Response gets them added afterwards.
import type { MiddlewareHandler } from 'hono';

export const ALLOWED_HEADERS = ['X-API-Key', 'Idempotency-Key', 'Content-Type'];
export const EXPOSED_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Allow', 'sl-violations'];
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'];

/** Headers every response carries. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(','),
};

const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'Access-Control-Max-Age': '600',
  'Access-Control-Allow-Methods': ALLOWED_METHODS.join(','),
  'Access-Control-Allow-Headers': ALLOWED_HEADERS.join(','),
  Vary: 'Access-Control-Request-Headers',
};

/** Sets `headers` on the response `c.res` already is (a route's own Response may have immutable headers). */
export function addHeaders(c: { res: Response }, headers: Readonly<Record<string, string>>): void {
  try {
    for (const k in headers) c.res.headers.set(k, headers[k]!);
  } catch {
    const res = new Response(c.res.body, c.res);
    for (const k in headers) res.headers.set(k, headers[k]!);
    c.res = res;
  }
}

export const corsMiddleware = (): MiddlewareHandler => async (c, next) => {
  if (c.req.method === 'OPTIONS') return c.body(null, 204, PREFLIGHT_HEADERS);
  for (const k in CORS_HEADERS) c.header(k, CORS_HEADERS[k]);
  await next();
  if (!c.res.headers.has('Access-Control-Allow-Origin')) addHeaders(c, CORS_HEADERS);
};
