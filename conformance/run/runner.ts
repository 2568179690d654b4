// Runs the selected checks against one target and returns one report. The steps, each in a module of its own:
// connect to the target (connect.ts), listen for webhooks (webhook-listener.ts), select the checks (select.ts), run
// them (run-checks.ts) with every exchange judged by the response checks as it happens (response-findings.ts),
// explore (explore/run.ts), clean up what the run created (cleanup.ts), and assemble the report (suite-report.ts).
import { randomBytes } from 'node:crypto';
import { responseChecks } from '../../judge/checks/index.ts';
import type { Exchange } from '../../judge/define.ts';
import { Contract } from '../../spec/runtime/contract.ts';
import { Register } from '../../spec/runtime/register.ts';
import { SchemaValidator, type Profile } from '../../spec/runtime/schemas.ts';
import { allChecks } from '../checks/index.ts';
import { explore, type ExploreSettings } from '../explore/run.ts';
import { shareOf, type Shard } from '../explore/shard.ts';
import { coverage } from '../report/coverage.ts';
import { Redactor } from '../report/redact.ts';
import { Timings } from '../report/timings.ts';
import { Http } from '../target/http.ts';
import { MockControl } from '../target/mock-control.ts';
import type { Receiver } from '../target/receiver.ts';
import { AreaProgress } from './area-progress.ts';
import type { SharedContext } from './check-run.ts';
import { Cleanup } from './cleanup.ts';
import { connectTarget } from './connect.ts';
import { Fixtures } from './fixtures.ts';
import type { KeyInputs } from './keys.ts';
import { areaOf, type Area, type CheckDef, type CheckResult, type ExplorationSummary, type Keys, type RunReport } from './model.ts';
import { pacingForecast } from './pacing-forecast.ts';
import { ResponseFindings } from './response-findings.ts';
import { runChecks } from './run-checks.ts';
import { DEFAULT_MAX_TIME_MS, RunDeadline, stoppedEarly } from './run-deadline.ts';
import { selectChecks } from './select.ts';
import { finishedReport, nameBlockers } from './suite-report.ts';
import { KeyRefused, UnreachableTarget } from './target-probe.ts';
import { BadInput, listenForWebhooks } from './webhook-listener.ts';

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

export { BadInput, KeyRefused, UnreachableTarget };

const DEFAULT_CHECK_TIMEOUT_MS = 30_000;

export async function runSuite(opts: RunOptions): Promise<{ report: RunReport; redactor: Redactor }> {
  const deadline = new RunDeadline(opts.maxTimeMs ?? DEFAULT_MAX_TIME_MS, opts.signal);
  try {
    return await runWithin(opts, deadline);
  } finally {
    deadline.stop();
  }
}

/** What the run sets up before it meets the target. */
interface Setup {
  contract: Contract;
  register: Register;
  schemas: SchemaValidator;
  redactor: Redactor;
  runId: string;
  /** Of every external_id the run creates. */
  prefix: string;
  http: Http;
  mock?: MockControl;
}

async function runWithin(opts: RunOptions, deadline: RunDeadline): Promise<{ report: RunReport; redactor: Redactor }> {
  const started = Date.now();
  // Meet the target: not reachable, not the API or the key refused ends the run here (exit 2).
  const setup = setUp(opts, deadline);
  const { contract, register, http, prefix } = setup;
  const connected = await connectTarget(http, setup.mock, opts, setup.redactor);
  const { keys } = connected;
  const cleanup = new Cleanup(contract, prefix);
  // Every response goes through the response checks, attributed to them; what it created is noted for the cleanup.
  const responses = new ResponseFindings(contract, setup.schemas, opts.profile);
  http.onExchange((ex: Exchange) => {
    cleanup.observe(ex);
    cleanup.observeDelete(ex);
    responses.judge(ex);
  });
  const webhooks = await listenForWebhooks(opts);

  // Select the checks. A replay sends its one case and nothing else.
  const all = opts.checks ?? allChecks;
  const selected = opts.explore?.replay ? [] : shareOf(selectChecks(all, opts.only), opts.shard);
  const forecast = pacingForecast(connected.probed, {
    profile: opts.profile,
    checks: selected.length,
    allChecks: all.length,
    exploreBudget: opts.explore && !opts.explore.replay ? opts.explore.budget : undefined,
    mock: !!opts.mock,
  });
  if (forecast) opts.onNotice?.(forecast);
  const wantResponses = selected.length > 0;
  const responseAreas = wantResponses ? responseChecks.map((rc) => areaOf(rc.rule)) : [];
  const progress = new AreaProgress([...selected.map((c) => c.area), ...responseAreas], opts.onArea);

  // Run the rule checks; then the response checks, one result each over every exchange of the run; then explore.
  const shared = sharedContext(opts, setup, keys, cleanup, webhooks.receiver);
  const checkTimeoutMs = opts.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const checksEnv = { shared, register, receiverNote: webhooks.note, concurrency: opts.concurrency, checkTimeoutMs };
  await runChecks(selected, { ...checksEnv, signal: deadline.signal, onStill: opts.onStill }, progress.finish);
  if (wantResponses) for (const r of responses.results(register)) progress.finish(r);
  const explored = opts.explore && !deadline.signal.aborted ? await exploreAfter(opts, opts.explore, setup, keys, deadline) : undefined;

  // Clean up what the run created, within the deadline's grace.
  if (!opts.readOnly) await cleanup.run(http, keys.main, deadline.cleanupUntil());
  await webhooks.receiver?.close();

  // The report: blocked checks name their blockers; coverage is reckoned before exploration's results join.
  const { results } = progress;
  nameBlockers(results, all);
  const { notChecked, coveredBySchemas } = coverage({
    register,
    contract,
    checks: all,
    responseChecks,
    selected,
    results,
    profile: opts.profile,
  });
  results.push(...(explored?.results ?? []));
  const { probeFaults } = connected;
  const { timings } = shared;
  const said = { keys, results, exploration: explored?.summary, notChecked, coveredBySchemas, cleanup, probeFaults, forecast, timings };
  const report = finishedReport(reportParts(opts, setup, deadline, said), { started, results, register });
  return { report: setup.redactor.deep(report), redactor: setup.redactor };
}

