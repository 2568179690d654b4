// Webhook delivery (source: Events > Delivery rules): POST, 30 s timeout, up to 3 attempts with backoff 1 s then 2 s
// (capped at 5 s), all on the engine clock so --time-scale shrinks them; 408, 429, 5xx, timeouts and connection
// errors are retried; a 3xx is a failure and is never followed; other 4xx fail at once; any 2xx delivers. A retry
// sends the very same bytes. Deliveries run in the background, at most 4 attempts at once per destination (a receiver's
// origin) and 256 in all (slots.ts), so a slow or dead receiver never holds up the API or another receiver. The destination is checked again before every attempt, and the
// connection goes to the address that check approved (no second DNS answer can slip in between) when the sender can
// pin it (node:http, send-node.ts; a fetch, send-fetch.ts, cannot: the in-process mock's, see docs/in-process.md).
import type { Clock } from '../../platform/deps.ts';
import type { ResolvedAddress, Resolver } from './destination.ts';
import { onFirstUse } from '../../platform/on-first-use.ts';
import type { EncodedBody as Encoded } from '../../../spec/runtime/webhook-encode.ts';
import type { Payload } from './payloads.ts';
import { createSlots } from './slots.ts';

/** The address checks (ipaddr.js) are loaded with the first webhook, not at start. */
const addressChecks = onFirstUse(() => import('./destination.ts'));

type DeliveryState = 'pending' | 'delivered' | 'failed';

interface Attempt {
  at: string;
  status?: number;
  error?: string;
  duration_ms: number;
  /** The backoff waited before this attempt, in simulated ms (0 for the first): what --time-scale cannot blur. */
  delay_ms?: number;
  /** On an attempt given up for its timeout: that timeout, in simulated ms. */
  timeout_ms?: number;
}

export interface Delivery {
  id: string;
  webhook_id: string;
  event: string;
  payload: Payload;
  state: DeliveryState;
  attempts: Attempt[];
}

/** What a delivery needs of its webhook, captured when the event happens. */
interface Target {
  webhook_id: string;
  url: string;
  headers: Readonly<Record<string, string>>;
}

/**
 * One POST of the body to the receiver; resolves its status (the body is not read), rejects on a connection error
 * (`code` names it when known). Aborted through `signal` on timeout or reset. `addresses`: what the destination check
 * approved, for a sender that can connect to exactly those.
 */
export type Sender = (
  url: URL,
  addresses: readonly ResolvedAddress[],
  headers: Readonly<Record<string, string>>,
  body: Uint8Array<ArrayBuffer>,
  signal: AbortSignal,
) => Promise<number>;

export interface DelivererOptions {
  clock: Clock;
  /** How a POST goes out: node:http pinned to the approved address (send-node.ts) or a fetch (send-fetch.ts). */
  send: Sender;
  allowPrivate: boolean;
  resolve: Resolver;
  /** False once the webhook was deleted: its pending retries stop. */
  isRegistered?: (webhookId: string) => boolean;
  timeoutMs?: number;
  maxAttempts?: number;
  /** Simulated delay before attempt n+1 is backoffMs * 2^(n-1), capped. */
  backoffMs?: number;
  backoffCapMs?: number;
  /** A fraction added to each backoff delay (the retry-jitter reading); none by default. */
  jitter?: () => number;
  /** Requests on the wire at once, in all. */
  concurrency?: number;
  /** Requests on the wire at once to one destination (scheme, host and port of the receiver's URL). */
  perDestination?: number;
  /** Deliveries kept for GET /__mock/deliveries; the oldest go first. */
  historyLimit?: number;
  /** Deliveries pending at once; beyond it a new one is recorded failed at once, so memory stays flat. */
  pendingLimit?: number;
}

const DELIVERY_DEFAULTS = {
  timeoutMs: 30_000,
  maxAttempts: 3,
  backoffMs: 1_000,
  backoffCapMs: 5_000,
  concurrency: 256,
  perDestination: 4,
  historyLimit: 1_000,
  pendingLimit: 5_000,
} as const;

const USER_AGENT = 'clinical-records-mock-webhooks/1';

type Outcome = { status: number } | { error: string; retryable: boolean; timedOut?: boolean };

class Aborted extends Error {}

