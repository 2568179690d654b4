// An in-memory implementation of mock/engine/deps.ts for module tests: no server, no disk, no auth. The clock,
// faults and events are fakes (controllable, recording); the store is the engine's own (in memory: live rows,
// duplicate ids refused, the engine's external_id namespace), and validation and responses are the platform's own,
// compiled from the bundled spec, so that a module's rows and 400s behave exactly as they will in the engine.
import { Hono } from 'hono';
import { loadBundle } from '../../spec/runtime/bundle.ts';
import { createClock as createEngineClock } from '../engine/clock.ts';
import { createResponses } from '../engine/responses.ts';
import { createValidator } from '../engine/validator.ts';
import { EXTERNAL_ID_NAMESPACE } from '../engine/modules.ts';
import { createStore } from '../engine/store.ts';
import type {
  AuthInfo,
  Clock,
  EngineApp,
  EngineDeps,
  EngineEnv,
  EngineModule,
  Events,
  FaultKind,
  SeedFile,
  Validator,
} from '../engine/deps.ts';

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

function createFaults() {
  // Keyed by kind and scope ('' = unscoped), like the engine's: a scoped fault first, else an unscoped one.
  const counts = new Map<string, number>();
  const takeOne = (key: string) => {
    const n = counts.get(key) ?? 0;
    if (n <= 0) return false;
    counts.set(key, n - 1);
    return true;
  };
  return {
    set(kind: Exclude<FaultKind, 'http'>, count = 1, scope = '') {
      counts.set(`${kind}|${scope}`, count);
    },
    take(kind: Exclude<FaultKind, 'http'>, scope?: string) {
      return (scope !== undefined && takeOne(`${kind}|${scope}`)) || takeOne(`${kind}|`);
    },
    takeScoped(kind: Exclude<FaultKind, 'http'>, scope: string) {
      return takeOne(`${kind}|${scope}`);
    },
  };
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
const sharedValidator = () => (compiled ??= createValidator(loadBundle()));

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
  /** Runs every module's seed(), in order. */
  seed(seed: SeedFile): Promise<void>;
  close(): void;
}

export function createHarness(modules: EngineModule[], opts: { timeScale?: number; validator?: Validator } = {}): Harness {
  const validator = opts.validator ?? sharedValidator();
  const clock = createClock(opts.timeScale ?? 0.001);
  const faults = createFaults();
  const recorded = createRecordingEvents();
  const deps: EngineDeps = {
    store: createStore({ externalIdNamespace: EXTERNAL_ID_NAMESPACE }),
    validator,
    responses: createResponses(validator),
    clock,
    faults,
    events: recorded.events,
    config: { publicBaseUrl: 'http://127.0.0.1:4010/ext-api/v1' },
    organizations: ['org-1', 'org-2'],
  };
  const api: EngineApp = new Hono<EngineEnv>();
  api.use(async (c, next) => {
    const org = c.req.header('x-test-org') ?? 'org-1';
    const auth: AuthInfo = { key_id: 'k', organization_id: org, provider_id: 'provider-1', scopes: ['*'] };
    c.set('auth', auth);
    await next();
  });
  const control = new Hono();
  for (const m of modules) {
    m.routes?.(api, deps);
    m.control?.(control, deps);
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
    app,
    api: (path, init = {}) => {
      const { org, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (org) headers.set('x-test-org', org);
      return Promise.resolve(app.request(`${base}/ext-api/v1${path}`, { ...rest, headers }));
    },
    control: (path, init) => Promise.resolve(app.request(`${base}/__mock${path}`, init)),
    seed: async (seed) => {
      for (const m of modules) await m.seed?.(seed, deps);
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
