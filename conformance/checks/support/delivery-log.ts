// The mock's own delivery log (GET /__mock/deliveries), and the timing checks that read it. At --time-scale 0.01 a
// service second is 10 ms, less than a busy machine's scheduling jitter, so gaps measured on a receiver cannot tell
// 1 s from 2 s reliably. With --mock the log says what the sender did in service time (the backoff it waited before
// each attempt, the timeout it gave up on), and what the wait took in real time; the checks then judge:
// - the schedule the document gives (1 s then 2 s, capped at 5 s; a 30 s timeout), exactly, from the log;
// - that the sender really waited that long: a timer never fires early, so the log's real gap is at least the scaled
//   delay (a bound that load can only move further away from failing);
// - that what reached the receiver is what the log says was sent: the receiver's gap or held time agrees with the
//   log's within TIMER_LATENESS_MS, so a sender (or anything between) that adds its own delay still fails.
import type { CheckContext } from '../../run/model.ts';
import type { Obj } from './common.ts';
import { timeScale, waitMs } from '../../run/durations.ts';

/**
 * How late timers and sockets may run on a busy machine, in real milliseconds that no time scale shrinks: at the
 * mock's 0.01 a service second is 10 ms, and a machine at load 10 on 2 cores delays a timer by tens of ms.
 */
export const TIMER_LATENESS_MS = 250;

/** One attempt as the mock logs it: `at` when it began, `duration_ms` real; `delay_ms` and `timeout_ms` simulated. */
export interface LoggedAttempt {
  at?: string;
  status?: number;
  error?: string;
  duration_ms?: number;
  delay_ms?: number;
  timeout_ms?: number;
}

export interface LoggedDelivery {
  state?: string;
  attempts?: LoggedAttempt[];
  payload?: Obj;
}

/** The documented backoff before attempt n (2, 3, ...) in service ms: "1 s then 2 s, capped at 5 s". */
const documentedDelay = (n: number) => Math.min(1_000 * 2 ** (n - 2), 5_000);

/** The documented attempt timeout in service ms: "timeout 30 seconds". */
const DOCUMENTED_TIMEOUT_MS = 30_000;

/** Rounding of the log's millisecond stamps (`at` to the ms, `duration_ms` rounded), against "a timer never fires early". */
const STAMP_MS = 2;

const ms = (x: number) => `${Math.round(x)} ms`;

async function logOf(ctx: CheckContext, hookId: string): Promise<LoggedDelivery[]> {
  const r = await ctx.mock!.call<{ data?: LoggedDelivery[] }>('GET', `/deliveries?webhook_id=${encodeURIComponent(hookId)}`);
  return Array.isArray(r.body?.data) ? r.body.data : [];
}

/** Polls the log until no delivery of the webhook naming `needle` is pending (or a delivery's documented time passes). */
export async function settledLog(ctx: CheckContext, hookId: string, needle: string): Promise<LoggedDelivery[]> {
  const deadline = Date.now() + waitMs('delivery', timeScale(ctx.mock));
  let mine: LoggedDelivery[] = [];
  for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
    mine = (await logOf(ctx, hookId)).filter((d) => JSON.stringify(d.payload ?? {}).includes(needle));
    if ((mine.length && mine.every((d) => d.state !== 'pending')) || Date.now() > deadline) return mine;
    await ctx.sleep(wait);
  }
}

export const attemptsText = (ds: LoggedDelivery[]) =>
  ds.map((d) => `${String(d.state)} after ${(d.attempts ?? []).map((a) => a.status ?? a.error).join(', ')}`).join('; ') ||
  'no delivery logged';

/** The attempts of the one delivery naming `needle`, once settled; undefined when the log says nothing of the schedule. */
export async function loggedAttempts(ctx: CheckContext, hookId: string, needle: string): Promise<LoggedAttempt[] | undefined> {
  const attempts = (await settledLog(ctx, hookId, needle)).flatMap((d) => d.attempts ?? []);
  return attempts.length && attempts.every((a) => typeof a.delay_ms === 'number') ? attempts : undefined;
}