export interface Deliverer {
  /** Records a delivery and starts it in the background; returns the record (live, updated as attempts happen). */
  enqueue(target: Target, event: string, payload: Payload, encoded: Encoded): Delivery;
  /** Records a delivery that could not be attempted (e.g. a payload that breaks the spec). */
  recordFailure(webhookId: string, event: string, payload: Payload, error: string): Delivery;
  list(filter?: { webhook_id?: string; event?: string; webhook_ids?: ReadonlySet<string> }): Delivery[];
  /** Aborts everything in flight and forgets the history (reset). */
  clear(): void;
  /** Resolves once nothing is in flight (tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function createDeliverer(opts: DelivererOptions): Deliverer {
  const o = { ...DELIVERY_DEFAULTS, ...stripUndefined(opts) };
  const history = new Map<string, Delivery>();
  const running = new Map<Promise<void>, AbortController>();
  const slots = createSlots(o.concurrency, o.perDestination);
  let seq = 0;
  let closed = false;

  const remember = (d: Delivery) => {
    history.set(d.id, d);
    while (history.size > o.historyLimit) history.delete(history.keys().next().value!);
  };
  const newRecord = (webhook_id: string, event: string, payload: Payload): Delivery => ({
    id: `dlv_${Date.now().toString(36)}_${(++seq).toString(36)}`,
    webhook_id,
    event,
    payload,
    state: 'pending',
    attempts: [],
  });

  /** Simulated sleep on the engine clock; rejects when the delivery is aborted. */
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(new Aborted());
      const onAbort = () => {
        cancel();
        reject(new Aborted());
      };
      const cancel = o.clock.after(ms, () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });

  async function run(d: Delivery, target: Target, encoded: Encoded, signal: AbortSignal): Promise<void> {
    const destination = destinationOf(target.url);
    for (let n = 1; n <= o.maxAttempts; n++) {
      const delay_ms = n > 1 ? Math.min(o.backoffMs * 2 ** (n - 2) * (1 + (o.jitter?.() ?? 0)), o.backoffCapMs) : 0;
      if (delay_ms) await sleep(delay_ms, signal);
      if (o.isRegistered && !o.isRegistered(target.webhook_id)) {
        d.attempts.push({ at: o.clock.stamp(), error: 'webhook was deleted; delivery stopped', duration_ms: 0 });
        d.state = 'failed';
        return;
      }
      if (!(await slots.acquire(destination, signal))) throw new Aborted();
      const started = o.clock.now();
      const t0 = performance.now();
      let outcome: Outcome;
      try {
        const dest = await (await addressChecks()).checkDestination(target.url, { allowPrivate: o.allowPrivate, resolve: o.resolve });
        if (signal.aborted) throw new Aborted();
        outcome = dest.ok
          ? await post(dest.url, dest.addresses, target.headers, encoded, signal)
          : { error: `destination refused: ${dest.reason}`, retryable: dest.transient === true };
      } finally {
        slots.release(destination);
      }
      const duration_ms = Math.round(performance.now() - t0);
      const at = started.toISOString();
      d.attempts.push(
        'status' in outcome
          ? { at, status: outcome.status, duration_ms, delay_ms }
          : { at, error: outcome.error, duration_ms, delay_ms, ...(outcome.timedOut ? { timeout_ms: o.timeoutMs } : {}) },
      );
      if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) {
        d.state = 'delivered';
        return;
      }
      const retryable = 'status' in outcome ? isRetryableStatus(outcome.status) : outcome.retryable;
      if (!retryable) break;
    }
    d.state = 'failed';
  }

  /** One POST through the sender, redirects not followed, the timeout on the engine clock. */
  async function post(
    url: URL,
    addresses: readonly ResolvedAddress[],
    headers: Target['headers'],
    encoded: Encoded,
    outer: AbortSignal,
  ): Promise<Outcome> {
    const ctl = new AbortController();
    let timedOut = false;
    const cancelTimer = o.clock.after(o.timeoutMs, () => {
      timedOut = true;
      ctl.abort();
    });
    const onOuterAbort = () => ctl.abort();
    outer.addEventListener('abort', onOuterAbort, { once: true });
    const sent = {
      'user-agent': USER_AGENT,
      ...withoutFraming(headers),
      'content-type': encoded.contentType,
      'content-length': String(encoded.body.length),
    };
    try {
      return { status: await o.send(url, addresses, sent, encoded.body, ctl.signal) };
    } catch (e) {
      if (outer.aborted) throw new Aborted();
      if (timedOut) return { error: `timed out after ${o.timeoutMs} ms (simulated)`, retryable: true, timedOut: true };
      const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
      return { error: `connection error: ${err.code ?? err.cause?.code ?? err.cause?.message ?? err.message}`, retryable: true };
    } finally {
      cancelTimer();
      outer.removeEventListener('abort', onOuterAbort);
    }
  }

  function start(d: Delivery, target: Target, encoded: Encoded) {
    const ctl = new AbortController();
    const task = run(d, target, encoded, ctl.signal)
      .catch((e: unknown) => {
        if (e instanceof Aborted) return;
        d.state = 'failed';
        d.attempts.push({ at: o.clock.stamp(), error: `internal error: ${(e as Error).message}`, duration_ms: 0 });
      })
      .finally(() => running.delete(task));
    running.set(task, ctl);
  }

  return {
    enqueue(target, event, payload, encoded) {
      const d = newRecord(target.webhook_id, event, payload);
      remember(d);
      if (closed) return fail(d, 'the mock is shutting down');
      if (running.size >= o.pendingLimit) return fail(d, `too many deliveries pending (${o.pendingLimit}); not attempted`);
      start(d, target, encoded);
      return d;
    },
    recordFailure(webhookId, event, payload, error) {
      const d = newRecord(webhookId, event, payload);
      remember(d);
      return fail(d, error);
    },
    list(filter = {}) {
      return [...history.values()].filter(
        (d) =>
          (!filter.webhook_id || d.webhook_id === filter.webhook_id) &&
          (!filter.event || d.event === filter.event) &&
          (!filter.webhook_ids || filter.webhook_ids.has(d.webhook_id)),
      );
    },
    clear() {
      abortAll();
      history.clear();
    },
    async idle() {
      while (running.size) await Promise.allSettled([...running.keys()]);
    },
    async close() {
      closed = true;
      abortAll();
      await Promise.allSettled([...running.keys()]);
    },
  };

  function fail(d: Delivery, error: string): Delivery {
    d.state = 'failed';
    d.attempts.push({ at: o.clock.stamp(), error, duration_ms: 0 });
    return d;
  }
  function abortAll() {
    // Waiters for a slot leave on their signal's abort.
    for (const ctl of running.values()) ctl.abort();
  }
}

/** What the per-destination limit counts by: the receiver's origin (a URL that does not parse shares one slot group). */
function destinationOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : url;
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** Static headers never replace the body's own Content-Type or Content-Length, whatever their case. */
function withoutFraming(headers: Target['headers']): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-(type|length)$/i.test(k)));
}

function stripUndefined<T extends object>(x: T): T {
  return Object.fromEntries(Object.entries(x).filter(([, v]) => v !== undefined)) as T;
}
