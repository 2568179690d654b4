// The timing judges that read the mock's delivery log: load that makes every timer late (in the log and at the
// receiver alike) never fails them, while a wrong schedule, a sender that did not wait, and a delay added between the
// sender and the receiver each do. The mock's second is 10 ms here, as at --time-scale 0.01.
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../run/model.ts';
import { expectLoggedBackoff, expectLoggedTimeouts, type LoggedAttempt } from './delivery-log.ts';

/** A context that records each expectation's outcome, with the mock's second of 10 ms. */
function judged(fn: (ctx: CheckContext) => void): string[] {
  const failed: string[] = [];
  const ctx = {
    mock: { secondMs: 10 },
    expect: (cond: boolean, e: { expected: string; actual: string }) => {
      if (!cond) failed.push(`${e.expected} | ${e.actual}`);
      return cond;
    },
  } as unknown as CheckContext;
  fn(ctx);
  return failed;
}

/** Attempts as the log has them: each starts `gaps[i]` real ms after the previous one ended, and takes `took` ms. */
function log(delays: number[], gaps: number[], took = 3, extra: Partial<LoggedAttempt> = {}): LoggedAttempt[] {
  let t = Date.parse('2026-11-28T12:00:00.000Z');
  return delays.map((delay_ms, i) => {
    if (i) t += took + gaps[i - 1]!;
    return { at: new Date(t).toISOString(), status: 500, duration_ms: took, delay_ms, ...extra };
  });
}

describe('expectLoggedBackoff (EVT-035 on the mock)', () => {
  it('passes the documented 1 s then 2 s however late the timers ran, when the receiver saw what the log says', () => {
    expect(judged((ctx) => expectLoggedBackoff(ctx, 'r', log([0, 1000, 2000], [10, 20]), [12, 21]))).toEqual([]);
    // A machine under load: both gaps 400 ms late, in the log and at the receiver (the old receiver-only window failed this).
    expect(judged((ctx) => expectLoggedBackoff(ctx, 'r', log([0, 1000, 2000], [410, 420]), [415, 430]))).toEqual([]);
  });

  it('fails a schedule other than the document’s (a constant 1 s)', () => {
    const failed = judged((ctx) => expectLoggedBackoff(ctx, 'r', log([0, 1000, 1000], [10, 10]), [10, 10]));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(/attempt 3 after a backoff of 2 s.*delay_ms 1000/);
  });

  it('fails a sender that logged the backoff without waiting it', () => {
    expect(judged((ctx) => expectLoggedBackoff(ctx, 'r', log([0, 1000, 2000], [1, 20]), [1, 20]))).toHaveLength(1);
  });

  it('fails when the receiver saw a gap the sender did not log (a delay added on the way)', () => {
    const failed = judged((ctx) => expectLoggedBackoff(ctx, 'r', log([0, 1000, 2000], [10, 20]), [410, 20]));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(/the receiver sees the gap before attempt 2.*410 ms/);
  });
});

describe('expectLoggedTimeouts (EVT-033, LIM-007 on the mock)', () => {
  const timedOut = (took: number) => log([0, 1000, 2000], [10, 20], took, { status: undefined, error: 'timed out', timeout_ms: 30_000 });

  it('passes the documented 30 s timeout given up late, when the receiver was let go then too', () => {
    expect(judged((ctx) => expectLoggedTimeouts(ctx, timedOut(700), [702, 705, 699]))).toEqual([]);
  });

  it('fails another timeout, one given up early, and a receiver held past the sender’s give-up', () => {
    expect(judged((ctx) => expectLoggedTimeouts(ctx, log([0], [], 300, { timeout_ms: 10_000 }), [300]))).toHaveLength(1);
    expect(judged((ctx) => expectLoggedTimeouts(ctx, timedOut(100), [100, 100, 100]))).toHaveLength(3);
    expect(judged((ctx) => expectLoggedTimeouts(ctx, timedOut(300), [900, 300, undefined]))).toHaveLength(2);
  });
});
