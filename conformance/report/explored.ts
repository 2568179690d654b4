// What every reporter says of --explore: a result's label (an explored check is one per operation), the replay
// command of a failure it found, and what was explored (console: one line; HTML: operations × checks, cases sent).
import type { CheckResult, Failure, RunReport } from '../run/model.ts';
import { requiredVar, sq } from './curl.ts';

/** A check's name in a report; an explored one with its operation: `ignored_auth (explore: GET /providers)`. */
export const resultLabel = (r: Pick<CheckResult, 'name' | 'explored'>) =>
  r.explored ? `${r.name} (explore: ${r.explored.operation})` : r.name;

/**
 * The command that sends a failure's shrunk case again, as pasted into a shell: the flags the run's plan depends on
 * (--mock, whose keys shape the cases; --read-only) and the keys' variables, each required (unset, the shell stops
 * naming it, as the curl lines do), since a case planned with another organization's key differs without it.
 */
export function replayCommand(report: Pick<RunReport, 'target' | 'profile' | 'rerun'>, f: Failure): string | undefined {
  if (!f.explored) return undefined;
  const vars = (report.rerun?.keyVars ?? []).map(requiredVar);
  const flags = report.rerun?.flags ?? [];
  return [
    ...vars,
    'npm run conformance --',
    `--url ${sq(report.target)}`,
    ...flags,
    `--profile ${report.profile} --explore --replay ${f.explored.replay}`,
  ].join(' ');
}

/** Found by exploration: what the case tried, its replay id, how far it shrank and how many other cases failed alike. */
export function exploredNote(f: Failure): string | undefined {
  const e = f.explored;
  if (!e) return undefined;
  const alike = e.alike ? `; ${e.alike} more generated case(s) failed alike` : '';
  return `found by exploration (${e.kind} case, shrunk from ${e.generatedSteps} to ${e.steps} request(s)${e.rechecked ? ', re-checked' : ', NOT failing again when re-sent'}${alike}); replay id ${e.replay}`;
}

export function explorationLine(report: RunReport): string | undefined {
  const e = report.exploration;
  if (!e) return undefined;
  const kinds = Object.entries(e.kinds)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  const failed = report.results.filter((r) => r.explored && r.outcome === 'failed').length;
  const errors = e.errors?.length ? `; cases not sent: ${e.errors.join('; ')}` : '';
  return `explored: seed ${e.seed}, ${e.cases} cases (${kinds}), ${e.requests} requests + ${e.shrinkRequests} shrinking/re-checking, ${e.incomplete} incomplete, ${e.seconds.toFixed(1)} s; ${failed} check×operation failed${report.shard ? `; shard ${report.shard}` : ''}${errors}`;
}

/** Operations × checks: cases that reached each pair, ✗ where it failed. */
export function explorationTable(report: RunReport, h: (s: unknown) => string): string {
  const e = report.exploration;
  if (!e) return '';
  const rs = report.results.filter((r) => r.explored);
  const ops = [...new Set(rs.map((r) => r.explored!.operation))].sort();
  const checks = [...new Set(rs.map((r) => r.name))];
  const cell = (op: string, check: string) => {
    const r = rs.find((x) => x.name === check && x.explored!.operation === op);
    if (!r) return '<td></td>';
    return `<td class="${r.outcome}" title="${h(`${check} on ${op}: ${r.explored!.cases} case(s), ${r.outcome}`)}">${r.outcome === 'failed' ? '✗ ' : ''}${r.explored!.cases}</td>`;
  };
  const head = `<tr><th>operation</th>${checks.map((c) => `<th>${h(c)}</th>`).join('')}</tr>`;
  const rows = ops.map((op) => `<tr><td>${h(op)}</td>${checks.map((c) => cell(op, c)).join('')}</tr>`).join('\n');
  return `<section id="explored"><h2>Explored</h2><p>${h(explorationLine(report))}. Each cell: cases that reached the check on the operation (✗ failed; its shrunk case is under the check below).</p>
<div class="matrix"><table>${head}\n${rows}</table></div></section>\n`;
}
