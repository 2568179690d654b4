// Runs the selected checks against one target: builds the shared context, applies the response checks to every
// exchange, skips what cannot run (with the reason), cleans up what the run created, and returns one report.
import { randomBytes } from 'node:crypto';
import { KeyRefused, UnreachableTarget, probeTarget, reachTarget } from './target-probe.ts';
import { Contract } from '../../spec/runtime/contract.ts';
import { Http, type KeyRef, type RequestSpec } from '../target/http.ts';
import type { Exchange } from '../../judge/define.ts';
import { DEFAULT_MAX_TIME_MS, notRunReason, RunDeadline, stoppedEarly } from './run-deadline.ts';
import { armedText, faultsNow, giveBackFaults } from './probe-faults.ts';
import { pacingForecast } from './pacing-forecast.ts';
import { Register } from '../../spec/runtime/register.ts';
import { SchemaValidator, type Profile } from '../../spec/runtime/schemas.ts';
import { Cleanup } from './cleanup.ts';
import { Fixtures } from './fixtures.ts';
import { FAULT_SCOPE_HEADER, MockControl } from '../target/mock-control.ts';
import { Receiver } from '../target/receiver.ts';
import { Redactor } from '../report/redact.ts';
import { liveRuleCoverage } from '../report/rule-coverage.ts';
import { toCurl } from '../report/curl.ts';
import { causesOf, evidenceOf } from '../report/causes.ts';
import { runCheck, type SharedContext } from './check-run.ts';
import { checkBudgetMs, timeScale } from './durations.ts';
import { resolveKeys, type KeyInputs } from './keys.ts';
import { allChecks } from '../checks/index.ts';
import { responseChecks } from '../../judge/checks/index.ts';
import { LEGACY_AREAS } from './legacy-areas.ts';
import { coverage } from '../report/coverage.ts';
import { judgeExchange } from '../../judge/exchange.ts';
import { ASSUMED_SKIP, skippedAsAssumed } from '../../judge/profile.ts';
import { explore, type ExploreSettings } from '../explore/run.ts';
import { EXPLORE_SENDER } from '../explore/execute.ts';
import { shareOf, type Shard } from '../explore/shard.ts';
import { areaOf, type Area, type CheckDef, type CheckResult, type Failure, type Keys, type RunReport } from './model.ts';
import { Timings } from '../report/timings.ts';
import { stillRunning } from './still-running.ts';

export interface RunOptions extends KeyInputs {
  url: string;
  mock: boolean;
  webhookReceiver?: { publicUrl: string; port: number; host?: string };
  profile: Profile;
  only: string[];
  concurrency: number;
  /** Per request. */
  timeoutMs: number;
  /** Per check (default 30 s): a check still running then is reported timed out. */
  checkTimeoutMs?: number;
  readOnly: boolean;
  /** Said before the checks begin (the rate limit's forecast): the console prints it. */
  onNotice?: (text: string) => void;
  /** Progress: called when every check of an area has a result. */
  onArea?: (area: Area, results: CheckResult[]) => void;
  /** Progress: every 30 s without a finished check, the checks still running (still-running.ts). */
  onStill?: (line: string) => void;
  /** Aborted by the CLI on Ctrl-C: running checks stop, cleanup still runs. */
  signal?: AbortSignal;
  checks?: CheckDef[];
  register?: Register;
  /** Test hook: the webhook receiver to use (e.g. one that tampers with what it records). */
  receiver?: Receiver;
  /** --explore: generated cases after the rule checks (`--only explore`: alone). */
  explore?: ExploreSettings;
  /** --shard k/n: this job's share of the rule checks (and, in `explore`, of the cases). */
  shard?: Shard;
  /** --max-time: the whole run's deadline (default 15 minutes); then it stops, cleans up and reports what it has. */
  maxTimeMs?: number;
}

export class BadInput extends Error {}
export { KeyRefused, UnreachableTarget };

const DEFAULT_CHECK_TIMEOUT_MS = 30_000;

/** The selector of --only that names exploration: `--explore --only explore` explores without the rule checks. */
const EXPLORE_SELECTOR = 'explore';

function selectChecks(checks: CheckDef[], only: string[]): CheckDef[] {
  if (!only.length) return checks;
  const wanted = new Set(only.map((o) => o.toLowerCase()));
  if (wanted.delete(EXPLORE_SELECTOR) && !wanted.size) return [];
  const legacy = new Set([...wanted].flatMap((w) => LEGACY_AREAS[w] ?? []));
  return checks.filter(
    (c) => wanted.has(c.area.toLowerCase()) || wanted.has(c.rule.toLowerCase()) || wanted.has(c.name) || legacy.has(c.name),
  );
}

