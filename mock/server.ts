// startMock(): the mock as a library (tests, the conformance suite, the CLI). Three modes:
//   default      Prism's validation proxy on the public port, handing operations to the engine in process
//                (app.fetch); the rest is streamed to the engine on an internal loopback port;
//   engine-only  the engine alone on the public port (no Prism hop; load work);
//   static       Prism's plain mock from the spec, no engine, no state.
import type { ForwardLimits } from './upstream/forward.ts';
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createAdaptorServer, getRequestListener, type ServerType } from '@hono/node-server';
import { corsPolicy, type CorsPolicy } from './platform/cors.ts';
import { shapeClientErrors } from './front/client-error.ts';
import { reportingResponses } from './front/fault-delivery.ts';
import { createGate, type Gate, type GateOptions } from './front/gate.ts';
import { nodeFetch } from './front/node-env.ts';
import type { EngineConfig, FeatureFactory, SeedFile } from './platform/deps.ts';
import { createEngine, DEFAULT_RATE_LIMIT, type Engine } from './engine.ts';
import type { Refusal } from './platform/journal-entry.ts';
import type { FrontRefusal } from './platform/record-refusals.ts';
import { refusalNotices } from './platform/refusal-notices.ts';
import { nodeRuntime } from './runtime/node.ts';
import type { Latency } from './platform/network-faults.ts';
import type { RateLimitConfig } from './platform/rate-limit.ts';
import { API_BASE, specIndex } from './platform/spec.ts';
import type { ReadingsChoice } from './readings/active.ts';
import { readingsContract } from './readings/contract.ts';
import { checkSeed, readSeedFile } from './seed/load.ts';
import { ENGINE_KEEP_ALIVE_MS } from './prism/raw-forward.ts';
import type { Profile } from '../judge/live.ts';
import type { UpstreamProxy } from './upstream/proxy.ts';

/**
 * Lines written together once per turn of the event loop: under load, one write per exchange (console.log's, to a
 * pipe) cost the proxy about a tenth of its time.
 */
function batchedLines(write: (text: string) => void): (line: string) => void {
  let pending: string[] = [];
  const flush = () => {
    write(`${pending.join('\n')}\n`);
    pending = [];
  };
  return (line) => {
    if (pending.push(line) === 1) setImmediate(flush);
  };
}

/** The proxy in front of `options.upstream`: its forwarder, the judge for the profile, and what it prints. */
async function upstreamProxy(options: MockOptions): Promise<{ proxy: UpstreamProxy; close(): void }> {
  const [{ createForward, DEFAULT_LIMITS }, { createJudge }] = await Promise.all([
    import('./upstream/forward.ts'),
    import('../judge/live.ts'),
  ]);
  const base = options.upstream!;
  const { forward, close } = createForward(new URL(base), { ...DEFAULT_LIMITS, ...options.upstreamLimits });
  const onExchange = options.onExchange ?? (options.quiet ? undefined : batchedLines((text) => process.stdout.write(text)));
  const proxy = { base, forward, judge: createJudge(options.profile ?? 'documented'), errors: options.upstreamErrors ?? false, onExchange };
  return { proxy, close };
}

export type MockMode = 'default' | 'engine-only' | 'static' | 'upstream';

export interface MockOptions {
  port?: number;
  /**
   * The second, internal loopback port (default mode: the engine, reached by CORS preflights, /__mock and paths the
   * spec does not have; --static: Prism). 0 or omitted: any free port. Engine-only and --upstream open none.
   */
  internalPort?: number;
  host?: string;
  /** A seed file path, or a seed object; the default seed when omitted. */
  seed?: string | SeedFile;
  timeScale?: number;
  rateLimit?: RateLimitConfig;
  strict?: boolean;
  mode?: MockMode;
  state?: string;
  allowPrivateWebhooks?: boolean;
  /** Contract violations (default mode) are reported here; stderr when omitted, nowhere when quiet. */
  onViolation?: (line: string) => void;
  quiet?: boolean;
  /** Replaces the API's features (tests of the platform itself). */
  features?: readonly FeatureFactory[];
  /** Page origins allowed to read API answers besides loopback ones (--cors-origin); `*` for every origin. */
  corsOrigins?: readonly string[];
  /** API requests the request journal keeps (--journal-size; default 500; 0: none). */
  journalSize?: number;
  /** Every API answer waits this long first (--latency): ms, or a range [min, max] drawn per request. */
  latency?: Latency;
  /** Host names the API answers besides IP literals, localhost, *.localhost and `host` (--allowed-host; `all`: any). */
  allowedHosts?: readonly string[];
  /** One line per origin or host refused for the first time, with the flag that allows it; stderr when omitted, nowhere when quiet. */
  onRefusal?: (line: string) => void;
  /** The peer of the public socket (tests inject a non-loopback address here). */
  peerOf?: (req: IncomingMessage) => string | undefined;
  /** --upstream: the real service's base URL (with /ext-api/v1); every API request goes there, judged (mode `upstream`). */
  upstream?: string;
  /** --upstream-errors: a response that breaks a rule is answered 502 with the violations. */
  upstreamErrors?: boolean;
  /** --upstream: the bounds of one upstream answer (its whole time, its size); tests shorten them. */
  upstreamLimits?: Partial<ForwardLimits>;
  /** --profile: the rules the upstream is judged by (documented by default; all adds the kit's assumptions). */
  profile?: Profile;
  /** --upstream: one line per exchange; stdout when omitted, nowhere when quiet. */
  onExchange?: (line: string) => void;
  /** --reading / --readings: readings of the document to play (spec/readings.yaml); none by default. */
  readings?: ReadingsChoice;
}

