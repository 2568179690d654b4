// Runs one check: its context, its time budget, and the outcome. Whatever the target answers and whatever the check
// throws, the result is this check's (failed with the evidence, blocked, timed out or skipped); nothing escapes.
import { RateLimitExhausted, ReadOnlyRefused, TargetSilent, TransportError } from '../target/http.ts';
import { stopReason } from './run-deadline.ts';
import { CheckLog, checkContext, type SharedContext } from './check-context.ts';
import type { FaultScope } from './fault-scope.ts';
import { BlockedCheck, SkipCheck, type CheckDef, type CheckResult, type Failure } from './model.ts';

export type { SharedContext };

export interface CheckEnv {
  shared: SharedContext;
  faults?: FaultScope;
  /**
   * The time budget of one check, extended by the time the run waits for the target's rate-limit windows meanwhile
   * (its requests, and the fixtures it awaits, stand still then).
   */
  budgetMs: number;
  /** Where the budget comes from, for a timed-out result (default --check-timeout). */
  budgetWhy?: string;
  /** The run's own abort (Ctrl-C). */
  signal?: AbortSignal;
}

type Base = Pick<CheckResult, 'name' | 'area' | 'ruleId' | 'rule' | 'provenance'>;

/** What the way the check ended says of its outcome, before its failures and assertions have their say. */
interface Ending {
  outcome: CheckResult['outcome'];
  reason?: string;
  blocked?: BlockedCheck;
}

export async function runCheck(c: CheckDef, base: Base, env: CheckEnv): Promise<CheckResult> {
  const budget = new AbortController();
  const signal = env.signal ? AbortSignal.any([budget.signal, env.signal]) : budget.signal;
  const log = new CheckLog(env.shared.http);
  const t0 = performance.now();
  const ctx = checkContext(c, env, signal, log);
  const limits = checkLimits(env, t0);
  let ending: Ending;
  try {
    const settled = await Promise.race([
      c.run(ctx).then(
        () => undefined,
        (err: unknown) => err ?? new Error('(nothing thrown)'),
      ),
      limits.outOfTime,
      limits.stopped,
    ]);
    // At either limit, what the check still waits on stops.
    if (settled === 'stopped' || settled === 'timeout') budget.abort();
    ending = endingOf(settled, c, env, t0, log);
  } finally {
    limits.dispose();
    await env.faults?.clear();
  }
  log.countUnkept(c.rule);
  const { outcome, reason, blocked } = outcomeOf(ending, log);
  return {
    ...base,
    outcome,
    reason,
    blockedBy: outcome === 'blocked' && blocked ? { waitedFor: blocked.waitedFor, ruleId: blocked.ruleId, checks: [] } : undefined,
    failures: log.failures,
    assertions: log.assertions,
    ms: Math.round(performance.now() - t0),
  };
}

/** The check's two limits: its budget ('timeout') and the run's stop ('stopped'); `dispose` once it is over. */
function checkLimits(env: CheckEnv, t0: number) {
  const { http } = env.shared;
  let timer: NodeJS.Timeout | undefined;
  // The deadline moves out by every rate-limit pause of the run while the check runs: when the timer fires, it is
  // armed again for what the pauses added.
  const deadline = () => t0 + env.budgetMs + http.pausedSince(t0);
  const outOfTime = new Promise<'timeout'>((resolve) => {
    const arm = (ms: number) => {
      timer = setTimeout(() => {
        const left = deadline() - performance.now();
        if (left > 0) arm(left);
        else resolve('timeout');
      }, ms);
    };
    arm(env.budgetMs);
  });
  // The run's deadline (--max-time) stops a check at once, whatever it is waiting on.
  let onStop: (() => void) | undefined;
  const stopped = new Promise<'stopped'>((resolve) => {
    onStop = () => void (stopReason(env.signal) && resolve('stopped'));
    if (stopReason(env.signal)) resolve('stopped');
    else env.signal?.addEventListener('abort', onStop, { once: true });
  });
  const dispose = () => {
    clearTimeout(timer);
    // The run's signal outlives every check: a listener left on it per check would pile up (164 in a run).
    if (onStop) env.signal?.removeEventListener('abort', onStop);
  };
  return { outOfTime, stopped, dispose };
}

/**
 * How the check ended: undefined when it returned, what it threw, or one of its limits. A blocked check stays 'passed'
 * here (its failures, if any, come first); an error none of the known ones is its failure.
 */
function endingOf(settled: unknown, c: CheckDef, env: CheckEnv, t0: number, log: CheckLog): Ending {
  if (settled === 'stopped')
    return { outcome: 'timed-out', reason: `stopped: ${stopReason(env.signal)} while it waited for ${log.waiting}` };
  if (settled === 'timeout') {
    const paused = Math.round(env.shared.http.pausedSince(t0) / 1000);
    const extra = paused ? `, plus ${paused} s paused for the target's rate limit` : '';
    const reason = `no result within ${env.budgetMs / 1000} s (${env.budgetWhy ?? '--check-timeout'})${extra}: still waiting for ${log.waiting}`;
    return { outcome: 'timed-out', reason };
  }
  if (settled instanceof SkipCheck) return { outcome: 'skipped', reason: settled.message };
  if (settled instanceof RateLimitExhausted)
    return { outcome: 'timed-out', reason: `held up by the target's rate limit: ${settled.message}` };
  if (settled instanceof TargetSilent) return { outcome: 'skipped', reason: settled.message };
  if (settled instanceof BlockedCheck) return { outcome: 'passed', blocked: settled };
  if (settled !== undefined) log.failures.push(thrown(c, settled, log.kept));
  return { outcome: 'passed' };
}

/** The outcome once the failures and assertions are in. */
function outcomeOf(ending: Ending, log: CheckLog): Ending {
  // Timed out: the failures so far stay as evidence; the outcome says why the check stopped.
  if (ending.outcome === 'timed-out') return ending;
  if (log.failures.length) return { ...ending, outcome: 'failed' };
  if (ending.blocked) return { ...ending, outcome: 'blocked', reason: ending.blocked.message };
  if (ending.outcome === 'passed' && log.assertions === 0) return { outcome: 'skipped', reason: 'nothing to assert on this target' };
  return ending;
}

/** An exception out of a check: the check's failure, with what it says. */
function thrown(c: CheckDef, err: unknown, kept: (v: unknown) => string): Failure {
  const message = kept(err instanceof Error ? err.message : err);
  if (err instanceof TransportError)
    return { ruleId: c.rule, message: 'the request did not complete', expected: 'a response', actual: message };
  if (err instanceof ReadOnlyRefused)
    return { ruleId: c.rule, message: 'the check tried to write under --read-only', expected: 'no writes', actual: message };
  return {
    ruleId: c.rule,
    message: 'the check could not complete',
    expected: 'a response the check can read',
    actual: `${err instanceof Error ? err.name : 'thrown'}: ${message}`,
  };
}