/** Areas (rule-id prefixes, and the older area names), rule ids and check names --only accepts, lower case. */
export function knownSelectors(checks: CheckDef[]): Set<string> {
  return new Set([
    EXPLORE_SELECTOR,
    ...checks.map((c) => c.area.toLowerCase()),
    ...Object.keys(LEGACY_AREAS),
    ...checks.map((c) => c.rule.toLowerCase()),
    ...checks.map((c) => c.name),
  ]);
}

export async function runSuite(opts: RunOptions): Promise<{ report: RunReport; redactor: Redactor }> {
  const deadline = new RunDeadline(opts.maxTimeMs ?? DEFAULT_MAX_TIME_MS, opts.signal);
  try {
    return await runWithin(opts, deadline);
  } finally {
    deadline.stop();
  }
}

async function runWithin(opts: RunOptions, deadline: RunDeadline): Promise<{ report: RunReport; redactor: Redactor }> {
  const started = Date.now();
  // Every wait and request of the run listens to this: Ctrl-C, or --max-time.
  const runSignal = deadline.signal;
  const contract = new Contract();
  const register = opts.register ?? Register.load();
  const schemas = new SchemaValidator(contract.doc, opts.profile);
  const redactor = new Redactor();
  const runId = `${new Date().toISOString().slice(0, 10).replace(/-/g, '')}${randomBytes(3).toString('hex')}`;
  const prefix = `crc-${runId}-`;
  const http = new Http(opts.url, contract, {
    concurrency: opts.concurrency,
    timeoutMs: opts.timeoutMs,
    signal: runSignal,
    readOnly: opts.readOnly,
    deadline,
  });

  const mock = opts.mock ? new MockControl(opts.url, opts.timeoutMs, undefined, undefined, opts.readOnly) : undefined;
  // The faults a user armed before the run: the probe below must not take them unseen (probe-faults.ts).
  const armedBefore = mock && (await faultsNow(mock));
  let keys: Keys;
  /** The probe's answers: their X-RateLimit-* headers say whether the key's limit will pace the run. */
  let probed: Exchange[];
  try {
    // Reachability first, without a key: a transport error or a redirect is exit 2.
    const unkeyed = await reachTarget(http, opts.url);
    http.exchanges.length = 0;
    if (mock && !(await mock.health()))
      throw new UnreachableTarget(`--mock: the control API ${mock.url}/health does not answer 200; is the target this kit's mock?`);
    keys = await resolveKeys(opts, mock);
    for (const k of allKeyRefs(keys)) redactor.add(k.value, `$${k.envVar}`);
    http.knowKeys(allKeyRefs(keys));
    // The main key refused, or no answer as the API (a base URL without /ext-api/v1, a web site): exit 2 with a hint.
    await probeTarget(http, keys.main, opts.url, unkeyed);
    probed = http.exchanges.splice(0);
  } catch (e) {
    if (armedBefore?.length && e instanceof Error)
      e.message += ` (the mock had faults armed before the run, which these first requests may have met: ${armedText(armedBefore)})`;
    throw e;
  }
  const probeFaults = mock && armedBefore?.length ? await giveBackFaults(mock, armedBefore) : undefined;

  const cleanup = new Cleanup(contract, prefix);
  const fixtures = new Fixtures(http, keys.main, prefix, opts.readOnly);

  // Every response goes through the response checks, attributed to them.
  const responseFindings = new Map<string, Failure[]>(responseChecks.map((c) => [c.name, []]));
  let inspected = 0;
  http.onExchange((ex: Exchange) => {
    cleanup.observe(ex);
    cleanup.observeDelete(ex);
    // Exploration judges its own exchanges with the same judge, per operation and with its shrunk cases.
    if (!ex.operation || ex.check === EXPLORE_SENDER) return;
    inspected++;
    for (const v of judgeExchange(ex as Exchange & { operation: NonNullable<Exchange['operation']> }, {
      contract,
      schemas,
      profile: opts.profile,
    }))
      responseFindings.get(v.check)!.push({
        ruleId: v.ruleId,
        message: `${ex.request.method} ${ex.request.path} (sent by ${ex.check})`,
        expected: v.expected,
        actual: v.actual,
        curl: toCurl(ex.request),
        ...evidenceOf(ex),
      });
  });

  let receiver: Receiver | undefined;
  let receiverNote: string | undefined;
  if (opts.webhookReceiver || mock) {
    receiver = opts.receiver ?? new Receiver();
    try {
      // Loopback unless told (--webhook-host): a tunnel on this machine reaches it there, nothing else can.
      await receiver.listen(opts.webhookReceiver?.port ?? 0, opts.webhookReceiver?.host ?? '127.0.0.1');
    } catch (err) {
      receiver = undefined;
      receiverNote = `the webhook receiver could not listen: ${(err as Error).message}`;
      if (opts.webhookReceiver) throw new BadInput(receiverNote);
    }
  }

  const all = opts.checks ?? allChecks;
  // A replay sends its one case and nothing else.
  const selected = opts.explore?.replay ? [] : shareOf(selectChecks(all, opts.only), opts.shard);
  const results: CheckResult[] = [];
  const byArea = new Map<Area, number>();
  for (const c of selected) byArea.set(c.area, (byArea.get(c.area) ?? 0) + 1);
  const wantResponses = selected.length > 0;
  const forecast = pacingForecast(probed, {
    profile: opts.profile,
    checks: selected.length,
    allChecks: all.length,
    exploreBudget: opts.explore && !opts.explore.replay ? opts.explore.budget : undefined,
    mock: !!mock,
  });
  if (forecast) opts.onNotice?.(forecast);
  if (wantResponses) for (const rc of responseChecks) byArea.set(areaOf(rc.rule), (byArea.get(areaOf(rc.rule)) ?? 0) + 1);
  const finish = (r: CheckResult) => {
    results.push(r);
    const left = byArea.get(r.area)! - 1;
    byArea.set(r.area, left);
    if (left === 0)
      opts.onArea?.(
        r.area,
        results.filter((x) => x.area === r.area),
      );
  };

  const timings = new Timings();
  const shared: SharedContext = {
    contract,
    profile: opts.profile,
    schemas,
    http,
    keys,
    runId,
    prefix,
    readOnly: opts.readOnly,
    mock,
    receiver,
    cleanup,
    fixtures,
    timeoutMs: opts.timeoutMs,
    timings,
    externalId: (label) => fixtures.externalId(label),
  };
  const checkTimeoutMs = opts.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  // A check that waits for the service gets the document's durations (scaled only on the mock, which says its scale).
  const budgetOf = (c: CheckDef) => checkBudgetMs(c.waits, checkTimeoutMs, timeScale(mock));

  /** A check's faults are scoped to it: only its own requests, which carry the scope header once it armed one, take them. */
  const faultScope = (check: CheckDef) => {
    let armed = false;
    const scope = `${prefix}${check.name}`;
    const view = mock?.withScope(scope, () => (armed = true));
    return {
      mock: view,
      spec: (spec: RequestSpec): RequestSpec => (armed ? { ...spec, headers: { ...spec.headers, [FAULT_SCOPE_HEADER]: scope } } : spec),
      /** What the check armed and did not use goes with it (a user's own faults on the mock are left alone). */
      clear: async () => void (armed && (await view?.clearFaults().catch(() => undefined))),
    };
  };

  const skipReason = (c: CheckDef): string | undefined => {
    const rule = register.resolve(c.rule);
    if (skippedAsAssumed(rule.provenance, opts.profile)) return ASSUMED_SKIP;
    if (c.needs?.write && opts.readOnly) return '--read-only: the check writes';
    if (c.needs?.mock && !mock) return 'needs --mock (the mock control API)';
    if (c.needs?.receiver && !receiver) return receiverNote ?? 'needs --webhook-receiver <public_url> --webhook-port <n> (or --mock)';
    for (const k of c.needs?.keys ?? []) {
      if (k === 'scoped' && !keys.scoped.length) return 'needs --scoped-key <scope,...>=<key>';
      if (k === 'otherOrg' && !keys.otherOrg) return 'needs --other-org-key';
      if (k === 'expired' && !keys.expired) return 'needs --expired-key';
      if (k === 'revoked' && !keys.revoked) return 'needs --revoked-key';
    }
    return undefined;
  };

  const runOne = async (c: CheckDef): Promise<void> => {
    const rule = register.resolve(c.rule);
    const base = { name: c.name, area: c.area, ruleId: c.rule, rule: rule.rule, provenance: rule.provenance };
    const reason = skipReason(c) ?? notRunReason(runSignal, http);
    if (reason) {
      finish({ ...base, outcome: 'skipped', reason, failures: [], assertions: 0, ms: 0 });
      return;
    }
    const budget = budgetOf(c);
    still?.start(c.name, `up to ${Math.round(budget.ms / 1000)} s: ${budget.why}`);
    finish(await runCheck(c, base, { shared, budgetMs: budget.ms, budgetWhy: budget.why, signal: runSignal, faults: faultScope(c) }));
    still?.end(c.name);
  };
  const still = opts.onStill && stillRunning(opts.onStill);

  // Checks on state no scope can separate (webhook receivers and deliveries, timings) run alone after the others;
  // the rest run side by side (a mock fault is scoped to the check that arms it).
  const parallel = selected.filter((c) => !c.exclusive);
  const exclusive = selected.filter((c) => c.exclusive);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(opts.concurrency, parallel.length)) }, async () => {
    while (next < parallel.length) await runOne(parallel[next++]!);
  });
  await Promise.all(workers);
  for (const c of exclusive) await runOne(c);
  still?.stop();

  // Response checks: one result each, over every exchange of the run.
  if (wantResponses)
    for (const rc of responseChecks) {
      const rule = register.resolve(rc.rule);
      const base = { name: rc.name, area: areaOf(rc.rule), ruleId: rc.rule, rule: rule.rule, provenance: rule.provenance, ms: 0 };
      if (skippedAsAssumed(rule.provenance, opts.profile)) {
        finish({ ...base, outcome: 'skipped', reason: ASSUMED_SKIP, failures: [], assertions: 0 });
        continue;
      }
      const failures = responseFindings.get(rc.name)!;
      finish({
        ...base,
        outcome: failures.length ? 'failed' : inspected ? 'passed' : 'skipped',
        reason: inspected ? undefined : 'no responses to inspect',
        failures: failures.slice(0, 50),
        assertions: inspected,
      });
    }

  const explored =
    opts.explore && !runSignal.aborted
      ? await explore(
          {
            contract,
            register,
            schemas,
            profile: opts.profile,
            http,
            keys,
            prefix,
            concurrency: opts.concurrency,
            readOnly: opts.readOnly,
            signal: runSignal,
          },
          { ...opts.explore, shard: opts.shard },
        )
      : undefined;

  if (!opts.readOnly) await cleanup.run(http, keys.main, deadline.cleanupUntil());
  await receiver?.close();

  nameBlockers(results, all);
  const src = { register, contract, checks: all, responseChecks };
  const { notChecked, coveredBySchemas } = coverage({ ...src, selected, results, profile: opts.profile });
  results.push(...(explored?.results ?? []));

  const report = finishedReport(
    {
      target: opts.url,
      runId,
      profile: opts.profile,
      notChecked,
      coveredBySchemas,
      cleanup: { created: cleanup.count, removed: cleanup.removed, leftovers: cleanup.leftovers },
      interrupted: !!opts.signal?.aborted,
      pacing: { ...http.pacing },
      exploration: explored?.summary,
      shard: opts.shard && `${opts.shard.k}/${opts.shard.of}`,
      stopped: stoppedEarly(deadline, http, results, explored?.summary),
      probeFaults,
      pacingForecast: forecast,
      ...(timings.all.length && { timings: timings.all }),
      rerun: explored && {
        flags: [...(opts.mock ? ['--mock'] : []), ...(opts.readOnly ? ['--read-only'] : [])],
        // With --mock the keys come from the mock; else the case was planned with these (the main and another organization's).
        keyVars: opts.mock ? [] : [keys.main, keys.otherOrg].flatMap((k) => (k ? [k.envVar] : [])),
      },
    },
    { started, results, register },
  );
  return { report: redactor.deep(report), redactor };
}

