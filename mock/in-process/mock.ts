// The mock in-process: the engine's `app.fetch` behind a fetch function, no server and no Prism hop. Shared by the
// Node entry (node.ts: the node runtime, webhooks through a fetch) and the browser entry (browser.ts: the web
// runtime); each hands in its runtime and its default seed, nothing here asks where it runs. With `strict`, every
// API answer is checked against the contract (platform/response-check.ts), as Prism checks the CLI mock's.
import { createEngine, type Engine } from '../engine.ts';
import { CONTROL_PREFIX, isControlPath } from '../platform/loopback.ts';
import { checkLatency, FAULT_HEADER, type Latency, MAX_FAULT_MS, parseLatency } from '../platform/network-faults.ts';
import { createResponseCheck, type ResponseCheck } from '../platform/response-check.ts';
import type { ReadingsChoice } from '../readings/active.ts';
import { readingsContract } from '../readings/contract.ts';
import { parseRateLimit, type RateLimitConfig } from '../platform/rate-limit.ts';
import { API_BASE, isApiPath, specIndex } from '../platform/spec.ts';
import type { SeedFile } from '../platform/deps.ts';
import type { AdapterEnv } from '../platform/adapter.ts';
import type { EngineRuntime } from '../runtime/types.ts';
import { checkSeed } from '../seed/check.ts';
import { deliverFault } from './fault-delivery.ts';

export const DEFAULT_BASE_URL = `http://127.0.0.1:4010${API_BASE}`;

export interface MockOptions {
  /** Where the app believes the API is; default the CLI mock's http://127.0.0.1:4010/ext-api/v1. Its path must be /ext-api/v1. */
  baseUrl?: string;
  /** Your own data, in the format of mock/seed/default.json; default the CLI mock's seed. */
  seed?: SeedFile;
  /** Multiplies every simulated duration: 0.01 makes extraction and regeneration 100x faster. */
  timeScale?: number;
  /** Requests per key per window: `{ requests, seconds }` or the CLI's `'<n>/<s>'`; default 1200/60. */
  rateLimit?: RateLimitConfig | string;
  /** Each API answer is checked against the contract; one outside it becomes a 500 naming the violations. */
  strict?: boolean;
  /** Readings of the document to play (spec/readings.yaml): ids, 'all', or { random: seed }; none by default. */
  readings?: ReadingsChoice;
  /** The fetch webhooks are delivered with; default the global fetch, looked up at each delivery (MSW's, when set). */
  webhookFetch?: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
  /** As the CLI's --allow-private-webhooks: receivers on loopback or private addresses, also over plain http. */
  allowPrivateWebhooks?: boolean;
  /** Every API answer waits this long first, in ms: `300`, a range `[100, 800]` or the CLI's `'100-800'`. */
  latency?: number | readonly [number, number] | string;
}

/** A key of the seed, as GET /__mock/keys lists it. */
export type MockKey = Omit<SeedFile['keys'][number], 'label'>;

export interface InProcessMock {
  /** A fetch answered by the engine: the API under `baseUrl`, the control API under `controlUrl`; anything else rejects. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  readonly baseUrl: string;
  /** The control API (faults, reset, keys, webhooks, sessions), answered by `fetch`. */
  readonly controlUrl: string;
  /** The seed's keys, as GET /__mock/keys lists them. */
  readonly keys: readonly MockKey[];
  /** Back to the seed: rows, faults, rate-limit windows and delivery history; webhook registrations kept. */
  reset(): Promise<void>;
  /** Stops timers and deliveries; `fetch` rejects afterwards. */
  close(): Promise<void>;
}

/** What an entry (node.ts, browser.ts) supplies. */
export interface MockHost {
  runtime: EngineRuntime;
  defaultSeed(): SeedFile;
}

/** The path of a serialized URL whose origin ends at `from`: up to its query or fragment. */
function pathOf(href: string, from: number): string {
  let end = from;
  while (end < href.length && href[end] !== '?' && href[end] !== '#') end++;
  return href.slice(from, end);
}

/** The in-process caller is this program itself: a loopback peer, as a local client of the CLI mock is. */
const IN_PROCESS: AdapterEnv = Object.freeze({ peer: '127.0.0.1' });

function baseOf(given: string | undefined): URL {
  const text = given ?? DEFAULT_BASE_URL;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || !/^https?:$/.test(url.protocol)) throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(given)}`);
  if (url.pathname.replace(/\/$/, '') !== API_BASE || url.search || url.hash)
    throw new TypeError(`baseUrl must end in ${API_BASE} with no query (the API's path), got ${JSON.stringify(given)}`);
  return url;
}