/** The run's contract, register and client; its id, which every external_id it creates carries. */
function setUp(opts: RunOptions, deadline: RunDeadline): Setup {
  const contract = new Contract();
  const runId = `${new Date().toISOString().slice(0, 10).replace(/-/g, '')}${randomBytes(3).toString('hex')}`;
  return {
    contract,
    register: opts.register ?? Register.load(),
    schemas: SchemaValidator.ofBundle(opts.profile),
    redactor: new Redactor(),
    runId,
    prefix: `crc-${runId}-`,
    // Every wait and request of the run listens to the deadline's signal: Ctrl-C, or --max-time.
    http: new Http(opts.url, contract, {
      concurrency: opts.concurrency,
      timeoutMs: opts.timeoutMs,
      signal: deadline.signal,
      readOnly: opts.readOnly,
      deadline,
    }),
    mock: opts.mock ? new MockControl(opts.url, opts.timeoutMs, undefined, undefined, opts.readOnly) : undefined,
  };
}

/** What every check's context shares: the run's contract, client, keys, mock, receiver, cleanup, fixtures and timings. */
function sharedContext(opts: RunOptions, setup: Setup, keys: Keys, cleanup: Cleanup, receiver?: Receiver): SharedContext {
  const fixtures = new Fixtures(setup.http, keys.main, setup.prefix, opts.readOnly);
  return {
    contract: setup.contract,
    profile: opts.profile,
    schemas: setup.schemas,
    http: setup.http,
    keys,
    runId: setup.runId,
    prefix: setup.prefix,
    readOnly: opts.readOnly,
    mock: setup.mock,
    receiver,
    cleanup,
    fixtures,
    timeoutMs: opts.timeoutMs,
    timings: new Timings(),
    externalId: (label) => fixtures.externalId(label),
  };
}

/** --explore: the generated cases, after the rule checks, with the run's client, keys and prefix. */
function exploreAfter(
  opts: RunOptions,
  settings: ExploreSettings,
  setup: Setup,
  keys: Keys,
  deadline: RunDeadline,
): Promise<{ results: CheckResult[]; summary: ExplorationSummary }> {
  const { contract, register, schemas, http, prefix } = setup;
  const { profile, concurrency, readOnly } = opts;
  const env = { contract, register, schemas, profile, http, keys, prefix, concurrency, readOnly, signal: deadline.signal };
  return explore(env, { ...settings, shard: opts.shard });
}

/** What the report says of the run besides its results, once the run is over. */
interface RunEnd {
  keys: Keys;
  results: CheckResult[];
  exploration?: ExplorationSummary;
  notChecked: RunReport['notChecked'];
  coveredBySchemas: RunReport['coveredBySchemas'];
  cleanup: Cleanup;
  probeFaults?: string;
  forecast?: string;
  timings: Timings;
}

function reportParts(opts: RunOptions, setup: Setup, deadline: RunDeadline, end: RunEnd): Parameters<typeof finishedReport>[0] {
  const { cleanup, keys, exploration, timings } = end;
  return {
    target: opts.url,
    runId: setup.runId,
    profile: opts.profile,
    notChecked: end.notChecked,
    coveredBySchemas: end.coveredBySchemas,
    cleanup: { created: cleanup.count, removed: cleanup.removed, leftovers: cleanup.leftovers },
    interrupted: !!opts.signal?.aborted,
    pacing: { ...setup.http.pacing },
    exploration,
    shard: opts.shard && `${opts.shard.k}/${opts.shard.of}`,
    stopped: stoppedEarly(deadline, setup.http, end.results, exploration),
    probeFaults: end.probeFaults,
    pacingForecast: end.forecast,
    ...(timings.all.length && { timings: timings.all }),
    rerun: exploration && {
      flags: [...(opts.mock ? ['--mock'] : []), ...(opts.readOnly ? ['--read-only'] : [])],
      // With --mock the keys come from the mock; else the case was planned with these (the main and another organization's).
      keyVars: opts.mock ? [] : [keys.main, keys.otherOrg].flatMap((k) => (k ? [k.envVar] : [])),
    },
  };
}
