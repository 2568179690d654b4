// The shapes every part shares: a check (one named function, one rule), its context and its result.
import type { Contract } from '../../spec/runtime/contract.ts';
import type { Http, KeyRef, RequestSpec } from '../target/http.ts';
import type { Exchange } from '../../judge/define.ts';
import type { Provenance } from '../../spec/runtime/register.ts';
import type { Profile, SchemaValidator } from '../../spec/runtime/schemas.ts';
import type { Cleanup } from './cleanup.ts';
import type { MockControl } from '../target/mock-control.ts';
import type { Receiver } from '../target/receiver.ts';
import type { Fixtures } from './fixtures.ts';
import type { Timing, Timings } from '../report/timings.ts';

/** A rule area: the prefix of a rule id in spec/rules.yaml (AUTH, PAT, ...). Checks of one area live in one file. */
export type Area = string;

/** The area of a rule id: AUTH-023 → AUTH. */
export const areaOf = (ruleId: string): Area => ruleId.slice(0, ruleId.indexOf('-'));

export interface Keys {
  main: KeyRef;
  /** The main key's organization, when known (from the mock's key list). */
  mainOrg?: string;
  /** The provider that owns the main key, when known (from the mock's key list). */
  mainProvider?: string;
  /** Keys with a known scope set, e.g. ['patients:read'] → key. */
  scoped: Array<{ scopes: string[]; key: KeyRef }>;
  otherOrg?: KeyRef;
  expired?: KeyRef;
  revoked?: KeyRef;
  /** Sessions the user named (--regenerable-session, --not-ready-session): no API route lists sessions. */
  sessions?: { regenerable?: string; notReady?: string };
}

type KeyNeed = 'scoped' | 'otherOrg' | 'expired' | 'revoked';

export interface CheckDef {
  /** snake_case, the name of the check in every report (Schemathesis style): its function's name. */
  name: string;
  /** The prefix of `rule` (areaOf). */
  area: Area;
  /** Id of the one rule of spec/rules.yaml behind the check: every failure of the check cites it. */
  rule: string;
  /**
   * The rule's provenance, stated where a check tests an assumption of the kit (so a reader of the check sees it).
   * When given it must equal the register's (conformance.test.ts); reports always take the register's.
   */
  provenance?: Provenance;
  /** Further rules the check exercises (reported as covered by it; failures still cite `rule`). */
  covers?: string[];
  /** Payload schemas (pointers such as #/components/schemas/NoteEvent) the check validates in full. */
  payloadSchemas?: string[];
  needs?: { keys?: KeyNeed[]; mock?: boolean; write?: boolean; receiver?: boolean };
  /** Uses mock state no scope separates (webhook receivers and deliveries, timings): runs alone, after the others. */
  exclusive?: boolean;
  /**
   * The service's documented durations the check waits for, one entry per wait made in turn (conformance/run/durations.ts):
   * its budget grows past --check-timeout to cover them, with a margin.
   */
  waits?: Array<'extraction' | 'regeneration' | 'delivery'>;
  run(ctx: CheckContext): Promise<void>;
}

export interface Failure {
  ruleId: string;
  message: string;
  expected: string;
  actual: string;
  /** The document's words the failed demand rests on (Expectation.says). */
  says?: string[];
  curl?: string;
  /** The operation of the request the failure judged (`GET /providers/{providerId}`; the path when no operation matches). */
  operation?: string;
  /** The status that request was answered with. */
  status?: number;
  /** With --baseline: the baseline has this failure (an entry of the same rule, check, operation, status, fingerprint). */
  known?: boolean;
  /** Found by --explore: the shrunk case (its curl lines are `curl`, one per step) and the id that replays it. */
  explored?: ExploredCase;
}