export interface RunningMock {
  /** Base URL of the API, e.g. http://127.0.0.1:4010/ext-api/v1. */
  url: string;
  /** Base URL of the control API, e.g. http://127.0.0.1:4010/__mock (only /health in static mode). */
  controlUrl: string;
  mode: MockMode;
  /** The seed's organizations and keys (the banner); always resident. */
  organizations: SeedFile['organizations'];
  keys: SeedFile['keys'];
  /** The whole seed; a seed file is read again when asked for (the engine does not keep it resident). */
  readonly seed: SeedFile;
  rateLimit: RateLimitConfig;
  /** The engine (absent in static mode), for in-process tests. */
  engine?: Engine;
  close(): Promise<void>;
}

function listen(server: Server | ServerType, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server | ServerType): Promise<void> {
  return new Promise((resolve) => {
    (server as Server).closeAllConnections?.();
    server.close(() => resolve());
  });
}

const origin = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Adds `seed` as a getter: read on demand, kept only while someone holds it. */
function withSeed(m: Omit<RunningMock, 'seed'>, load: () => SeedFile): RunningMock {
  let cached: WeakRef<SeedFile> | undefined;
  return Object.defineProperty(m as RunningMock, 'seed', {
    enumerable: true,
    get() {
      let s = cached?.deref();
      if (!s) cached = new WeakRef((s = load()));
      return s;
    },
  });
}

/** startMock's options with their defaults, and what its steps share. */
interface Setup {
  options: MockOptions;
  host: string;
  mode: MockMode;
  loadSeed: () => SeedFile;
  rateLimit: RateLimitConfig;
  cors: CorsPolicy;
  /** The terminal's line for a refused origin or host (nowhere when quiet). */
  notice?: (refusal: Refusal) => void;
  gateOptions: GateOptions;
}

/** A seed file is read again on demand; a seed object is checked once, and kept. */
function seedLoader(given: MockOptions['seed']): () => SeedFile {
  if (typeof given !== 'object') return () => readSeedFile(given);
  const seed = checkSeed(given);
  return () => seed;
}

function resolveOptions(options: MockOptions): Setup {
  const host = options.host ?? '127.0.0.1';
  const loadSeed = seedLoader(options.seed);
  const print = options.onRefusal ?? (options.quiet ? undefined : (l: string) => console.error(l));
  return {
    options,
    host,
    mode: options.upstream ? 'upstream' : (options.mode ?? 'default'),
    loadSeed,
    rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT,
    cors: corsPolicy(options.corsOrigins),
    notice: print ? refusalNotices(print) : undefined,
    gateOptions: { boundHost: host, peerOf: options.peerOf, allowedHosts: options.allowedHosts },
  };
}

/** --static: Prism's plain mock from the spec; no engine, and the seed only for the banner's keys. */
async function startStatic(setup: Setup): Promise<RunningMock> {
  const { startStaticMock } = await import('./prism/static.ts');
  const { organizations, keys } = setup.loadSeed(); // a bad seed file is refused in every mode
  const gate = createGate({ ...setup.gateOptions, onRefused: (r) => setup.notice?.(r.refusal) });
  const started = await startStaticMock(setup.options.port ?? 4010, setup.host, {
    gate,
    cors: setup.cors,
    boundHost: setup.host,
    onRefusal: setup.notice,
    internalPort: setup.options.internalPort,
  });
  const m = {
    url: `${origin(setup.host, started.port)}${API_BASE}`,
    controlUrl: `${origin(setup.host, started.port)}/__mock`,
    mode: setup.mode,
    organizations,
    keys,
    rateLimit: setup.rateLimit,
    close: started.close,
  };
  return withSeed(m, setup.loadSeed);
}

/** The engine of every other mode; `config` gets the public URL once the front listens. */
function startEngine(setup: Setup, config: EngineConfig, upstream: UpstreamProxy | undefined): Promise<Engine> {
  const { options } = setup;
  return createEngine({
    upstream,
    runtime: nodeRuntime,
    seed: setup.loadSeed,
    timeScale: options.timeScale,
    rateLimit: setup.rateLimit,
    statePath: options.state,
    allowPrivateWebhooks: options.allowPrivateWebhooks,
    config,
    mode: setup.mode,
    features: options.features,
    cors: setup.cors,
    behindFront: setup.mode === 'default',
    boundHost: setup.host,
    journalSize: options.journalSize,
    latency: options.latency,
    readings: options.readings,
    onRefusal: setup.notice,
  });
}