/** A run's report once it is over: its times, its results in the register's order and their causes. */
export function finishedReport(
  parts: Omit<RunReport, 'startedAt' | 'seconds' | 'results' | 'causes'>,
  run: { started: number; results: CheckResult[]; register: Register },
): RunReport {
  return {
    ruleCoverage: liveRuleCoverage(run.register, parts.notChecked),
    ...parts,
    startedAt: new Date(run.started).toISOString(),
    seconds: (Date.now() - run.started) / 1000,
    results: sortResults(run.results, run.register),
    causes: causesOf(run.results),
  };
}

/** Areas in the register's order, checks by name within an area. */
/** A blocked check names the checks that judge the rule it waited on, and whether they failed in this run. */
function nameBlockers(results: CheckResult[], all: CheckDef[]): void {
  const judges = (id: string) => [
    ...all.filter((c) => c.rule === id || c.covers?.includes(id)).map((c) => c.name),
    ...responseChecks.filter((c) => c.rule === id).map((c) => c.name),
  ];
  for (const r of results) {
    if (r.outcome !== 'blocked' || !r.blockedBy) continue;
    const checks = judges(r.blockedBy.ruleId);
    const states = checks.map((n) => `${n} ${results.find((x) => x.name === n)?.outcome ?? 'not run'}`);
    r.blockedBy.checks = checks;
    r.reason = `waited for ${r.blockedBy.waitedFor}; ${r.blockedBy.ruleId} is judged by ${states.join(', ') || 'no check'}`;
  }
}

function sortResults(results: CheckResult[], register: Register): CheckResult[] {
  const order = [...new Set(register.rules.map((r) => areaOf(r.id)))];
  const rank = (a: string) => (order.includes(a) ? order.indexOf(a) : order.length);
  return results.slice().sort((a, b) => rank(a.area) - rank(b.area) || a.area.localeCompare(b.area) || a.name.localeCompare(b.name));
}

function allKeyRefs(keys: Keys): KeyRef[] {
  return [keys.main, ...keys.scoped.map((s) => s.key), keys.otherOrg, keys.expired, keys.revoked].filter((k): k is KeyRef => !!k);
}
