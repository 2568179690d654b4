// The in-process fetch's half of the network faults (mock/platform/network-faults.ts): an answer the engine marked
// with FAULT_HEADER becomes what a fetch meets on such a network.
//   drop     the fetch rejects with a TypeError, as on a network failure;
//   timeout  the fetch stays pending until its signal aborts (it rejects with the signal's reason, as fetch does),
//            else rejects as a network failure once the hold is over (at most 120 s);
//   reset    the fetch resolves with the status and headers, and reading the body fails after its first half.
// clinicalRecordsHandlers (mock/msw.ts) turns these rejections into MSW's network error.
import { type HeldReport, readFaultMark } from '../platform/network-faults.ts';

/** What fetch rejects with when the network fails (Chromium's words; Node's fetch says "fetch failed"). */
const networkError = (why: string) => new TypeError('Failed to fetch', { cause: new Error(`mock network fault: ${why}`) });

/** The answer as the network delivers it, for a marked answer (`mark`: its FAULT_HEADER value). */
export function deliverFault(mark: string, response: Response, request: Request, onHeld?: HeldReport): Response | Promise<Response> {
  const fault = readFaultMark(mark);
  if (!fault) return response; // malformed: a complete answer, sent as it is
  if (fault.kind === 'drop') return Promise.reject(networkError('drop: the connection was closed with no response'));
  if (fault.kind === 'timeout') {
    const { entry } = fault;
    return held(request, fault.holdMs, entry === undefined ? undefined : (ms, gaveUp) => onHeld?.(entry, ms, gaveUp));
  }
  return resetMidway(response);
}

/**
 * Pending until the caller gives up (the request's signal), or rejected as a closed connection after `ms`. The hold's
 * timer keeps the request itself reachable: its signal follows the caller's only while the request lives (undici
 * holds the link weakly), and an unreachable one would never abort.
 */
function held(request: Request, ms: number, ended?: (ms: number, clientGaveUp: boolean) => void): Promise<never> {
  return new Promise((_, reject) => {
    const { signal } = request;
    const t0 = Date.now();
    if (signal.aborted) {
      ended?.(0, true);
      return reject(signal.reason);
    }
    const onAbort = () => {
      clearTimeout(timer);
      ended?.(Math.min(ms, Date.now() - t0), true);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      request.signal.removeEventListener('abort', onAbort);
      ended?.(ms, false);
      reject(networkError(`timeout: no answer; the connection was closed after ${ms} ms`));
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The status and headers, then a body that fails after its first half, as a reset connection's does. */
async function resetMidway(response: Response): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const half = bytes.subarray(0, Math.floor(bytes.length / 2));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (half.length) controller.enqueue(half);
    },
    // Asked for more once the half is read: the connection is gone.
    pull(controller) {
      controller.error(new TypeError('network error', { cause: new Error('mock network fault: reset mid-response') }));
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