/** What a front needs of the engine: its gate, and where a request the front refuses is reported. */
interface FrontParts {
  gate: Gate;
  onRefused: (r: FrontRefusal) => void;
}

function frontParts(setup: Setup, engine: Engine): FrontParts {
  // Refused before the engine: journaled there, and the terminal's line.
  const onRefused = (r: FrontRefusal) => {
    setup.notice?.(r.refusal);
    engine.recordRefused(r);
  };
  return { gate: createGate({ ...setup.gateOptions, rateHeaders: engine.rateHeadersFor, onRefused }), onRefused };
}

/** The servers a front has opened so far: closed again if a later step fails. */
type Opened = Array<Server | ServerType>;

/** Engine-only and upstream: the engine itself on the public port. */
async function serveEngine(setup: Setup, engine: Engine, { gate, onRefused }: FrontParts, servers: Opened): Promise<number> {
  const listener = getRequestListener(nodeFetch(engine.app.fetch));
  // FaultingResponse: an answer marked with a network fault (drop, reset, timeout) is acted out on the socket.
  const ServerResponse = reportingResponses(engine.journal.settle);
  const pub = createServer({ requireHostHeader: false, ServerResponse }, (req, res) => {
    if (gate(req, res)) void listener(req, res);
  });
  shapeClientErrors(pub, engine.rateHeadersFor, onRefused);
  servers.push(pub);
  return listen(pub, setup.options.port ?? 4010, setup.host);
}

/** Default mode: the engine on an internal loopback port, Prism's validating proxy in front of it on the public one. */
async function servePrismFront(setup: Setup, engine: Engine, { gate, onRefused }: FrontParts, servers: Opened): Promise<number> {
  const { options } = setup;
  const engineServer = createAdaptorServer({ fetch: nodeFetch(engine.app.fetch) }) as Server;
  engineServer.keepAliveTimeout = ENGINE_KEEP_ALIVE_MS;
  servers.push(engineServer);
  const enginePort = await listen(engineServer, options.internalPort ?? 0, '127.0.0.1');
  const [{ createValidatingProxy }, { prismOperations }, { createUpstream }, { prismLogger }] = await Promise.all([
    import('./prism/proxy.ts'),
    import('./prism/operations.ts'),
    import('./prism/raw-forward.ts'),
    import('./prism/silent-logger.ts'),
  ]);
  const upstream = createUpstream('127.0.0.1', enginePort);
  const proxy = createValidatingProxy({
    operations: await prismOperations(readingsContract(specIndex().bundle, engine.readings)),
    upstream,
    engine: engine.app.fetch,
    strict: options.strict ?? false,
    logger: prismLogger(false) as never,
    onViolation: options.onViolation ?? (options.quiet ? undefined : (l: string) => console.error(`[contract violation] ${l}`)),
    onViolations: (id, v, answered) => engine.journal.addViolations(id, v, answered),
    onHeld: engine.journal.settle,
    gate,
    cors: setup.cors,
  });
  shapeClientErrors(proxy, engine.rateHeadersFor, onRefused);
  proxy.on('close', () => upstream.agent.destroy());
  servers.push(proxy);
  return listen(proxy, options.port ?? 4010, setup.host);
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const setup = resolveOptions(options);
  if (setup.mode === 'static') return startStatic(setup);
  const config = { publicBaseUrl: '' };
  const upstream = options.upstream ? await upstreamProxy(options) : undefined;
  const engine = await startEngine(setup, config, upstream?.proxy);
  const front = frontParts(setup, engine);
  const servers: Opened = [];
  try {
    const serve = setup.mode === 'engine-only' || setup.mode === 'upstream' ? serveEngine : servePrismFront;
    const port = await serve(setup, engine, front, servers);
    const base = origin(setup.host === '0.0.0.0' || setup.host === '::' ? '127.0.0.1' : setup.host, port);
    config.publicBaseUrl = `${base}${API_BASE}`;
    return withSeed(
      {
        url: `${base}${API_BASE}`,
        controlUrl: `${base}/__mock`,
        mode: setup.mode,
        organizations: engine.organizations,
        keys: engine.keys,
        rateLimit: setup.rateLimit,
        engine,
        async close() {
          for (const server of servers.reverse()) await closeServer(server);
          upstream?.close();
          await engine.close();
        },
      },
      setup.loadSeed,
    );
  } catch (e) {
    for (const server of servers) await closeServer(server).catch(() => {});
    upstream?.close();
    await engine.close();
    throw e;
  }
}
