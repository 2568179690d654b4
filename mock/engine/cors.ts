// CORS for browsers calling the mock from another origin, in every mode: preflight answered, the request headers
// the API uses allowed, the rate-limit headers exposed.
import { cors } from 'hono/cors';

export const ALLOWED_HEADERS = ['X-API-Key', 'Idempotency-Key', 'Content-Type'];
export const EXPOSED_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Allow', 'sl-violations'];

export const corsMiddleware = () =>
  cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
