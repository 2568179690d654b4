// --baseline <file>: failures CI already knows about. An entry names a rule, a check, the operation and status of the
// request that failed and a fingerprint of what was expected, so a new failure under an already-failing rule or
// check (the same key check now failing on DELETE /patients/{id} with 500) is new and fails the run. An entry may
// carry `expires` (a date): past it, it no longer excuses. The run lists the entries that no longer fail (prune).
// The file is the baseline.json a run writes next to report.json (entries with optional `expires`), or an earlier
// report.json itself, read the same way (reports written before entries existed: operation and status are read
// from each failure's text where they can be; what cannot be read matches any).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { causesOf, failuresOf, shapeOf } from './causes.ts';
import { Contract } from '../../spec/runtime/contract.ts';
import type { CheckResult, Failure, RunReport } from '../run/model.ts';
import { printable } from './printable.ts';

export class BaselineError extends Error {}

type Judged = 'failed' | 'blocked' | 'timed-out';

interface BaselineEntry {
  check: string;
  rule: string;
  outcome: Judged;
  /** null: the failure had no request; absent: unknown (an older report), matches any. */
  operation?: string | null;
  status?: number | null;
  /** Of what the failure expected, ids and numbers aside (failed entries only). */
  fingerprint?: string;
  /** YYYY-MM-DD: from the day after, the entry no longer excuses a failure. */
  expires?: string;
  /** What the failure expected, for the person reading the file. */
  expected?: string;
}

export interface Baseline {
  file: string;
  entries: BaselineEntry[];
}

const judged = (o: string): o is Judged => o === 'failed' || o === 'blocked' || o === 'timed-out';

/** 8 hex digits of what a failure expected, with what changes from run to run taken out. */
const fingerprintOf = (f: Pick<Failure, 'expected'>) =>
  createHash('sha256')
    .update(shapeOf(printable(f.expected)))
    .digest('hex')
    .slice(0, 8);

