// Network faults, as the engine answers them: `latency` waits before the request goes on, `malformed` turns the answer
// into a 200 whose JSON is cut short, and `drop`, `timeout` and `reset` are answers marked with FAULT_HEADER for the
// transport adapter to act out on its connection (mock/front/fault-delivery.ts on a node socket, the in-process fetch,
// MSW): the engine answers web Request/Response and owns no connection. A transport that does not know the mark
// sends the marked answer as it is: a 502 or 504 `{ error }` saying which fault it stands for.
//
// They act in front of everything the API does (apiFront): a dropped or timed-out request reaches no check and no
// route (nothing is counted or changed), a reset or malformed one runs as usual and its answer is lost or cut. The
// --latency flag (the in-process `latency` option) delays every API answer the same way.
import type { Check } from './pipeline.ts';
import type { EngineContext, NetworkFaultEffect } from './deps.ts';
import { faultScope, type EngineFaults, type Fault } from './faults.ts';
import { answerError } from './responses.ts';
import { API_BASE } from './spec.ts';

/** The response header that marks an answer for the transport (and tells a client which fault it met). */
export const FAULT_HEADER = 'x-mock-fault';

/** The longest delay and the longest hold of a connection, in milliseconds. */
export const MAX_FAULT_MS = 120_000;

/** A delay: fixed, or drawn evenly from [min, max] for each request. */
export type Latency = number | readonly [number, number];

/**
 * What a transport does with a marked answer. A timeout names its journal entry (`entry`) when one was recorded: the
 * transport tells how long the client really waited (HeldReport), which only it knows.
 */
export type TransportFault = { kind: 'drop' } | { kind: 'reset' } | { kind: 'timeout'; holdMs: number; entry?: number };

/** A transport's word on a timeout it acted out: the journal entry, how long it was held, whether the client left first. */
export type HeldReport = (entry: number, ms: number, clientGaveUp: boolean) => void;

/** The mark's text: `drop`, `reset`, `timeout; hold=<ms>[; entry=<id>]` (and `malformed`, which a transport sends as it is). */
export function readFaultMark(value: string | null | undefined): TransportFault | undefined {
  if (!value) return undefined;
  if (value === 'drop' || value === 'reset') return { kind: value };
  const hold = /^timeout; hold=(\d+)(?:; entry=(\d+))?$/.exec(value);
  if (!hold) return undefined;
  const holdMs = Math.min(Number(hold[1]), MAX_FAULT_MS);
  return hold[2] === undefined ? { kind: 'timeout', holdMs } : { kind: 'timeout', holdMs, entry: Number(hold[2]) };
}

/** A timeout's mark with its journal entry (record-requests.ts, once the entry has its id). */
export function markEntry(answer: Response, entry: number): void {
  const mark = answer.headers.get(FAULT_HEADER);
  if (mark?.startsWith('timeout;')) answer.headers.set(FAULT_HEADER, `${mark}; entry=${entry}`);
}

/** A latency from JSON (`300` or `[100, 800]`), or why not. */
export function checkLatency(value: unknown): Latency | string {
  const whole = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= MAX_FAULT_MS;
  if (whole(value)) return value;
  if (Array.isArray(value) && value.length === 2 && whole(value[0]) && whole(value[1]) && value[0] <= value[1]) return [value[0], value[1]];
  return `must be milliseconds from 0 to ${MAX_FAULT_MS}: a number, or [min, max] with min <= max`;
}

/** A latency from the command line (`200` or `100-400`), or undefined. */
export function parseLatency(text: string): Latency | undefined {
  const m = /^(\d{1,6})(?:-(\d{1,6}))?$/.exec(text.trim());
  if (!m) return undefined;
  const checked = checkLatency(m[2] === undefined ? Number(m[1]) : [Number(m[1]), Number(m[2])]);
  return typeof checked === 'string' ? undefined : checked;
}

const delayOf = (l: Latency | undefined): number =>
  l === undefined ? 0 : typeof l === 'number' ? l : l[0] + Math.floor(Math.random() * (l[1] - l[0] + 1));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Where a request's network faults and latency are applied (pipeline.ts's apiFront). */