interface ExploredCase {
  /** `<seed>-<case>[-<shrinks>]`: `--explore --replay <id>` sends exactly this case again. */
  replay: string;
  kind: string;
  /** What the case tried (before shrinking). */
  label: string;
  /** Requests of the shrunk case, and of the case as generated. */
  steps: number;
  generatedSteps: number;
  /** Did the shrunk case fail again when re-sent once more? */
  rechecked: boolean;
  /** Further generated cases that failed the same check on the same operation. */
  alike: number;
}

/**
 * passed, failed, skipped (cannot run here, with the reason); blocked: a setup step did not give what the check needs
 * (the rule whose check judges that step is named); timed-out: the check ran out of its time budget.
 */
export type Outcome = 'passed' | 'failed' | 'skipped' | 'blocked' | 'timed-out';

/** What a blocked check waited for, and the rule (and its checks) that judges that step. */
interface BlockedBy {
  waitedFor: string;
  ruleId: string;
  checks: string[];
}

export interface CheckResult {
  name: string;
  area: Area;
  ruleId: string;
  rule: string;
  provenance: Provenance;
  outcome: Outcome;
  reason?: string;
  blockedBy?: BlockedBy;
  failures: Failure[];
  assertions: number;
  ms: number;
  /** Every failure of the check is in the --baseline (or, blocked or timed out, the check was so there): it does not fail the run. */
  known?: boolean;
  /** A result of --explore: one per check and operation explored, with the cases that reached it. */
  explored?: { operation: string; cases: number };
}

export interface NotChecked {
  ruleId: string;
  rule: string;
  provenance: Provenance;
  reason: string;
}

/** A rule checked by no named check of its own but by schema validation of every response (or payload). */
export interface CoveredBySchema {
  ruleId: string;
  rule: string;
  provenance: Provenance;
  check: string;
}

export interface RunReport {
  target: string;
  runId: string;
  profile: Profile;
  startedAt: string;
  seconds: number;
  results: CheckResult[];
  notChecked: NotChecked[];
  /** Rules about the shape of responses or payloads, checked through the schema checks. */
  coveredBySchemas: CoveredBySchema[];
  cleanup: { created: number; removed: number; leftovers: string[] };
  /** Judged from recorded traffic (--har): nothing was sent, so nothing was created or cleaned up. */
  recorded?: boolean;
  interrupted: boolean;
  /** Pauses taken because the target's rate-limit window was spent (429, X-RateLimit-Remaining 0). */
  pacing: { pauses: number; seconds: number };
  /** Failures grouped by what caused them (conformance/report/causes.ts): one request's answer, or one operation's status. */
  causes: Cause[];
  /** With --baseline: what it made known, what is new, which of its entries no longer fail or have expired. */
  baseline?: BaselineSummary;
  /** The shell variables the report's curl lines use, and how to set each. */
  variables?: CurlVariable[];
  /** With --explore: what was explored (the per check and operation results are in `results`, marked explored). */
  exploration?: ExplorationSummary;
  /** With --shard k/n: the share of the checks and of the exploration this report holds. */
  shard?: string;
  /** Said before the checks began: the key's rate limit will pace this run, about how long, and how to avoid it. */
  pacingForecast?: string;
  /** With --mock: the faults armed before the run that its first requests took, armed again (probe-faults.ts). */
  probeFaults?: string;
  /** With --explore: what a replay command needs besides the URL and profile (flags, the keys' variables). */
  rerun?: { flags: string[]; keyVars: string[] };
  /**
   * A run cut short by --max-time or by a target that stopped answering: why, the deadline, the checks not begun
   * (skipped, reason `not run: ...`) and those stopped while running (timed out, `stopped: ...`). Such a run fails.
   */
  stopped?: { why: string; maxSeconds: number; notRun: number; cutShort: number; explorationCut: boolean };
  /** What the service's asynchronous work took (timings.ts): observed, reported, never a bound. */
  timings?: Timing[];
  /** The share of the rules this run exercised (conformance/report/rule-coverage.ts); --min-coverage fails a run below it. */
  ruleCoverage?: RuleCoverage;
}

