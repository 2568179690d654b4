// startMock(): the mock as a library (tests, the conformance suite, the CLI). Three modes:
//   default      Prism's validation proxy on the public port, handing operations to the engine in process
//                (app.fetch); the rest is streamed to the engine on an internal loopback port;
//   engine-only  the engine alone on the public port (no Prism hop; load work);
//   static       Prism's plain mock from the spec, no engine, no state.
import type { ForwardLimits } from './upstream/forward.ts';
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createAdaptorServer, getRequestListener, type ServerType } from '@hono/node-server';
import { corsPolicy } from './platform/cors.ts';
import { shapeClientErrors } from './front/client-error.ts';
import { reportingResponses } from './front/fault-delivery.ts';
import { createGate } from './front/gate.ts';
import { nodeFetch } from './front/node-env.ts';
import type { FeatureFactory, SeedFile } from './platform/deps.ts';
import { createEngine, DEFAULT_RATE_LIMIT, type Engine } from './engine.ts';
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

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  const mode: MockMode = options.upstream ? 'upstream' : (options.mode ?? 'default');
  const given = options.seed;
  const loadSeed =
    typeof given === 'object'
      ? (
          (s: SeedFile) => () =>
            s
        )(checkSeed(given))
      : () => readSeedFile(given);
  const rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  const onViolation = options.onViolation ?? (options.quiet ? undefined : (l: string) => console.error(`[contract violation] ${l}`));

  const print = options.onRefusal ?? (options.quiet ? undefined : (l: string) => console.error(l));
  const notice = print ? refusalNotices(print) : undefined;
  const gateOptions = { boundHost: host, peerOf: options.peerOf, allowedHosts: options.allowedHosts };

  const cors = corsPolicy(options.corsOrigins);
  if (mode === 'static') {
    const { startStaticMock } = await import('./prism/static.ts');
    const { organizations, keys } = loadSeed(); // a bad seed file is refused in every mode
    const gate = createGate({ ...gateOptions, onRefused: (r) => notice?.(r.refusal) });
    const s = await startStaticMock(options.port ?? 4010, host, {
      gate,
      cors,
      boundHost: host,
      onRefusal: notice,
      internalPort: options.internalPort,
    });
    const m = {
      url: `${origin(host, s.port)}${API_BASE}`,
      controlUrl: `${origin(host, s.port)}/__mock`,
      mode,
      organizations,
      keys,
      rateLimit,
      close: s.close,
    };
    return withSeed(m, loadSeed);
  }

  const config = { publicBaseUrl: '' };
  const upstream = options.upstream ? await upstreamProxy(options) : undefined;
  const engine = await createEngine({
    upstream: upstream?.proxy,
    runtime: nodeRuntime,
    seed: loadSeed,
    timeScale: options.timeScale,
    rateLimit,
    statePath: options.state,
    allowPrivateWebhooks: options.allowPrivateWebhooks,
    config,
    mode,
    features: options.features,
    cors,
    behindFront: mode === 'default',
    boundHost: host,
    journalSize: options.journalSize,
    latency: options.latency,
    readings: options.readings,
    onRefusal: notice,
  });
  // Refused before the engine: journaled there, and the terminal's line.
  const onRefused = (r: FrontRefusal) => {
    notice?.(r.refusal);
    engine.recordRefused(r);
  };
  const gate = createGate({ ...gateOptions, rateHeaders: engine.rateHeadersFor, onRefused });
  const servers: Array<Server | ServerType> = [];
  try {
    let port: number;
    if (mode === 'engine-only' || mode === 'upstream') {
      const listener = getRequestListener(nodeFetch(engine.app.fetch));
      // FaultingResponse: an answer marked with a network fault (drop, reset, timeout) is acted out on the socket.
      const ServerResponse = reportingResponses(engine.journal.settle);
      const pub = createServer({ requireHostHeader: false, ServerResponse }, (req, res) => {
        if (gate(req, res)) void listener(req, res);
      });
      shapeClientErrors(pub, engine.rateHeadersFor, onRefused);
      servers.push(pub);
      port = await listen(pub, options.port ?? 4010, host);
    } else {
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
        onViolation,
        onViolations: (id, v, answered) => engine.journal.addViolations(id, v, answered),
        onHeld: engine.journal.settle,
        gate,
        cors,
      });
      shapeClientErrors(proxy, engine.rateHeadersFor, onRefused);
      proxy.on('close', () => upstream.agent.destroy());
      servers.push(proxy);
      port = await listen(proxy, options.port ?? 4010, host);
    }
    const base = origin(host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host, port);
    config.publicBaseUrl = `${base}${API_BASE}`;
    return withSeed(
      {
        url: `${base}${API_BASE}`,
        controlUrl: `${base}/__mock`,
        mode,
        organizations: engine.organizations,
        keys: engine.keys,
        rateLimit,
        engine,
        async close() {
          for (const s of servers.reverse()) await closeServer(s);
          upstream?.close();
          await engine.close();
        },
      },
      loadSeed,
    );
  } catch (e) {
    for (const s of servers) await closeServer(s).catch(() => {});
    upstream?.close();
    await engine.close();
    throw e;
  }
}
