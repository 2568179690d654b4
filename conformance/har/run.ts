// `conformance --har <file>`: recorded traffic judged offline by the one judge (judge/traffic.ts), as a
// run report every reporter renders. Each request, response and answer check is one result over every exchange of
// the file; the named checks, which send requests of their own, are listed as not applicable.
import { randomBytes } from 'node:crypto';
import { allChecks } from '../checks/index.ts';
import { Contract } from '../../spec/runtime/contract.ts';
import { coverage } from '../report/coverage.ts';
import { ASSUMED_SKIP, skippedAsAssumed } from '../../judge/profile.ts';
import { judgeTraffic, trafficChecks, trafficJudge, type TrafficJudge, type Verdict } from '../../judge/traffic.ts';
import { areaOf, type CheckResult, type Failure, type RunReport } from '../run/model.ts';
import { Register } from '../../spec/runtime/register.ts';
import { finishedReport } from '../run/suite-report.ts';
import type { Profile } from '../../spec/runtime/schemas.ts';
import { readHar } from './read.ts';
import { harRedactor } from './secrets.ts';
import { exercisedRules } from './exercised.ts';
import { trafficRuleCoverage } from '../report/rule-coverage.ts';

export const NEEDS_LIVE = 'not applicable to recorded traffic: the check sends requests of its own (run with --url)';
/** Failures kept per check, as in a suite run. */
const MAX_FAILURES = 50;

export interface HarRunOptions {
  har: string;
  profile: Profile;
  register?: Register;
}

function failureOf(v: Verdict, index: number, violation: Verdict['violations'][number]): Failure {
  const { request, response, operation } = v.exchange;
  return {
    ruleId: violation.ruleId,
    message: `${request.method} ${request.path} (entry ${index + 1}${violation.side === 'request' ? ": the client's request" : ''}) at ${violation.where}`,
    expected: violation.expected,
    actual: violation.actual,
    operation: operation ? `${operation.method} ${operation.template}` : `${request.method} ${request.path}`,
    status: response.status,
  };
}

/**
 * One result per rule each judged check names: its own, the rules it can name (a documented success status), and any
 * rule a finding named (a schema finding under the rule owning its node).
 */
function judgedResults(verdicts: Verdict[], judge: TrafficJudge, register: Register, profile: Profile): CheckResult[] {
  const results: CheckResult[] = [];
  for (const c of [...trafficChecks.request, ...trafficChecks.response]) {
    const own = c.rule;
    if (skippedAsAssumed(register.resolve(own).provenance, profile)) {
      results.push(resultRow(c.name, own, register, { outcome: 'skipped', reason: ASSUMED_SKIP, failures: [], assertions: 0 }));
      continue;
    }
    const judgedBy = verdicts.filter((v) => v.judged.includes(c.name));
    const named = 'judges' in c && c.judges ? c.judges(judge.contract, judge.rules) : [own];
    const failing = verdicts.flatMap((v, i) => v.violations.filter((x) => x.check === c.name).map((x) => failureOf(v, i, x)));
    for (const ruleId of new Set([...named, ...failing.map((f) => f.ruleId)])) {
      const failures = failing.filter((f) => f.ruleId === ruleId);
      // A rule stating an operation's status is judged on that operation's exchanges only.
      const judged = ruleId === own ? judgedBy.length : judgedBy.filter((v) => stated(judge, v).includes(ruleId)).length || failures.length;
      results.push(
        resultRow(c.name, ruleId, register, {
          outcome: failures.length ? 'failed' : judged ? 'passed' : 'skipped',
          reason: judged ? undefined : 'no recorded exchange it can judge (an operation of the contract, with the parts it reads)',
          failures: failures.slice(0, MAX_FAILURES),
          assertions: judged,
        }),
      );
    }
  }
  const unlisted = verdicts.filter((v) => v.unlisted);
  // The statuses the contract does not give are the kit's reading to fail (ERR-017, --profile all): shown, never passed.
  const statusRow = results.find((r) => r.ruleId === 'ERR-017' && r.outcome === 'skipped');
  if (statusRow && unlisted.length)
    statusRow.reason = `${statusRow.reason}; not in the contract: ${unlisted
      .slice(0, 5)
      .map((v) => `${v.exchange.request.method} ${v.exchange.request.path} ${v.exchange.response.status} (entry ${v.exchange.seq})`)
      .join(', ')}${unlisted.length > 5 ? ` and ${unlisted.length - 5} more` : ''}`;
  return results;
}

const stated = (judge: TrafficJudge, v: Verdict) =>
  v.exchange.operation ? [...judge.rules.statedStatuses(v.exchange.operation).values()].map((r) => r.id) : [];

function resultRow(
  name: string,
  ruleId: string,
  register: Register,
  outcome: Pick<CheckResult, 'outcome' | 'reason' | 'failures' | 'assertions'>,
): CheckResult {
  const rule = register.resolve(ruleId);
  return { name, area: areaOf(ruleId), ruleId, rule: rule.rule, provenance: rule.provenance, ms: 0, ...outcome };
}

export function runHar(opts: HarRunOptions): RunReport {
  const started = Date.now();
  const register = opts.register ?? Register.load();
  const contract = new Contract();
  const { exchanges, unanswered } = readHar(opts.har);
  const judge = trafficJudge(contract, register, opts.profile);
  const verdicts = exchanges.map((rec, i) => judgeTraffic(rec, judge, i + 1));
  const results = judgedResults(verdicts, judge, register, opts.profile);
  for (const c of allChecks) {
    const rule = register.resolve(c.rule);
    results.push({
      name: c.name,
      area: c.area,
      ruleId: c.rule,
      rule: rule.rule,
      provenance: rule.provenance,
      outcome: 'skipped',
      reason: NEEDS_LIVE,
      failures: [],
      assertions: 0,
      ms: 0,
    });
  }
  const judgedChecks = [...trafficChecks.request, ...trafficChecks.response];
  const { notChecked, coveredBySchemas } = coverage({
    register,
    contract,
    checks: allChecks,
    responseChecks: judgedChecks,
    selected: allChecks,
    results,
    profile: opts.profile,
  });
  const outside = verdicts.filter((v) => !v.exchange.operation).length;
  const unlisted = verdicts.filter((v) => v.unlisted).length;
  // Every key the file holds, plain or base64, is replaced wherever a report would quote it.
  return harRedactor(exchanges).deep(
    finishedReport(
      {
        target: `${opts.har} (recorded: ${exchanges.length} exchanges, ${outside} outside the contract's operations, ${
          unlisted ? `${unlisted} answered a status not in the contract, ` : ''
        }${unanswered} unanswered)`,
        runId: `har${randomBytes(3).toString('hex')}`,
        profile: opts.profile,
        notChecked,
        coveredBySchemas,
        cleanup: { created: 0, removed: 0, leftovers: [] },
        recorded: true,
        interrupted: false,
        pacing: { pauses: 0, seconds: 0 },
        ruleCoverage: trafficRuleCoverage(register, exercisedRules(verdicts, judge, results)),
      },
      { started, results, register },
    ),
  );
}