export function loadBaseline(file: string): Baseline {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new BaselineError(`--baseline: cannot read ${file} as JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  const doc = (parsed ?? {}) as { entries?: unknown; results?: unknown };
  const entries = Array.isArray(doc.entries) ? entriesOfFile(file, doc.entries) : entriesOfReport(file, doc.results);
  for (const e of entries)
    if (e.expires !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(e.expires) || Number.isNaN(Date.parse(e.expires))))
      throw new BaselineError(`--baseline: ${file}: entry ${describeEntry(e)} has expires "${e.expires}", not a date (YYYY-MM-DD)`);
  return { file, entries };
}

function entriesOfFile(file: string, raw: unknown[]): BaselineEntry[] {
  const bad = raw.findIndex(
    (e) =>
      !e ||
      typeof (e as BaselineEntry).check !== 'string' ||
      typeof (e as BaselineEntry).rule !== 'string' ||
      !judged(String((e as BaselineEntry).outcome)) ||
      ((e as BaselineEntry).outcome === 'failed' && typeof (e as BaselineEntry).fingerprint !== 'string'),
  );
  if (bad >= 0)
    throw new BaselineError(
      `--baseline: ${file}: entry ${bad + 1} needs check, rule, outcome (failed, blocked or timed-out) and, when failed, fingerprint`,
    );
  return raw as BaselineEntry[];
}

function entriesOfReport(file: string, results: unknown): BaselineEntry[] {
  if (
    !Array.isArray(results) ||
    results.some((r) => !r || typeof r.name !== 'string' || typeof r.ruleId !== 'string' || typeof r.outcome !== 'string')
  )
    throw new BaselineError(
      `--baseline: ${file} is neither a baseline.json nor a report.json of clinical-records-conformance (it needs entries, or results with name, ruleId and outcome)`,
    );
  let contract: Contract | undefined;
  const older = (f: Failure) => readOlderFailure(f, (contract ??= new Contract()));
  return dedupe((results as CheckResult[]).flatMap((r) => entriesOf(r, older)));
}

/** A report written before failures carried their operation and status: read both from the failure's text. */
function readOlderFailure(f: Failure, contract: Contract): Pick<BaselineEntry, 'operation' | 'status'> {
  const req = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\/\S*)/.exec(f.message);
  const status = /^(\d{3})\b/.exec(String(f.actual));
  const op = req ? contract.match(req[1]!, req[2]!) : undefined;
  return {
    operation: op ? `${op.method} ${op.template}` : undefined,
    status: status ? Number(status[1]) : undefined,
  };
}

/** The entries of one result: one per distinct failure (failed), or the outcome itself (blocked, timed out). */
function entriesOf(r: CheckResult, older?: (f: Failure) => Pick<BaselineEntry, 'operation' | 'status'>): BaselineEntry[] {
  if (!judged(r.outcome)) return [];
  const base = { check: r.name, rule: r.ruleId, outcome: r.outcome };
  if (r.outcome !== 'failed') return [base];
  return failuresOf(r).map((f) => ({
    ...base,
    ...(f.operation === undefined && older ? older(f) : { operation: f.operation ?? null, status: f.status ?? null }),
    fingerprint: fingerprintOf(f),
    expected: printable(f.expected).slice(0, 200),
  }));
}

const keyOf = (e: BaselineEntry) => [e.check, e.rule, e.outcome, e.operation, e.status, e.fingerprint].join('\u0000');

function dedupe(entries: BaselineEntry[]): BaselineEntry[] {
  const seen = new Map<string, BaselineEntry>();
  for (const e of entries) if (!seen.has(keyOf(e))) seen.set(keyOf(e), e);
  return [...seen.values()];
}

const expired = (e: BaselineEntry, now: Date) => e.expires !== undefined && now.getTime() >= Date.parse(e.expires) + 24 * 3600 * 1000;

/** Does `e` describe failure `f` of result `r` (or, without `f`, the blocked or timed-out result)? */
function matches(e: BaselineEntry, r: CheckResult, f?: Failure): boolean {
  if (e.check !== r.name || e.rule !== r.ruleId || e.outcome !== r.outcome) return false;
  if (!f) return true;
  return (
    (e.operation === undefined || e.operation === (f.operation ?? null)) &&
    (e.status === undefined || e.status === (f.status ?? null)) &&
    e.fingerprint === fingerprintOf(f)
  );
}

const describeEntry = (e: BaselineEntry) =>
  `${e.check} [${e.rule}]${e.outcome === 'failed' ? ` ${e.operation ?? (e.operation === null ? '(no request)' : '(any request)')} → ${e.status ?? 'any'} #${e.fingerprint}` : ` ${e.outcome}`}`;
const describeFailure = (r: CheckResult, f?: Failure) =>
  `${r.name} [${r.ruleId}]${f ? ` ${f.operation ?? '(no request)'} → ${f.status ?? 'no answer'}` : ` ${r.outcome}`}`;

/**
 * Marks what the baseline has (`known` on each failure, and on a result all of whose failures it has), regroups the
 * causes, and records what is new, which entries no longer fail (fixed) and which have expired.
 */
export function applyBaseline(report: RunReport, baseline: Baseline, now = new Date()): RunReport {
  const live = baseline.entries.filter((e) => !expired(e, now));
  const used = new Set<BaselineEntry>();
  const lapsed = new Set<BaselineEntry>();
  const fresh: string[] = [];
  const find = (r: CheckResult, f?: Failure) => {
    const e = live.find((x) => matches(x, r, f));
    if (e) used.add(e);
    else {
      const old = baseline.entries.find((x) => expired(x, now) && matches(x, r, f));
      if (old) lapsed.add(old);
      fresh.push(describeFailure(r, f));
    }
    return !!e;
  };
  const results = report.results.map((r): CheckResult => {
    if (!judged(r.outcome)) return r;
    if (r.outcome !== 'failed') return { ...r, known: find(r) };
    if (!r.failures.length) return { ...r, known: find(r, failuresOf(r)[0]) };
    const failures = r.failures.map((f) => ({ ...f, known: find(r, f) }));
    return { ...r, failures, known: failures.every((f) => f.known) };
  });
  const ran = new Set(results.filter((r) => r.outcome !== 'skipped').map((r) => r.name));
  return {
    ...report,
    results,
    causes: causesOf(results),
    baseline: {
      file: baseline.file,
      known: results.filter((r) => r.known).map((r) => `${r.name} [${r.ruleId}]`),
      new: [...new Set(fresh)],
      fixed: baseline.entries.filter((e) => !used.has(e) && !lapsed.has(e) && ran.has(e.check)).map(describeEntry),
      expired: [...lapsed].map((e) => `${describeEntry(e)} (expired ${e.expires})`),
    },
  };
}

/**
 * A run fails on a failure the baseline did not have: a failed or timed-out check, or a blocked one (a setup step
 * it needs did not work; its own check then fails too, or did not run).
 */
/** A run fails on a judged outcome the baseline does not know, or when it was cut short (--max-time, a silent target). */
export const failsRun = (report: RunReport) => !!report.stopped || report.results.some((r) => judged(r.outcome) && !r.known);

/** baseline.json: this run's failures as entries, ready to commit; `expires` carried over from the baseline used. */
export function baselineFile(report: RunReport, previous?: Baseline): string {
  const entries = dedupe(report.results.flatMap((r) => entriesOf(r)));
  for (const e of entries) {
    const expires = previous?.entries.find((p) => p.expires && keyOf({ ...p, expires: undefined }) === keyOf(e))?.expires;
    if (expires) e.expires = expires;
  }
  return `${JSON.stringify({ tool: 'clinical-records-conformance', target: report.target, runId: report.runId, entries }, null, 2)}\n`;
}

/** Console lines: what the baseline made known, what is new, and its entries that are fixed or expired. */
export function baselineLines(report: RunReport): string[] {
  const b = report.baseline;
  if (!b) return [];
  const list = (xs: string[]) => (xs.length > 20 ? `${xs.slice(0, 20).join(', ')}, ... (${xs.length - 20} more)` : xs.join(', '));
  return [
    `baseline ${b.file}: ${b.known.length} known failure(s) reported but not failing the run${b.known.length ? ` (${list(b.known)})` : ''}`,
    b.new.length ? `new since the baseline (${b.new.length}, failing the run): ${list(b.new)}` : 'new since the baseline: none',
    ...(b.expired.length ? [`expired baseline entries (no longer excusing a failure): ${list(b.expired)}`] : []),
    b.fixed.length
      ? `fixed since the baseline: ${list(b.fixed)} (prune these entries from the baseline)`
      : 'fixed since the baseline: none',
  ];
}
