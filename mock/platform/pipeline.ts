// The platform's checks in front of every API route, in order: key check (auth.ts), rate limit (headers on every
// response), injected http faults, operation lookup (404 / 405 with Allow), auth (401) and scope (403) (auth.ts), path
// ids (400). One factory per job; what one needs from another is named in the context (EngineEnv's Variables).
// They run with CORS and the request journal inside each route's one handler (`apiFront`, `routeTable`): Hono calls a
// route matched alone directly, where two or more matched handlers (a middleware beside the route) go through its
// compose, an async dispatch per layer, which cost a POST more than every check together.
// Routes the spec has but no feature answers get 501, which Prism turns into a mocked response.
import type { Hono } from 'hono';
import { adapterOf } from './adapter.ts';
import { required } from './auth.ts';
import { responseHeaders } from './cors.ts';
import type { EngineApp, EngineContext, EngineEnv, Responses, RouteHandler, Validator } from './deps.ts';
import { faultScope, type EngineFaults } from './faults.ts';
import { PEER_HEADER } from './loopback.ts';
import type { NetworkDelivery } from './network-faults.ts';
import { RATE_LIMIT_MESSAGE, type RateLimiter } from './rate-limit.ts';
import { requestHeader } from './request-header.ts';
import { answerError } from './responses.ts';
import { API_BASE, type SpecIndex } from './spec.ts';

/** One job in front of every API route: its refusal, or undefined to let the request on. A throw is a wiring bug (500). */
export type Check = (c: EngineContext) => Response | undefined;

/** Runs the checks in order: the first refusal, else undefined. */
function runChecks(steps: readonly Check[], c: EngineContext): Response | undefined {
  for (let i = 0; i < steps.length; i++) {
    const refused = steps[i]!(c);
    if (refused) return refused;
  }
  return undefined;
}

/**
 * Records an API request once given its answer (record-requests.ts); `started` is Date.now() when it entered the
 * API. One function for every request, where one closure was made per request before.
 */
export type Recorder = (c: EngineContext, started: number, answer: Response) => void | Promise<void>;

/** The answer, once `record` has recorded it. */
function recorded(record: Recorder, c: EngineContext, started: number, answer: Response): Response | Promise<Response> {
  const pending = record(c, started, answer);
  return pending ? pending.then(() => answer) : answer;
}

/**
 * Everything in front of an API route, wrapped around it (routeTable): CORS first (a preflight is answered there,
 * journaled only when refused), then the journal's entry (`record`, absent with --journal-size 0) around the network
 * (`network`: latency and network faults, network-faults.ts, skipped while none can apply), the checks and the route.
 * A check or route that throws (a bug) is answered by `onError`, the app's own error handler, so that the journal
 * records it all the same.
 */
export function apiFront(
  cors: Check,
  steps: readonly Check[],
  record: Recorder | undefined,
  onError: (err: Error, c: EngineContext) => Response,
  network?: NetworkDelivery,
  /** The answer as the played readings' server gives it (mock/readings/shape.ts), before it is recorded. */
  shape?: (c: EngineContext, res: Response) => Promise<Response>,
): (route: RouteHandler) => RouteHandler {
  const failed = (err: unknown, c: EngineContext) => {
    if (!(err instanceof Error)) throw err;
    c.error = err;
    return onError(err, c);
  };
  return (route) => (c) => {
    const preflight = cors(c);
    // A refused preflight is journaled (the page sees only "Failed to fetch"); an answered one is not.
    if (preflight) return record && preflight.status === 403 ? recorded(record, c, Date.now(), preflight) : preflight;
    // Date.now(), not performance.now(): with a recorder that did nothing, the front's performance.now() cost the
    // refused POST about 5 % of its throughput in bench/journal.ts, Date.now() about 2 % (12 pairs each).
    const started = record ? Date.now() : 0;
    let out: Response | Promise<Response>;
    try {
      out = network?.active ? network.deliver(c, () => runChecks(steps, c) ?? route(c)) : (runChecks(steps, c) ?? route(c));
    } catch (err) {
      out = failed(err, c);
    }
    if (shape) out = Promise.resolve(out).then((answer) => shape(c, answer));
    if (out instanceof Response) return record ? recorded(record, c, started, out) : out;
    // One continuation for the answer or the failure: a second chained promise cost an async route a microtask.
    if (!record) return out.catch((err: unknown) => failed(err, c));
    return out.then(
      (answer) => recorded(record, c, started, answer),
      (err: unknown) => recorded(record, c, started, failed(err, c)),
    );
  };
}

