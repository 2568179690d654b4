// The whole run's deadline (--max-time): a CI job keeps a report only if the run ends before the job's own timeout,
// whatever the target does (a rate limit that asks for a minute per request, a server that falls silent). When the
// deadline passes, running checks and the exploration stop, checks not yet begun are reported as not run, and the
// cleanup (itself bounded by CLEANUP_GRACE_MS) and every report still happen.
import { setMaxListeners } from 'node:events';
import type { Http } from '../target/http.ts';
import type { CheckResult, RunReport } from './model.ts';

/** Default --max-time: 15 minutes, ten times a full run against a deployment with its waits. */
export const DEFAULT_MAX_TIME_MS = 15 * 60_000;

/** What the cleanup may take after the checks stopped, however slowly the target answers its deletes. */
const CLEANUP_GRACE_MS = 60_000;

const UNITS: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000 };

/** --max-time: seconds, or a number with s, m or h (90s, 20m, 1h), from 1 s to 24 h; absent, the default. */
export function parseMaxTime(raw: string | undefined, bad: (why: string) => Error): number {
  if (raw === undefined) return DEFAULT_MAX_TIME_MS;
  const m = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(raw.trim());
  const ms = m ? Number(m[1]) * UNITS[m[2] ?? '']! : Number.NaN;
  if (!(ms >= 1000 && ms <= 86_400_000))
    throw bad(`--max-time must be a duration from 1s to 24h (seconds, or with s, m or h: 90s, 20m, 1h), got "${raw}"`);
  return ms;
}

/** Whether an aborted signal was stopped by a deadline (its reason) rather than by Ctrl-C (an AbortError). */
export function stopReason(signal: AbortSignal | undefined): string | undefined {
  const r = signal?.aborted ? (signal.reason as unknown) : undefined;
  return r instanceof DeadlineReached ? r.message : undefined;
}

class DeadlineReached extends Error {}

/** "900 s", "15 min": a duration as --max-time takes it back. */
const shownDuration = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

export class RunDeadline {
  private readonly ctl = new AbortController();
  private readonly timer: NodeJS.Timeout;
  /** performance.now() when the run must stop. */
  readonly at: number;
  /** Aborted by the deadline or by the run's own signal (Ctrl-C): every wait and request of the run listens to it. */
  readonly signal: AbortSignal;
  /** Why the run stopped: the deadline passed, or a wait the target asked for would have ended past it. */
  why: string;

  constructor(
    readonly maxMs: number,
    outer?: AbortSignal,
  ) {
    this.at = performance.now() + maxMs;
    this.why = `the run reached --max-time ${shownDuration(maxMs)}`;
    this.timer = setTimeout(() => this.expire(), maxMs);
    this.signal = outer ? AbortSignal.any([outer, this.ctl.signal]) : this.ctl.signal;
    // Every wait in flight (rate-limit pauses of concurrent requests, running checks) listens to it for a while.
    setMaxListeners(0, this.signal);
  }

  /** Stops the run now: `cause` says why it cannot go on to the deadline (a Retry-After that ends past it). */
  expire(cause?: string): void {
    if (this.reached) return;
    if (cause) this.why = `${cause}, past --max-time ${shownDuration(this.maxMs)}`;
    this.ctl.abort(new DeadlineReached(this.why));
  }

  get reached(): boolean {
    return this.ctl.signal.aborted;
  }

  /** When the cleanup must give up (performance.now() time): the grace after the deadline, or after now once it passed. */
  cleanupUntil(): number {
    return Math.max(this.at, performance.now()) + CLEANUP_GRACE_MS;
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** Why a check is not begun: the run was stopped (Ctrl-C, --max-time) or the target stopped answering. */
export function notRunReason(runSignal: AbortSignal, http: Http): string | undefined {
  if (runSignal.aborted) return stopReason(runSignal) ? `not run: ${stopReason(runSignal)}` : 'interrupted';
  return http.silence && `not run: ${http.silence}`;
}

/** The report's note of a run cut short by --max-time or by a target that stopped answering; undefined otherwise. */
export function stoppedEarly(
  deadline: RunDeadline,
  http: Http,
  results: CheckResult[],
  exploration: RunReport['exploration'],
): RunReport['stopped'] {
  const why = deadline.reached ? deadline.why : http.silence;
  if (!why) return undefined;
  return {
    why,
    maxSeconds: deadline.maxMs / 1000,
    notRun: results.filter((r) => r.outcome === 'skipped' && r.reason?.startsWith('not run: ')).length,
    cutShort: results.filter((r) => r.outcome === 'timed-out' && r.reason?.startsWith('stopped: ')).length,
    explorationCut: !!exploration && deadline.reached,
  };
}