function latencyOf(given: MockOptions['latency']): Latency | undefined {
  if (given === undefined) return undefined;
  const parsed = typeof given === 'string' ? parseLatency(given) : checkLatency(given);
  if (parsed === undefined || typeof parsed === 'string')
    throw new TypeError(
      `latency must be milliseconds from 0 to ${MAX_FAULT_MS}: 300, [100, 800] or '100-800'; got ${JSON.stringify(given)}`,
    );
  return parsed;
}

function rateOf(given: MockOptions['rateLimit']): RateLimitConfig | undefined {
  if (given === undefined) return undefined;
  const parsed = typeof given === 'string' ? parseRateLimit(given) : given;
  if (!parsed || !(Number.isInteger(parsed.requests) && parsed.requests > 0) || !(Number.isFinite(parsed.seconds) && parsed.seconds > 0))
    throw new TypeError(`rateLimit must be { requests, seconds } or '<n>/<s>' with positive numbers, got ${JSON.stringify(given)}`);
  return parsed;
}

export async function createInProcessMock(options: MockOptions = {}, host: MockHost): Promise<InProcessMock> {
  if (!options || typeof options !== 'object') throw new TypeError('createMock takes an options object');
  const base = baseOf(options.baseUrl);
  if (options.timeScale !== undefined && !(Number.isFinite(options.timeScale) && options.timeScale > 0))
    throw new TypeError(`timeScale must be a positive number, got ${JSON.stringify(options.timeScale)}`);
  if (options.webhookFetch !== undefined && typeof options.webhookFetch !== 'function')
    throw new TypeError('webhookFetch must be a function');
  // A function: the engine reads it at start (a bad seed rejects createMock) and again on reset, since seeding may
  // consume the rows of the seed it was handed.
  const given = options.seed;
  const seed = given === undefined ? host.defaultSeed : () => checkSeed(structuredClone(given), 'seed option');
  const baseUrl = `${base.origin}${API_BASE}`;
  const engine: Engine = await createEngine({
    runtime: host.runtime,
    seed,
    timeScale: options.timeScale,
    rateLimit: rateOf(options.rateLimit),
    latency: latencyOf(options.latency),
    allowPrivateWebhooks: options.allowPrivateWebhooks ?? false,
    config: { publicBaseUrl: baseUrl },
    mode: 'in-process',
    // The control API checks Host against loopback names or this one: the page's or test's own choice of origin.
    boundHost: base.hostname,
    readings: options.readings,
  });
  const check = options.strict ? strictCheck(createResponseCheck(readingsContract(specIndex().bundle, engine.readings))) : undefined;
  let closed = false;

  const fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    if (closed) throw new TypeError('mock.fetch: the mock is closed');
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    // request.url is already parsed and serialized (origin in lower case, dot segments resolved): compared as text,
    // with no second URL parse per request.
    const href = request.url;
    const path = href.startsWith(base.origin) ? pathOf(href, base.origin.length) : '';
    const api = isApiPath(path);
    if (!(api || isControlPath(path)))
      throw new TypeError(`mock.fetch answers ${baseUrl} and ${base.origin}${CONTROL_PREFIX} only, not ${href}`);
    const response = await engine.app.fetch(request, IN_PROCESS);
    // A network fault's answer is met as the network delivers it, and is never the contract's to judge.
    const fault = api ? response.headers.get(FAULT_HEADER) : null;
    if (fault !== null) return deliverFault(fault, response, request, engine.journal.settle);
    return check && api ? check(request.method, path.slice(API_BASE.length) || '/', response) : response;
  };

  return {
    fetch,
    baseUrl,
    controlUrl: `${base.origin}${CONTROL_PREFIX}`,
    keys: Object.freeze(
      engine.keys.map(({ key, organization_id, provider_id, scopes, state }) =>
        Object.freeze({ key, organization_id, provider_id, scopes: [...scopes], state }),
      ),
    ),
    reset: () => engine.reset(),
    async close() {
      if (closed) return;
      closed = true;
      await engine.close();
    },
  };
}

/** Wraps answers of documented operations: a violation becomes a 500 naming it (and is logged), as Prism's --strict does. */
export function strictCheck(responses: ResponseCheck) {
  const spec = specIndex();
  return async (method: string, path: string, response: Response): Promise<Response> => {
    const op = spec.match(method, path)?.op;
    if (!op || method === 'HEAD') return response;
    const text = await response.clone().text();
    let body: unknown = text;
    if (/\bjson\b/i.test(response.headers.get('content-type') ?? '') && text !== '')
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    const violations = responses.violations(op.operationId, response.status, response.headers, body);
    if (!violations.length) return response;
    console.error(`[mock strict] ${method} ${path} -> ${response.status}: ${violations.join('; ')}`);
    return Response.json(
      {
        error: 'The engine answered outside the contract and the mock runs with strict: true.',
        details: { violations, status: response.status },
      },
      { status: 500, headers: { 'sl-violations': JSON.stringify(violations).slice(0, 8000) } },
    );
  };
}
