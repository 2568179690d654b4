// Builds one engine: deps (store, validator, responses, clock, faults, events), the Hono app with CORS, the
// control API under /__mock and the API under /ext-api/v1, and the modules' seed. No globals: one engine per test.
import { Hono } from 'hono';
import { createEvents } from '../events/index.ts';
import { controlRoutes } from '../control/routes.ts';
import { loopbackOnly } from '../control/loopback.ts';
import { SeedError } from '../seed/load.ts';
import { createClock } from './clock.ts';
import { corsMiddleware, corsPolicy, type CorsPolicy } from './cors.ts';
import type { EngineConfig, EngineDeps, EngineEnv, EngineModule, SeedFile } from './deps.ts';
import { createFaults } from './faults.ts';
import { createKeyring } from './keys.ts';
import { EXTERNAL_ID_NAMESPACE, resourceModules } from './modules.ts';
import { httpFaults, notImplemented, peerIdentity, peerResolver, rateLimit, resolveOperation } from './pipeline.ts';
import { createRateLimiter, type RateLimitConfig } from './rate-limit.ts';
import { createResponses } from './responses.ts';
import { API_BASE, specIndex } from './spec.ts';
import { createStore } from './store.ts';
import { createValidator } from './validator.ts';

/** Not shown by the source (rule RATE-007): 1200 per 60 s per key, so a whole --profile all conformance run (~1000 requests on its main key) fits one window. */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { requests: 1200, seconds: 60 };

export interface EngineOptions {
  /**
   * The seed, or a function that reads it: then the engine keeps only its organizations and keys, and reads the
   * seed again on reset (a large seed is not held twice, once parsed and once as rows).
   */
  seed: SeedFile | (() => SeedFile);
  timeScale?: number;
  rateLimit?: RateLimitConfig;
  statePath?: string;
  allowPrivateWebhooks?: boolean;
  /** Filled in once the public port is known (absolute URLs in events). */
  config?: EngineConfig;
  mode?: string;
  modules?: readonly EngineModule[];
  /** Which page origins may read API answers (default: loopback origins only). */
  cors?: CorsPolicy;
  /** Behind the default mode's front: the client's address comes from the front's PEER_HEADER, not the socket. */
  behindFront?: boolean;
  /** The --host value: a Host the control API accepts besides loopback names. */
  boundHost?: string;
}

export interface Engine {
  app: Hono;
  organizations: SeedFile['organizations'];
  keys: SeedFile['keys'];
  deps: EngineDeps;
  /** Counts a request the fronts refuse before the engine sees it against its peer; its rate-limit headers. */
  rateHeadersFor(peer: string): Record<string, string>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function createEngine(opts: EngineOptions): Promise<Engine> {
  const given = opts.seed;
  const loadSeed = typeof given === 'function' ? given : () => given;
  const first = loadSeed();
  const { organizations, keys } = first;
  const spec = specIndex();
  const validator = createValidator(spec.bundle);
  const store = createStore({ statePath: opts.statePath, externalIdNamespace: EXTERNAL_ID_NAMESPACE });
  const clock = createClock(opts.timeScale ?? 1);
  const faults = createFaults();
  const config = opts.config ?? { publicBaseUrl: `http://127.0.0.1:4010${API_BASE}` };
  // Organizations come from the seed even when state is restored from --state (then modules resume, not seed).
  const base = {
    store,
    validator,
    responses: createResponses(validator),
    clock,
    faults,
    config,
    organizations: organizations.map((o) => o.id),
  };
  const events = createEvents({ deps: base, allowPrivateWebhooks: opts.allowPrivateWebhooks ?? false });
  const deps: EngineDeps = { ...base, events: events.events };
  const modules = [...(opts.modules ?? resourceModules), events.module];
  const keyring = createKeyring(keys);
  const limiter = createRateLimiter(opts.rateLimit ?? DEFAULT_RATE_LIMIT);

  const seedAll = async (seed: SeedFile) => {
    try {
      await store.batch(async () => {
        for (const m of modules) await m.seed?.(seed, deps);
      });
    } catch (e) {
      if (e instanceof SeedError) throw e;
      throw new SeedError(`Seed could not be loaded: ${(e as Error).message}`);
    }
  };
  if (store.restored) for (const m of modules) m.resume?.(deps);
  else await seedAll(first);

  const reset = async () => {
    clock.cancelAll();
    faults.clear();
    limiter.reset();
    store.clear();
    await seedAll(loadSeed());
  };

  const peerOf = peerResolver(opts.behindFront ?? false);
  const api = new Hono<EngineEnv>();
  api.use('*', rateLimit(limiter, keyring, faults, peerOf), httpFaults(faults), resolveOperation(spec, deps, keyring));
  for (const m of modules) m.routes?.(api, deps);
  api.all('*', notImplemented);

  const control = new Hono();
  control.use('*', loopbackOnly(peerOf, opts.boundHost));
  controlRoutes(control, { keys, faults, reset, mode: opts.mode ?? 'engine-only' });
  for (const m of modules) m.control?.(control, deps);

  const app = new Hono();
  app.use('*', corsMiddleware(opts.cors ?? corsPolicy()));
  app.route('/__mock', control);
  app.route(API_BASE, api);
  app.notFound((c) => c.json({ error: 'Not found' }, 404));
  app.onError((err, c) => {
    // A bug, not bad input: say so without leaking a stack, and keep serving.
    console.error(err);
    return c.json({ error: 'Internal error in the mock engine' }, 500);
  });

  return {
    app,
    organizations,
    keys,
    deps,
    rateHeadersFor: (peer) => limiter.hit(peerIdentity(peer)).headers,
    reset,
    async close() {
      clock.cancelAll();
      await events.close();
      store.close();
    },
  };
}
