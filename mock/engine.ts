// The composition root: builds one engine from the platform (store, validator, responses, clock, faults, keys, rate
// limit, the middleware) and the features, the only file that imports every feature. The Hono app it returns answers
// web Request/Response (`app.fetch`); adapters (mock/server.ts, mock/front/) put it on a transport. No globals: one
// engine per test.
import { type Context, Hono } from 'hono';
import { appointmentsFeature } from './features/appointments/feature.ts';
import { controlFeature } from './features/control/feature.ts';
import { documentsFeature } from './features/documents/feature.ts';
import { createEvents } from './features/events/feature.ts';
import { notesFeature } from './features/notes/feature.ts';
import { patientsFeature } from './features/patients/feature.ts';
import { providersFeature } from './features/providers/feature.ts';
import { createClock } from './platform/clock.ts';
import { EXTERNAL_ID_NAMESPACE } from './platform/collections.ts';
import { corsCheck, corsPolicy, type CorsPolicy } from './platform/cors.ts';
import { controlCors } from './platform/control-cors.ts';
import type { EngineConfig, EngineContext, EngineDeps, EngineEnv, Feature, FeatureFactory, SeedFile } from './platform/deps.ts';
import { createFaults } from './platform/faults.ts';
import { createKeyring, type Keyring } from './platform/keys.ts';
import { loopbackOnly } from './platform/loopback.ts';
import { type Latency, networkDelivery } from './platform/network-faults.ts';
import { authenticate, checkKey, requireScope } from './platform/auth.ts';
import {
  apiFront,
  checkPathIds,
  httpFaults,
  notImplemented,
  type PeerOf,
  peerIdentity,
  peerResolver,
  rateLimit,
  routeOperation,
  routeTable,
} from './platform/pipeline.ts';
import { createRateLimiter, type RateLimitConfig, type RateLimiter } from './platform/rate-limit.ts';
import { recordRequests } from './platform/record-requests.ts';
import { createRedactor } from './platform/redact.ts';
import { createRequestJournal, DEFAULT_JOURNAL_SIZE, type RequestJournal } from './platform/request-journal.ts';
import type { Refusal } from './platform/journal-entry.ts';
import { type FrontRefusal, refusedEntry } from './platform/record-refusals.ts';
import { answerError, createResponses } from './platform/responses.ts';
import { API_BASE, isApiPath, type SpecIndex, specIndex } from './platform/spec.ts';
import { createStore } from './platform/store.ts';
import { createValidator } from './platform/validator.ts';
import type { EngineRuntime } from './runtime/types.ts';
import { SeedError } from './seed/check.ts';
import { forwardRoute, type UpstreamProxy } from './upstream/proxy.ts';
import { activeReadings, type ActiveReadings, type ReadingsChoice } from './readings/active.ts';
import { playReadings } from './readings/play.ts';
import { answerShaper } from './readings/shape.ts';
import { upstreamFaultRefusal, upstreamFaults } from './upstream/faults.ts';

/** The API's features for a runtime, in seeding order (a feature may read rows an earlier one seeded). */
const apiFeatures = (runtime: EngineRuntime): readonly FeatureFactory[] => [
  providersFeature,
  patientsFeature,
  appointmentsFeature,
  documentsFeature(runtime.documents),
  notesFeature,
];

/** Not shown by the source (rule RATE-007): 1200 per 60 s per key, so a whole --profile all conformance run (~1000 requests on its main key) fits one window. */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { requests: 1200, seconds: 60 };

export interface EngineOptions {
  /** Where the engine runs: mock/runtime/node.ts (CLI, Node tests) or mock/runtime/web.ts (in a page). */
  runtime: EngineRuntime;
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
  /** Replaces apiFeatures(runtime) (tests of the platform itself); events and control are always there. */
  features?: readonly FeatureFactory[];
  /** Which page origins may read API answers (default: loopback origins only). */
  cors?: CorsPolicy;
  /** Behind the default mode's front: the client's address comes from the front's PEER_HEADER, not the socket. */
  behindFront?: boolean;
  /** The --host value: a Host the control API accepts besides loopback names. */
  boundHost?: string;
  /** API requests the request journal keeps (--journal-size; default 500; 0: none recorded). */
  journalSize?: number;
  /** A page's origin refused by CORS (the terminal's line: refusal-notices.ts). */
  onRefusal?: (refusal: Refusal) => void;
  /** Every API answer waits this long first (--latency; the in-process `latency` option). */
  latency?: Latency;
  /** --upstream: every API request goes to this upstream, judged; no feature answers, no key or rate limit is the engine's. */
  upstream?: UpstreamProxy;
  /** Readings of the document to play (spec/readings.yaml): ids, 'all', or a seeded random draw; none by default. */
  readings?: ReadingsChoice;
}

