// EngineDeps (mock/platform/deps.ts) for feature tests: no server, no disk, no auth. The store, validation,
// responses and faults are the platform's own (the store in memory, the validator compiled from the bundled spec), so a
// feature behaves and answers exactly as it will in the engine; the clock can be shifted, and events are recorded.
import { Hono } from 'hono';
import { createClock as createEngineClock } from '../platform/clock.ts';
import { EXTERNAL_ID_NAMESPACE } from '../platform/collections.ts';
import { createFaults as createEngineFaults } from '../platform/faults.ts';
import { routeOperation, routeTable } from '../platform/pipeline.ts';
import { createResponses } from '../platform/responses.ts';
import { specIndex } from '../platform/spec.ts';
import { createStore } from '../platform/store.ts';
import { createValidator } from '../platform/validator.ts';
import { activeReadings, type ReadingsChoice } from '../readings/active.ts';
import { playReadings } from '../readings/play.ts';
import type {
  AuthInfo,
  Clock,
  EngineDeps,
  EngineEnv,
  Events,
  FaultKind,
  Feature,
  FeatureFactory,
  SeedFile,
  Validator,
} from '../platform/deps.ts';

// ---------- clock, faults, events ----------

interface FakeClock extends Clock {
  /** Moves now() forward without firing anything (for windows such as idempotency). */
  shift(ms: number): void;
  /** Timers scheduled and not yet run or cancelled. */
  pending(): number;
  close(): void;
}

function createClock(timeScale: number): FakeClock {
  let offset = 0;
  const clock = createEngineClock(timeScale, () => new Date(Date.now() + offset));
  return { ...clock, shift: (ms) => void (offset += ms), close: () => clock.cancelAll() };
}

/** The engine's faults, with `set` to arm one as POST /__mock/faults does (`scope` omitted: unscoped). */
function createFaults() {
  const faults = createEngineFaults();
  return Object.assign(faults, {
    set(kind: Exclude<FaultKind, 'http'>, count = 1, scope?: string) {
      faults.add({ kind, count, ...(scope !== undefined ? { scope } : {}) });
    },
  });
}

type RecordedEvent =
  | { type: 'note'; org: string; kind: string; note: Parameters<Events['note']>[2]; source: string | null }
  | { type: 'document'; org: string; doc: Parameters<Events['documentStatusChanged']>[1] };

function createRecordingEvents() {
  const log: RecordedEvent[] = [];
  const events: Events = {
    note: (org, kind, note, source) => void log.push({ type: 'note', org, kind, note, source }),
    documentStatusChanged: (org, doc) => void log.push({ type: 'document', org, doc }),
  };
  return { events, log };
}

// ---------- the harness ----------

let compiled: Validator | undefined;
/** Compiling the spec takes a while: one validator serves every harness of a test file. */
const sharedValidator = () => (compiled ??= createValidator(specIndex().bundle));

export interface Harness {
  deps: EngineDeps;
  clock: FakeClock;
  faults: ReturnType<typeof createFaults>;
  events: RecordedEvent[];
  /** A request against /ext-api/v1 (path relative to it) as `org` (default 'org-1'). */
  api(path: string, init?: RequestInit & { org?: string }): Promise<Response>;
  /** A request against /__mock. */
  control(path: string, init?: RequestInit): Promise<Response>;
  app: Hono;
  /** The features, built in the order given. */
  features: Feature[];
  /** The feature of that name (its own state: e.g. the documents feature's extractor). */
  feature<T extends Feature = Feature>(name: string): T;
  /** Runs every feature's seed(), in order. */
  seed(seed: SeedFile): Promise<void>;
  close(): void;
}

export function createHarness(
  factories: FeatureFactory[],
  opts: { timeScale?: number; validator?: Validator; readings?: ReadingsChoice } = {},
): Harness {
  const validator = opts.validator ?? sharedValidator();
  const clock = createClock(opts.timeScale ?? 0.001);
  const faults = createFaults();
  const recorded = createRecordingEvents();
  const store = createStore({ externalIdNamespace: EXTERNAL_ID_NAMESPACE });
  const readings = playReadings(activeReadings(opts.readings), store);
  const deps: EngineDeps = {
    store,
    validator,
    responses: createResponses(validator, readings),
    readings,
    clock,
    faults,
    events: recorded.events,
    config: { publicBaseUrl: 'http://127.0.0.1:4010/ext-api/v1' },
    organizations: ['org-1', 'org-2'],
  };
  const api = new Hono<EngineEnv>();
  // The platform's own operation lookup (features read the operation it sets); then any caller is `org` with every scope.
  const lookup = routeOperation(specIndex(), deps.responses);
  const routes = routeTable(api, (route) => (c) => {
    const refused = lookup(c);
    if (refused) return refused;
    const org = c.req.header('x-test-org') ?? 'org-1';
    c.set('auth', { key_id: 'k', organization_id: org, provider_id: 'provider-1', scopes: ['*'] } satisfies AuthInfo);
    return route(c);
  });
  const control = new Hono();
  const features = factories.map((build) => build(deps));
  for (const f of features) {
    f.routes?.(routes);
    f.control?.(control);
  }
  const app = new Hono();
  app.route('/ext-api/v1', api);
  app.route('/__mock', control);
  app.onError((err, c) => c.json({ error: `unhandled: ${err.message}` }, 500));
  const base = 'http://127.0.0.1';
  return {
    deps,
    clock,
    faults,
    events: recorded.log,
    features,
    feature<T extends Feature = Feature>(name: string) {
      const f = features.find((x) => x.name === name);
      if (!f) throw new Error(`no feature ${name} in this harness`);
      return f as T;
    },
    app,
    api: (path, init = {}) => {
      const { org, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (org) headers.set('x-test-org', org);
      return Promise.resolve(app.request(`${base}/ext-api/v1${path}`, { ...rest, headers }));
    },
    control: (path, init) => Promise.resolve(app.request(`${base}/__mock${path}`, init)),
    seed: async (seed) => {
      for (const f of features) await f.seed?.(seed);
    },
    close: () => clock.close(),
  };
}

/** Polls until `check` returns a value other than undefined/false, at most `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