export interface NetworkDelivery {
  /** False when nothing can apply (no latency, no fault armed): apiFront then skips it, at no cost. */
  readonly active: boolean;
  /** The request's answer as the network delivers it; `answer` runs the checks and the route. */
  deliver(c: EngineContext, answer: () => Response | Promise<Response>): Response | Promise<Response>;
}

/**
 * `identify`: the key check alone (auth.ts's checkKey), run for a dropped or timed-out request, which reaches no other
 * check, so that the journal names the key's label instead of `no key`.
 */
export function networkDelivery(faults: EngineFaults, latency: Latency | undefined, identify?: Check): NetworkDelivery {
  return {
    get active() {
      return latency !== undefined || faults.armed;
    },
    deliver(c, answer) {
      const path = c.req.path;
      const fault = faults.armed
        ? faults.takeNetwork({ method: c.req.method, rel: path.slice(API_BASE.length) || '/', path, scope: faultScope(c) })
        : undefined;
      const delay = fault?.kind === 'latency' ? delayOf(fault.ms) : 0;
      const wait = delayOf(latency) + delay;
      if (fault) c.set('fault', effectOf(fault, delay));
      if (fault && (fault.kind === 'drop' || fault.kind === 'timeout')) identify?.(c);
      const act = () => (fault && fault.kind !== 'latency' ? actOut(c, fault, answer) : answer());
      return wait > 0 ? sleep(wait).then(act) : act();
    },
  };
}

/** The longest a timeout holds the connection unless armed with `ms`. */
const holdOf = (fault: Fault) => (typeof fault.ms === 'number' ? fault.ms : MAX_FAULT_MS);

/** What the fault does to the request, as the journal, the dashboard and the HAR say it. */
function effectOf(fault: Fault, delay: number): NetworkFaultEffect {
  switch (fault.kind) {
    case 'drop':
      return { kind: 'drop', text: 'dropped' };
    case 'timeout':
      return { kind: 'timeout', text: `timed out after ${holdOf(fault)} ms`, heldMs: holdOf(fault) };
    case 'reset':
      return { kind: 'reset', text: 'reset mid-answer' };
    case 'malformed':
      return { kind: 'malformed', text: 'malformed body' };
    default:
      return { kind: 'latency', text: `delayed ${delay} ms` };
  }
}

function actOut(c: EngineContext, fault: Fault, answer: () => Response | Promise<Response>): Response | Promise<Response> {
  switch (fault.kind) {
    case 'drop':
      return answerError(c, { error: 'Injected fault: drop (the connection is closed with no response)' }, 502, {
        [FAULT_HEADER]: 'drop',
      });
    case 'timeout': {
      const hold = holdOf(fault);
      return answerError(c, { error: `Injected fault: timeout (no answer; the connection is closed after ${hold} ms)` }, 504, {
        [FAULT_HEADER]: `timeout; hold=${hold}`,
      });
    }
    case 'reset':
      return Promise.resolve(answer()).then((res) => marked(res, 'reset'));
    default:
      return Promise.resolve(answer()).then(malformed);
  }
}

/** The answer with the mark, its body whole (the transport cuts it). */
async function marked(res: Response, mark: string): Promise<Response> {
  const body = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  headers.set(FAULT_HEADER, mark);
  return new Response(body, { status: res.status, headers });
}

/** A 200 whose JSON is the answer's own text cut in half: a complete HTTP answer no JSON parser accepts. */
async function malformed(res: Response): Promise<Response> {
  const cut = cutJson(await res.text());
  const headers = new Headers(res.headers);
  headers.set(FAULT_HEADER, 'malformed');
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return new Response(cut, { status: 200, headers });
}

/** The first half of a JSON text, never itself valid JSON (an object or array cut before its end never is). */
function cutJson(text: string): string {
  const half = text.slice(0, Math.floor(text.length / 2));
  return /^\s*[[{]/.test(half) ? half : '{"data":';
}
