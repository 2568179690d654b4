// CORS for browsers calling the mock from another origin, in every mode: preflight answered, the request headers
// the API uses allowed, the rate-limit headers exposed.
// Hand-written rather than hono/cors: that one touches `c.res` before the route runs, which makes Hono rebuild every
// response (and @hono/node-server stream it) instead of writing the route's body as is. This one only sets headers.
import type { ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';

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

/**
 * Headers every response of this request carries, whatever builds it (a route's c.json, a stream, onError). Served
 * by @hono/node-server they go straight onto the node response, which writeHead merges with the route's own headers
 * (the route's win): no web Headers object is built, read back or sorted per request. Without a node response (the
 * in-process app.request of tests) they go through c.header, which Hono merges into every c.json/c.body.
 */
export function responseHeaders(c: Context, headers: Readonly<Record<string, string>>): void {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing && typeof outgoing.setHeader === 'function') for (const k in headers) outgoing.setHeader(k, headers[k]!);
  else for (const k in headers) c.header(k, headers[k]);
}

export const corsMiddleware = (): MiddlewareHandler => async (c, next) => {
  if (c.req.method === 'OPTIONS') return c.body(null, 204, PREFLIGHT_HEADERS);
  responseHeaders(c, CORS_HEADERS);
  return next();
};
