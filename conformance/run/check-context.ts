// What a check runs with (model.ts CheckContext): the run's shared context, and its own send, expect, skip, block and
// sleep, which keep its failures with their evidence, count its assertions and say what it is waiting on now.
import { setTimeout as sleep } from 'node:timers/promises';
import { evidenceOf } from '../report/causes.ts';
import { toCurl } from '../report/curl.ts';
import type { Http } from '../target/http.ts';
import type { FaultScope } from './fault-scope.ts';
import { BlockedCheck, SkipCheck, type CheckContext, type CheckDef, type Failure } from './model.ts';
import { stopReason } from './run-deadline.ts';

/** What every check's context shares (the run's), less what is the check's own. */
export type SharedContext = Omit<CheckContext, 'name' | 'signal' | 'send' | 'expect' | 'skip' | 'block' | 'sleep'>;

/** Failures one check keeps (a loop over a hostile answer's million items must not fill the memory); the rest are counted. */
const MAX_FAILURES = 100;

const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '(nothing)' : (JSON.stringify(v) ?? String(v)));

/** What a check did so far: its failures and assertions, and what it is waiting on now (named in a timed-out result). */
export class CheckLog {
  readonly failures: Failure[] = [];
  assertions = 0;
  /** Failures past MAX_FAILURES: counted, not kept. */
  unkept = 0;
  waiting = 'the check to begin';
  /** Its last request. */
  last = 'nothing sent yet';

  constructor(private readonly http: Http) {}

  /** Evidence as the report keeps it: within the run's bound on kept text (see answer-bounds.ts). */
  readonly kept = (v: unknown): string => this.http.kept.keep(text(v));

  /** The failures not kept, as one failure of the check's rule (after the others). */
  countUnkept(ruleId: string): void {
    if (this.unkept)
      this.failures.push({
        ruleId,
        message: `${this.unkept} more failures of this check not kept`,
        expected: `at most ${MAX_FAILURES} failures kept per check`,
        actual: `${MAX_FAILURES + this.unkept} failures`,
      });
  }
}

/**
 * The context of check `c`: `signal` is the check's own (aborted at its budget, or with the run), `env.signal` the
 * run's alone (a request the run stops skips the check rather than failing it).
 */
export function checkContext(
  c: CheckDef,
  env: { shared: SharedContext; faults?: FaultScope; signal?: AbortSignal },
  signal: AbortSignal,
  log: CheckLog,
): CheckContext {
  const { http } = env.shared;
  const { kept } = log;
  return {
    ...env.shared,
    mock: env.faults ? env.faults.mock : env.shared.mock,
    name: c.name,
    signal,
    async send(spec) {
      if (env.signal?.aborted) throw new SkipCheck(stopReason(env.signal) ?? 'interrupted');
      const what = `${spec.method.toUpperCase()} ${spec.path}`;
      log.waiting = `the answer to ${what}`;
      const ex = await http.send(c.name, env.faults ? env.faults.spec(spec) : spec, signal).catch((err: unknown) => {
        throw env.signal?.aborted ? new SkipCheck(stopReason(env.signal) ?? 'interrupted') : err;
      });
      log.last = `${what} (answered ${ex.response.status})`;
      log.waiting = `its next step after ${log.last}`;
      return ex;
    },
    expect(cond, e) {
      log.assertions++;
      if (!cond && log.failures.length >= MAX_FAILURES) log.unkept++;
      else if (!cond)
        log.failures.push({
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
      log.waiting = `a wait of ${Math.round(ms)} ms after ${log.last}`;
      await sleep(ms, undefined, { signal });
      log.waiting = `its next step after ${log.last}`;
    },
  };
}