/** Where features register API routes on `api`: each route one handler, `wrap` (apiFront) around it. */
export function routeTable(api: Hono<EngineEnv>, wrap: (route: RouteHandler) => RouteHandler): EngineApp {
  // A route typed for its own path is a route for any path once its path has matched.
  const add = (method: 'get' | 'post' | 'patch' | 'delete') => (path: string, route: RouteHandler<never>) =>
    void api[method](path, wrap(route as RouteHandler));
  return { get: add('get'), post: add('post'), patch: add('patch'), delete: add('delete') };
}

export type PeerOf = (c: { env?: unknown; req: { header(name: string): string | undefined } }) => string;

/**
 * The client's address. Engine-only: the socket's peer. Behind the default mode's front (`behindFront`), the socket's
 * peer is the front itself, so the address the front recorded in PEER_HEADER (always overwritten there, never the
 * client's) is used; the engine listens on loopback only, where nothing else can reach it.
 */
export function peerResolver(behindFront: boolean): PeerOf {
  // The adapter's (node: the socket's remoteAddress); none in process.
  const socketPeer: PeerOf = (c) => adapterOf(c)?.peer ?? 'unknown';
  return behindFront ? (c) => requestHeader(c, PEER_HEADER) ?? socketPeer(c) : socketPeer;
}

/** The rate-limit identity of a request without an active key: its client's address, one bucket per peer. */
export const peerIdentity = (peer: string) => `peer:${peer}`;

/** Reads `keyCheck` (set by checkKey). */
export function rateLimit(limiter: RateLimiter, faults: EngineFaults, peerOf: PeerOf): Check {
  return (c) => {
    // Only an active key has a bucket of its own;
    // a missing, unknown, expired or revoked key counts against the client's address, so guessing keys is throttled.
    const check = required(c.get('keyCheck'), 'keyCheck', 'checkKey');
    const d = limiter.hit(
      check.ok ? check.auth.key_id : peerIdentity(peerOf(c)),
      faults.armed && faults.take('rate-limited', faultScope(c)),
    );
    if (d.limited) return answerError(c, { error: RATE_LIMIT_MESSAGE }, 429, d.headers);
    responseHeaders(c, d.headers);
    return undefined;
  };
}

export function httpFaults(faults: EngineFaults): Check {
  return (c) => {
    if (!faults.armed) return undefined;
    const path = c.req.path;
    const f = faults.takeHttp({ method: c.req.method, rel: path.slice(API_BASE.length) || '/', path, scope: faultScope(c) });
    if (!f) return undefined;
    const status = f.status ?? 500;
    const body = status === 429 ? { error: RATE_LIMIT_MESSAGE } : { error: `Injected fault: HTTP ${status}` };
    if (status === 429) c.header('Retry-After', '1');
    return answerError(c, body, status);
  };
}

/** Sets `operation`, `operationId` and `pathParams` (decoded, not yet validated) for what follows. */
export function routeOperation(spec: SpecIndex, responses: Responses): Check {
  return (c) => {
    const rel = c.req.path.slice(API_BASE.length) || '/';
    const m = spec.match(c.req.method, rel);
    if (!m) return responses.error(c, 404, 'Not found');
    if (!m.op) {
      c.header('Allow', m.allow.join(', '));
      return answerError(c, { error: `Method ${c.req.method} not allowed; allowed: ${m.allow.join(', ')}` }, 405);
    }
    c.set('operation', m.op);
    c.set('operationId', m.op.operationId);
    c.set('pathParams', m.params);
    return undefined;
  };
}

/** Reads `operation` and `pathParams` (set by routeOperation). */
export function checkPathIds(validator: Validator, responses: Responses): Check {
  return (c) => {
    const op = required(c.get('operation'), 'operation', 'routeOperation');
    const params = validator.params(op.operationId, required(c.get('pathParams'), 'pathParams', 'routeOperation'));
    return params.ok ? undefined : responses.validation(c, params.details);
  };
}

/** A request under the API that no feature's route matched, once the checks have let it on: an operation of the spec that no feature answers. */
export const notImplemented: RouteHandler = (c) =>
  answerError(
    c,
    { error: `${c.get('operationId') ?? 'This operation'} is not modelled by the engine; Prism mocks it from the spec.` },
    501,
  );