export interface Engine {
  app: Hono;
  /** The readings this engine plays (GET /__mock/readings lists them). */
  readings: ActiveReadings;
  organizations: SeedFile['organizations'];
  keys: SeedFile['keys'];
  deps: EngineDeps;
  /** The last API requests (GET /__mock/requests); the default front attaches Prism's violations to them. */
  journal: RequestJournal;
  /** Counts a request the fronts refuse before the engine sees it against its peer; its rate-limit headers. */
  rateHeadersFor(peer: string): Record<string, string>;
  /** Journals a request the fronts refused before the engine saw it. */
  recordRefused(refused: FrontRefusal): void;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The platform the features are built on (every dependency but events), from the options. */
function createPlatform(opts: EngineOptions, organizations: SeedFile['organizations']) {
  const spec = specIndex();
  const validator = createValidator(spec.bundle);
  const { runtime } = opts;
  if (opts.statePath !== undefined && !runtime.openState) throw new Error('--state needs a file system: this runtime has none');
  const state = opts.statePath !== undefined ? runtime.openState?.(opts.statePath) : undefined;
  const store = createStore({ state, externalIdNamespace: EXTERNAL_ID_NAMESPACE });
  const clock = createClock(opts.timeScale ?? 1);
  const faults = createFaults();
  const config = opts.config ?? { publicBaseUrl: `http://127.0.0.1:4010${API_BASE}` };
  const active = activeReadings(opts.upstream ? [] : opts.readings);
  const readings = playReadings(active, store);
  const base = {
    store,
    validator,
    responses: createResponses(validator, readings),
    readings,
    clock,
    faults,
    config,
    // Organizations come from the seed even when state is restored from --state (then features resume, not seed).
    organizations: organizations.map((o) => o.id),
  };
  return { spec, active, base };
}

type Platform = ReturnType<typeof createPlatform>['base'];

/** Loads a seed through every feature in one batch; whatever goes wrong is a SeedError (the CLI prints its message). */
async function seedFeatures(store: Platform['store'], features: readonly Feature[], seed: SeedFile): Promise<void> {
  try {
    await store.batch(async () => {
      for (const f of features) await f.seed?.(seed);
    });
  } catch (e) {
    if (e instanceof SeedError) throw e;
    throw new SeedError(`Seed could not be loaded: ${(e as Error).message}`);
  }
}

/** What the engine's apps answer with, made once by createEngine. */
interface EngineParts {
  opts: EngineOptions;
  spec: SpecIndex;
  platform: Platform;
  features: readonly Feature[];
  keys: SeedFile['keys'];
  keyring: Keyring;
  limiter: RateLimiter;
  journal: RequestJournal;
  active: ActiveReadings;
  reset(): Promise<void>;
}

// A bug, not bad input: say so without leaking a stack, and keep serving.
const internalError = (err: Error, c: Context) => {
  console.error(err);
  return answerError(c, { error: 'Internal error in the mock engine' }, 500);
};

/** The checks every API request goes through before its route (or, with --upstream, before the upstream). */
function apiPipeline(
  { opts, spec, platform, keyring, limiter, journal, active }: EngineParts,
  cors: ReturnType<typeof corsCheck>,
  peerOf: PeerOf,
) {
  const { upstream } = opts;
  const { faults, responses, validator } = platform;
  const identify = checkKey(keyring);
  // The journal (left out entirely with --journal-size 0) starts after CORS, so that its duration and status cover
  // every refusal of the checks.
  return apiFront(
    cors,
    upstream
      ? upstreamFaults(faults)
      : [
          identify,
          rateLimit(limiter, faults, peerOf),
          httpFaults(faults),
          routeOperation(spec, responses),
          authenticate(responses),
          requireScope(responses),
          checkPathIds(validator, responses),
        ],
    journal.capacity > 0 ? recordRequests(journal, opts.behindFront ?? false) : undefined,
    internalError,
    networkDelivery(faults, opts.latency, upstream ? undefined : identify),
    answerShaper(active),
  );
}

/**
 * The control API is an app of its own, reached by prefix (engineApp): its dashboard route (/__mock/ by an optional
 * slash) is a shape Hono's RegExpRouter cannot take, and merged into one router with the API's it made every API
 * request go through the slower TrieRouter.
 */
function controlApp({ opts, platform, features, keys, journal, active, reset }: EngineParts, peerOf: PeerOf, policy: CorsPolicy): Hono {
  const { upstream } = opts;
  const control = new Hono().basePath('/__mock');
  control.use('*', loopbackOnly(peerOf, opts.boundHost));
  control.use('*', controlCors(policy, opts.boundHost));
  for (const f of [
    controlFeature({
      keys,
      faults: platform.faults,
      journal,
      reset,
      mode: opts.mode ?? 'engine-only',
      upstream: upstream?.base,
      refuseFault: upstream ? upstreamFaultRefusal : undefined,
      apiUrl: () => platform.config.publicBaseUrl,
      readings: active,
      timeScale: platform.clock.timeScale,
      pages: opts.runtime.controlPages,
    }),
    ...features,
  ])
    f.control?.(control);
  return control;
}

/** The app answering every request: the control API by prefix, the API under API_BASE, anything else not found. */
function engineApp(parts: EngineParts): Hono {
  const { opts, features } = parts;
  const { upstream } = opts;
  const peerOf = peerResolver(opts.behindFront ?? false);
  const policy = opts.cors ?? corsPolicy();
  const cors = corsCheck(policy, opts.onRefusal);
  const front = apiPipeline(parts, cors, peerOf);
  const api = new Hono<EngineEnv>();
  const routes = routeTable(api, front);
  if (!upstream) for (const f of features) f.routes?.(routes);
  // A request under the API that no route matches goes through the same front (its 404, 405 or 501 after the
  // checks) as the app's not-found answer: a catch-all route would match beside every route, and two matched
  // handlers put each request through Hono's compose.
  const unrouted = front(upstream ? forwardRoute(upstream) : notImplemented);

  const control = controlApp(parts, peerOf, policy);
  // CORS runs in front of the API's routes (apiFront) and of the not-found answer; the control API has its own (above).
  const notFound = (c: Context) => cors(c) ?? c.json({ error: 'Not found' }, 404);
  control.notFound(notFound);
  control.onError(internalError);
  const app = new Hono();
  const toControl = (c: Context) => control.fetch(c.req.raw, c.env);
  app.all('/__mock', toControl);
  app.all('/__mock/*', toControl);
  app.route(API_BASE, api);
  app.notFound((c) => (isApiPath(c.req.path) ? unrouted(c as unknown as EngineContext) : notFound(c)));
  app.onError(internalError);
  return app;
}

export async function createEngine(opts: EngineOptions): Promise<Engine> {
  const given = opts.seed;
  const loadSeed = typeof given === 'function' ? given : () => given;
  const first = loadSeed();
  const { organizations, keys } = first;
  const { runtime, upstream } = opts;
  const { spec, active, base } = createPlatform(opts, organizations);
  const { store, clock, faults } = base;
  const events = createEvents({ deps: base, allowPrivateWebhooks: opts.allowPrivateWebhooks ?? false, io: runtime.webhooks });
  const deps: EngineDeps = { ...base, events: events.events };
  // A proxy holds no state: no resource feature, and the events feature for its control routes only.
  const features = [...(upstream ? [] : (opts.features ?? apiFeatures(runtime))).map((build) => build(deps)), events.feature];
  const keyring = createKeyring(keys, runtime.sha256Hex);
  const limiter = createRateLimiter(opts.rateLimit ?? DEFAULT_RATE_LIMIT);
  const journal = createRequestJournal(opts.journalSize ?? DEFAULT_JOURNAL_SIZE, createRedactor(keys.map((k) => k.key)));

  if (store.restored) for (const f of features) f.resume?.();
  else await seedFeatures(store, features, first);
  const reset = async () => {
    clock.cancelAll();
    faults.clear();
    limiter.reset();
    journal.clear();
    store.clear();
    await seedFeatures(store, features, loadSeed());
  };
  const app = engineApp({ opts, spec, platform: base, features, keys, keyring, limiter, journal, active, reset });

  return {
    app,
    readings: active,
    organizations,
    keys,
    deps,
    journal,
    rateHeadersFor: (peer) => limiter.hit(peerIdentity(peer)).headers,
    recordRefused: (refused) => journal.record(refusedEntry(refused), Date.now(), 0),
    reset,
    async close() {
      clock.cancelAll();
      await events.close();
      store.close();
    },
  };
}