/** The log's real gap before attempt i (1-based index i ≥ 1): from the end of attempt i - 1 to the start of attempt i. */
function loggedGap(as: LoggedAttempt[], i: number): number {
  const prev = as[i - 1]!;
  return Date.parse(as[i]!.at ?? '') - (Date.parse(prev.at ?? '') + (prev.duration_ms ?? 0));
}

/**
 * EVT-035 from the log: the backoff before each retry is the documented one, the sender waited at least that long in
 * real time, and the receiver saw each gap (`seen`, from its answer to the next arrival) as the log has it.
 */
export function expectLoggedBackoff(ctx: CheckContext, label: string, as: LoggedAttempt[], seen: number[]): void {
  const second = ctx.mock?.secondMs ?? 1000;
  for (let i = 1; i < as.length; i++) {
    const delay = as[i]!.delay_ms;
    const want = documentedDelay(i + 1);
    const gap = loggedGap(as, i);
    // A sender may add a little jitter to each delay (spec/readings.yaml, retry-jitter): up to a quarter more, never
    // past the 5 s cap; never less than the document's delay.
    const inBounds = typeof delay === 'number' && delay >= want && delay <= Math.min(want * 1.25, 5_000);
    ctx.expect(inBounds && gap >= (want / 1000) * second - STAMP_MS, {
      expected: `${label}: attempt ${i + 1} after a backoff of ${want / 1000} s (1 s then 2 s, capped at 5 s; up to a quarter more as jitter; 1 s ≈ ${ms(second)} here), waited in real time`,
      actual: `GET /__mock/deliveries: delay_ms ${String(delay)}, then ${ms(gap)} from the end of attempt ${i} to the start of attempt ${i + 1}`,
      says: 'Up to 3 attempts, with exponential backoff of 1 s then 2 s, capped at 5 s.',
    });
    const g = seen[i - 1];
    if (g === undefined) continue;
    ctx.expect(Math.abs(g - gap) <= TIMER_LATENESS_MS, {
      expected: `${label}: the receiver sees the gap before attempt ${i + 1} as the sender's log has it (${ms(gap)}), within ${TIMER_LATENESS_MS} ms of a busy machine's lateness`,
      actual: `${ms(g)} from the receiver's answer to the next arrival`,
      says: 'exponential backoff of 1 s then 2 s, capped at 5 s',
    });
  }
}

/**
 * EVT-033 from the log: each attempt given up was given up for the documented 30 s timeout, after at least that long
 * in real time, and the receiver's request was let go when the log says (`held`: how long the receiver held each).
 */
export function expectLoggedTimeouts(ctx: CheckContext, as: LoggedAttempt[], held: Array<number | undefined>): void {
  const second = ctx.mock?.secondMs ?? 1000;
  for (const [i, a] of as.entries()) {
    const took = a.duration_ms ?? 0;
    ctx.expect(a.timeout_ms === DOCUMENTED_TIMEOUT_MS && took >= 30 * second - STAMP_MS, {
      expected: `attempt ${i + 1}, never answered, given up after the documented 30 s timeout (≈ ${ms(30 * second)} here)`,
      actual: `GET /__mock/deliveries: ${a.error ?? `status ${String(a.status)}`}; timeout_ms ${String(a.timeout_ms)}, after ${ms(took)}`,
      says: 'Method POST; body encoded in the configured format; timeout 30 seconds.',
    });
    const h = held[i];
    ctx.expect(h !== undefined && Math.abs(h - took) <= TIMER_LATENESS_MS, {
      expected: `attempt ${i + 1} let go at the receiver when the sender gave it up (${ms(took)} in its log), within ${TIMER_LATENESS_MS} ms`,
      actual: h === undefined ? 'still open at the receiver' : `held ${ms(h)} at the receiver`,
      says: 'timeout 30 seconds',
    });
  }
}
