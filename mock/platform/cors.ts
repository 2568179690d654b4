// CORS for browsers calling the API from a page of another origin. By default only pages served from this machine
// (http(s)://localhost, 127.0.0.0/8 or [::1], any port) may read answers, as Vite 6 does for its dev server: a page of
// any other site the developer visits must not read patients with the seeded keys. `--cors-origin <origin>` adds
// origins (repeatable); `*` opens the API to every origin. The control API (/__mock) has its own (control-cors.ts).
// Hand-written rather than hono/cors: that one touches `c.res` before the route runs, which makes Hono rebuild every
// response (and @hono/node-server stream it) instead of writing the route's body as is. This one only sets headers.
import type { Context } from 'hono';
import { adapterOf } from './adapter.ts';
import type { EngineContext } from './deps.ts';
import type { Refusal } from './journal-entry.ts';
import { isControlPath, isLoopbackOrigin } from './loopback.ts';
import { requestHeader } from './request-header.ts';
import { answerError } from './responses.ts';

// X-Mock-Fault-Scope: a page aims its own armed faults at its own requests (POST /__mock/faults with a scope).
const ALLOWED_HEADERS = ['X-API-Key', 'Idempotency-Key', 'Content-Type', 'X-Mock-Fault-Scope'];
const EXPOSED_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Allow', 'sl-violations'];
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'];

/** Headers of an answer the browser may read (with `*`: every answer). */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(','),
};
const VARY = Object.freeze({ Vary: 'Origin' });

export interface CorsPolicy {
  /** `--cors-origin *`: every origin, `Access-Control-Allow-Origin: *` as before. */
  any: boolean;
  origins: ReadonlySet<string>;
}

/** The policy from the --cors-origin values (each already checked by parseCorsOrigin). */
export function corsPolicy(extra: readonly string[] = []): CorsPolicy {
  return { any: extra.includes('*'), origins: new Set(extra.filter((o) => o !== '*').map((o) => o.toLowerCase())) };
}

/** `*`, or an origin `scheme://host[:port]` in its serialized form; undefined when malformed. */
export function parseCorsOrigin(text: string): string | undefined {
  if (text === '*') return text;
  try {
    const u = new URL(text);
    const bare = u.pathname === '/' && !u.search && !u.hash && !u.username && !u.password && !text.endsWith('#') && !text.endsWith('?');
    return /^https?:$/.test(u.protocol) && bare ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Whether pages of `origin` may read API answers. */
export function isOriginAllowed(policy: CorsPolicy, origin: string | undefined): boolean {
  return origin !== undefined && (policy.any || isLoopbackOrigin(origin) || policy.origins.has(origin.toLowerCase()));
}

/** Headers every API answer to this origin carries (front and engine alike). */
export function corsHeaders(policy: CorsPolicy, origin: string | undefined): Readonly<Record<string, string>> {
  if (policy.any) return CORS_HEADERS;
  if (!isOriginAllowed(policy, origin)) return VARY;
  return {
    'Access-Control-Allow-Origin': origin!,
    'Access-Control-Expose-Headers': CORS_HEADERS['Access-Control-Expose-Headers']!,
    Vary: 'Origin',
  };
}

/**
 * A preflight: answered for allowed origins (and for a bare OPTIONS without Origin, which no browser sends); an origin
 * the policy does not allow gets 403 with the way out, and no CORS headers, so the browser stops there.
 */
export function preflight(
  policy: CorsPolicy,
  origin: string | undefined,
): { status: 204 | 403; headers: Record<string, string>; body?: object } {
  if (origin !== undefined && !isOriginAllowed(policy, origin))
    return {
      status: 403,
      headers: { ...VARY },
      body: { error: `Origin ${origin} is not allowed; start the mock with --cors-origin ${origin} (or --cors-origin '*')` },
    };
  return {
    status: 204,
    headers: {
      ...corsHeaders(policy, origin),
      'Access-Control-Max-Age': '600',
      'Access-Control-Allow-Methods': ALLOWED_METHODS.join(','),
      'Access-Control-Allow-Headers': ALLOWED_HEADERS.join(','),
      Vary: policy.any ? 'Access-Control-Request-Headers' : 'Origin, Access-Control-Request-Headers',
    },
  };
}

/**
 * Headers every response of this request carries, whatever builds it (a route's c.json, a stream, onError). An adapter
 * that can set them on its own response does (node: straight onto the node response, no web Headers built per
 * request); otherwise (app.fetch alone) they go through c.header, which Hono merges into every c.json/c.body.
 */
export function responseHeaders(c: Context, headers: Readonly<Record<string, string>>): void {
  const adapter = adapterOf(c);
  // Kept for a played reading that writes these headers another way (mock/readings/shape.ts) after the transport has them.
  c.set('sentHeaders', headers);
  if (adapter?.setHeaders) adapter.setHeaders(headers);
  else for (const k in headers) c.header(k, headers[k]);
}

/**
 * Why a page of `origin` gets no CORS headers, and the flag that would let it read the API: the browser shows the page
 * only "Failed to fetch", so the request journal and the terminal say it (`preflight`: its preflight was refused).
 */
export function corsRefusal(origin: string, preflight: boolean): Refusal {
  const flag = parseCorsOrigin(origin);
  return {
    by: 'cors',
    reason: preflight
      ? `Origin ${origin} may not read API answers: its CORS preflight was refused`
      : `Origin ${origin} may not read API answers: the browser hides this answer from the page (no CORS headers)`,
    allow: flag && flag !== '*' ? `--cors-origin ${flag}` : "--cors-origin '*'",
    subject: origin,
  };
}

/**
 * CORS for one request: a preflight's answer, else undefined with the headers set. Run first by the API's front
 * (pipeline.ts) and by the not-found answer; never for the control API. A page's origin the policy refuses is named
 * in `refusal` (the request journal shows it) and handed to `onRefusal` (the terminal's line).
 */
export const corsCheck =
  (policy: CorsPolicy, onRefusal?: (r: Refusal) => void) =>
  (c: Context): Response | undefined => {
    if (isControlPath(c.req.path)) return undefined;
    const origin = requestHeader(c, 'origin');
    const refused = origin !== undefined && !isOriginAllowed(policy, origin);
    if (refused) {
      const refusal = corsRefusal(origin, c.req.method === 'OPTIONS');
      (c as EngineContext).set('refusal', refusal);
      onRefusal?.(refusal);
    }
    if (c.req.method === 'OPTIONS') {
      const p = preflight(policy, origin);
      return p.body ? answerError(c, p.body, p.status, p.headers) : c.body(null, p.status, p.headers);
    }
    responseHeaders(c, refused ? VARY : corsHeaders(policy, origin));
    return undefined;
  };
