// Runs one check: its context, its time budget, and the outcome. Whatever the target answers and whatever the check
// throws, the result is this check's (failed with the evidence, blocked, timed out or skipped); nothing escapes.
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimitExhausted, ReadOnlyRefused, TargetSilent, TransportError, type RequestSpec } from '../target/http.ts';
import { stopReason } from './run-deadline.ts';
import type { MockControl } from '../target/mock-control.ts';
import { toCurl } from '../report/curl.ts';
import { evidenceOf } from '../report/causes.ts';
import { BlockedCheck, SkipCheck, type CheckContext, type CheckDef, type CheckResult, type Failure } from './model.ts';

/** What every check's context shares (the run's), less what is the check's own. */
export type SharedContext = Omit<CheckContext, 'name' | 'signal' | 'send' | 'expect' | 'skip' | 'block' | 'sleep'>;

/** The check's own view of the mock's faults: armed for its requests only, cleared when it ends. */
interface FaultScope {
  mock?: MockControl;
  spec(spec: RequestSpec): RequestSpec;
  clear(): Promise<void>;
}

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

const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '(nothing)' : (JSON.stringify(v) ?? String(v)));

/** Failures one check keeps (a loop over a hostile answer's million items must not fill the memory); the rest are counted. */
const MAX_FAILURES = 100;

export async function runCheck(c: CheckDef, base: Base, env: CheckEnv): Promise<CheckResult> {
  const failures: Failure[] = [];
  let assertions = 0;
  const budget = new AbortController();
  const signal = env.signal ? AbortSignal.any([budget.signal, env.signal]) : budget.signal;
  /** What the check is waiting on now (named in a timed-out result), and its last request. */
  let waiting = 'the check to begin';
  let last = 'nothing sent yet';
  const { http } = env.shared;
  /** Evidence as the report keeps it: within the run's bound on kept text (see answer-bounds.ts). */
  const kept = (v: unknown) => http.kept.keep(text(v));
  let unkept = 0;
  const t0 = performance.now();
  const ctx: CheckContext = {
    ...env.shared,
    mock: env.faults ? env.faults.mock : env.shared.mock,
    name: c.name,
    signal,
    async send(spec) {
      if (env.signal?.aborted) throw new SkipCheck(stopReason(env.signal) ?? 'interrupted');
      const what = `${spec.method.toUpperCase()} ${spec.path}`;
      waiting = `the answer to ${what}`;
      const ex = await http.send(c.name, env.faults ? env.faults.spec(spec) : spec, signal).catch((err: unknown) => {
        throw env.signal?.aborted ? new SkipCheck(stopReason(env.signal) ?? 'interrupted') : err;
      });
      last = `${what} (answered ${ex.response.status})`;
      waiting = `its next step after ${last}`;
      return ex;
    },
    expect(cond, e) {
      assertions++;
      if (!cond && failures.length >= MAX_FAILURES) unkept++;
      else if (!cond)
        failures.push({
          ruleId: c.rule,
          message: kept(e.message ?? (e.exchange ? `${e.exchange.request.method} ${e.exchange.request.path}` : c.name)),
          expected: kept(e.expected),
          actual: kept(e.actual),
          ...(e.says !== undefined && { says: typeof e.says === 'string' ? [e.says] : [...e.says] }),
          curl: e.exchange && toCurl(e.exchange.request),
          ...evidenceOf(e.exchange),
        });
      return cond;
    },
    skip(reason) {
      throw new SkipCheck(reason);
    },
    block(waitedFor, ruleId) {
      throw new BlockedCheck(waitedFor, ruleId);
    },
    async sleep(ms) {
      waiting = `a wait of ${Math.round(ms)} ms after ${last}`;
      await sleep(ms, undefined, { signal });
      waiting = `its next step after ${last}`;
    },
  };

  let outcome: CheckResult['outcome'] = 'passed';
  let reason: string | undefined;
  let blocked: BlockedCheck | undefined;
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
  try {
    const settled = await Promise.race([
      c.run(ctx).then(
        () => undefined,
        (err: unknown) => err ?? new Error('(nothing thrown)'),
      ),
      outOfTime,
      stopped,
    ]);
    if (settled === 'stopped') {
      budget.abort();
      outcome = 'timed-out';
      reason = `stopped: ${stopReason(env.signal)} while it waited for ${waiting}`;
    } else if (settled === 'timeout') {
      budget.abort();
      outcome = 'timed-out';
      const paused = Math.round(http.pausedSince(t0) / 1000);
      const extra = paused ? `, plus ${paused} s paused for the target's rate limit` : '';
      reason = `no result within ${env.budgetMs / 1000} s (${env.budgetWhy ?? '--check-timeout'})${extra}: still waiting for ${waiting}`;
    } else if (settled instanceof SkipCheck) {
      outcome = 'skipped';
      reason = settled.message;
    } else if (settled instanceof RateLimitExhausted) {
      outcome = 'timed-out';
      reason = `held up by the target's rate limit: ${settled.message}`;
    } else if (settled instanceof TargetSilent) {
      outcome = 'skipped';
      reason = settled.message;
    } else if (settled instanceof BlockedCheck) {
      blocked = settled;
    } else if (settled !== undefined) {
      failures.push(thrown(c, settled, kept));
    }
  } finally {
    clearTimeout(timer);
    // The run's signal outlives every check: a listener left on it per check would pile up (164 in a run).
    if (onStop) env.signal?.removeEventListener('abort', onStop);
    await env.faults?.clear();
  }
  if (unkept)
    failures.push({
      ruleId: c.rule,
      message: `${unkept} more failures of this check not kept`,
      expected: `at most ${MAX_FAILURES} failures kept per check`,
      actual: `${MAX_FAILURES + unkept} failures`,
    });
  if (outcome === 'timed-out') {
    /* the failures so far stay as evidence; the outcome says why the check stopped */
  } else if (failures.length) outcome = 'failed';
  else if (blocked) {
    outcome = 'blocked';
    reason = blocked.message;
  } else if (outcome === 'passed' && assertions === 0) {
    outcome = 'skipped';
    reason = 'nothing to assert on this target';
  }
  return {
    ...base,
    outcome,
    reason,
    blockedBy: outcome === 'blocked' && blocked ? { waitedFor: blocked.waitedFor, ruleId: blocked.ruleId, checks: [] } : undefined,
    failures,
    assertions,
    ms: Math.round(performance.now() - t0),
  };
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
