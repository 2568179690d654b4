// Runs the selected rule checks: each in its time budget and its own fault scope, side by side up to --concurrency,
// those on unscopeable state alone after the others; a check that cannot run is skipped with the reason. Every
// result is handed on as it comes.
import type { Register } from '../../spec/runtime/register.ts';
import { runCheck, type SharedContext } from './check-run.ts';
import { checkBudgetMs, timeScale } from './durations.ts';
import { faultScope } from './fault-scope.ts';
import type { CheckDef, CheckResult } from './model.ts';
import { notRunReason } from './run-deadline.ts';
import { skipReason, type RunHas } from './skip-reason.ts';
import { stillRunning } from './still-running.ts';

export interface ChecksEnv {
  shared: SharedContext;
  register: Register;
  /** Why the run has no webhook receiver, when one was wanted. */
  receiverNote?: string;
  concurrency: number;
  /** Per check, unless its waits need more (durations.ts). */
  checkTimeoutMs: number;
  /** The run's: Ctrl-C or --max-time. */
  signal: AbortSignal;
  /** Every 30 s without a finished check, the checks still running. */
  onStill?: (line: string) => void;
}

export async function runChecks(selected: CheckDef[], env: ChecksEnv, finish: (r: CheckResult) => void): Promise<void> {
  const { shared, register, signal } = env;
  const { profile, readOnly, keys } = shared;
  const has: RunHas = {
    register,
    profile,
    readOnly,
    keys,
    mock: !!shared.mock,
    receiver: !!shared.receiver,
    receiverNote: env.receiverNote,
  };
  // A check that waits for the service gets the document's durations (scaled only on the mock, which says its scale).
  const budgetOf = (c: CheckDef) => checkBudgetMs(c.waits, env.checkTimeoutMs, timeScale(shared.mock));

  const runOne = async (c: CheckDef): Promise<void> => {
    const rule = register.resolve(c.rule);
    const base = { name: c.name, area: c.area, ruleId: c.rule, rule: rule.rule, provenance: rule.provenance };
    const reason = skipReason(c, has) ?? notRunReason(signal, shared.http);
    if (reason) {
      finish({ ...base, outcome: 'skipped', reason, failures: [], assertions: 0, ms: 0 });
      return;
    }
    const budget = budgetOf(c);
    still?.start(c.name, `up to ${Math.round(budget.ms / 1000)} s: ${budget.why}`);
    const faults = faultScope(shared.mock, shared.prefix, c.name);
    finish(await runCheck(c, base, { shared, budgetMs: budget.ms, budgetWhy: budget.why, signal, faults }));
    still?.end(c.name);
  };
  const still = env.onStill && stillRunning(env.onStill);

  // Checks on state no scope can separate (webhook receivers and deliveries, timings) run alone after the others;
  // the rest run side by side (a mock fault is scoped to the check that arms it).
  const parallel = selected.filter((c) => !c.exclusive);
  const exclusive = selected.filter((c) => c.exclusive);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(env.concurrency, parallel.length)) }, async () => {
    while (next < parallel.length) await runOne(parallel[next++]!);
  });
  await Promise.all(workers);
  for (const c of exclusive) await runOne(c);
  still?.stop();
}