export interface RuleCoverage {
  /** What is counted: the documented testable rules (a live run), or the documented exchange rules (recorded traffic). */
  of: string;
  total: number;
  exercised: number;
  /** exercised / total, in percent, one decimal. */
  percent: number;
  /** The rules counted and not exercised. */
  missed: string[];
}

export interface ExplorationSummary {
  seed: number;
  budget: number;
  /** Cases sent (of the plan, or of this shard's share), requests they made, and those shrinking and re-checks made. */
  cases: number;
  requests: number;
  shrinkRequests: number;
  /** Cases that ended early: a setup gave nothing to work on (an empty list, a refused create). */
  incomplete: number;
  /** Why cases could not be sent at all (the rate limit's patience ran out, ...): the first few, with counts. */
  errors: string[];
  seconds: number;
  /** Milliseconds from the start of exploration to the first failing case's answer. */
  firstFailureMs?: number;
  /** Cases per kind (positive, negative, stateful, auth). */
  kinds: Record<string, number>;
}

/** A group of failures with one cause: `summary` says it (`GET /providers/{providerId} answered 404`). */
export interface Cause {
  summary: string;
  /** The checks it made fail, and their rule ids (same order). */
  checks: string[];
  rules: string[];
  /** How many failures (pieces of evidence) it accounts for. */
  failures: number;
  /** With --baseline: every failure of the cause is known. */
  known?: boolean;
}

interface BaselineSummary {
  file: string;
  /** Checks whose every failure the baseline has (`check [rule]`). */
  known: string[];
  /** Failures the baseline does not have (`check [rule] operation → status`). */
  new: string[];
  /** Baseline entries no check fails on any more: prune them. */
  fixed: string[];
  /** Baseline entries past their expiry date: they no longer excuse a failure. */
  expired: string[];
}

/** A variable a curl line of the report reads (`${NAME:?...}`): what it holds, and the shell line that sets it. */
export interface CurlVariable {
  name: string;
  holds: string;
  set: string;
}

export class SkipCheck extends Error {}

/** Thrown by a setup step that cannot go on: reported as blocked, not failed, naming the rule that judges the step. */
export class BlockedCheck extends Error {
  constructor(
    readonly waitedFor: string,
    readonly ruleId: string,
  ) {
    super(`waited for ${waitedFor}`);
  }
}

interface Expectation {
  expected: string;
  actual: string;
  exchange?: Exchange;
  message?: string;
  /**
   * The source document's words this demand rests on, verbatim (conformance/checks/demands.test.ts finds each in the
   * document); `kit: <why>` marks the kit's own reading, allowed only in a check of an assumed rule.
   */
  says?: string | readonly string[];
}

export interface CheckContext {
  name: string;
  contract: Contract;
  profile: Profile;
  schemas: SchemaValidator;
  http: Http;
  keys: Keys;
  runId: string;
  /** Prefix of every external_id the run creates. */
  prefix: string;
  readOnly: boolean;
  mock?: MockControl;
  receiver?: Receiver;
  cleanup: Cleanup;
  fixtures: Fixtures;
  /** Per request. */
  timeoutMs: number;
  /** The run's record of waits for the service (timings.ts): what extraction and regeneration took. */
  timings: Timings;
  /** Aborted when the check runs out of its time budget. */
  signal: AbortSignal;
  send(spec: RequestSpec): Promise<Exchange>;
  /** Records an assertion; a false condition is a failure of the check's rule. Returns cond. */
  expect(cond: boolean, e: Expectation): boolean;
  skip(reason: string): never;
  /** Setup cannot go on: `waitedFor` says what did not come, `ruleId` the rule whose check judges that step. */
  block(waitedFor: string, ruleId: string): never;
  /** A fresh external_id carrying the run prefix. */
  externalId(label: string): string;
  /** Waits (the check's budget permitting: rejects when it runs out). */
  sleep(ms: number): Promise<void>;
}
