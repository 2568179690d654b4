// `conformance --har <file>`: recorded traffic judged offline by the one judge (conformance/judge/traffic.ts), as a
// run report every reporter renders. Each request, response and answer check is one result over every exchange of
// the file; the named checks, which send requests of their own, are listed as not applicable.
import { randomBytes } from 'node:crypto';
import { allChecks, responseChecks } from '../checks/index.ts';
import { Contract } from '../contract.ts';
import { coverage } from '../coverage.ts';
import { answerChecks } from '../judge/answers.ts';
import { ASSUMED_SKIP, skippedAsAssumed } from '../judge/profile.ts';
import { requestChecks } from '../judge/request.ts';
import { judgeTraffic, trafficJudge, type Verdict } from '../judge/traffic.ts';
import { areaOf, type CheckResult, type Failure, type RunReport } from '../model.ts';
import { Register } from '../register.ts';
import { finishedReport } from '../runner.ts';
import type { Profile } from '../schemas.ts';
import { readHar } from './read.ts';

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

export function runHar(opts: HarRunOptions): RunReport {
  const started = Date.now();
  const register = opts.register ?? Register.load();
  const contract = new Contract();
  const { exchanges, unanswered } = readHar(opts.har);
  const judge = trafficJudge(contract, register, opts.profile);
  const verdicts = exchanges.map((rec, i) => judgeTraffic(rec, judge, i + 1));

  const results: CheckResult[] = [];
  for (const c of [...requestChecks, ...responseChecks, ...answerChecks]) {
    const rule = register.resolve(c.rule);
    const base = { name: c.name, area: areaOf(c.rule), ruleId: c.rule, rule: rule.rule, provenance: rule.provenance, ms: 0 };
    if (skippedAsAssumed(rule.provenance, opts.profile)) {
      results.push({ ...base, outcome: 'skipped', reason: ASSUMED_SKIP, failures: [], assertions: 0 });
      continue;
    }
    const judged = verdicts.filter((v) => v.judged.includes(c.name));
    const failures = verdicts.flatMap((v, i) => v.violations.filter((x) => x.check === c.name).map((x) => failureOf(v, i, x)));
    results.push({
      ...base,
      outcome: failures.length ? 'failed' : judged.length ? 'passed' : 'skipped',
      reason: judged.length ? undefined : 'no recorded exchange it can judge (an operation of the contract, with the parts it reads)',
      failures: failures.slice(0, MAX_FAILURES),
      assertions: judged.length,
    });
  }
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
  const judgedChecks = [...requestChecks, ...responseChecks, ...answerChecks];
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
  return finishedReport(
    {
      target: `${opts.har} (recorded: ${exchanges.length} exchanges, ${outside} outside the contract's operations, ${unanswered} unanswered)`,
      runId: `har${randomBytes(3).toString('hex')}`,
      profile: opts.profile,
      notChecked,
      coveredBySchemas,
      cleanup: { created: 0, removed: 0, leftovers: [] },
      recorded: true,
      interrupted: false,
      pacing: { pauses: 0, seconds: 0 },
    },
    { started, results, register },
  );
}
