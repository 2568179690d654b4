// Console: while the run goes, a count of finished checks; at the end each failure (rule, expected, actual, curl),
// one line per area (register order, checks by name, as in every report), the checks that did not run, the
// variables the curl lines read, the baseline's verdict, and last the failures grouped by cause. Whatever the target
// sent is shown, never obeyed: control characters are escaped.
import { coverageLine } from './rule-coverage.ts';
import { baselineLines } from './baseline.ts';
import type { Area, CheckResult, Failure, Outcome, RunReport } from '../run/model.ts';
import { printable } from './printable.ts';
import { timingLine, timingTable } from './timings.ts';
import { explorationLine, exploredNote, replayCommand, resultLabel } from './explored.ts';
import { failedHeading, figures } from './figures.ts';

const mark: Record<Outcome, string> = { passed: '✓', failed: '✗', skipped: '-', blocked: '⊘', 'timed-out': '⏱' };

/** "3 passed, 1 failed, 2 skipped" plus blocked and timed out when there are any. */
function counts(results: CheckResult[]): string {
  const n = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  const extra = (['blocked', 'timed-out'] as const).filter((o) => n(o)).map((o) => `, ${n(o)} ${o.replace('-', ' ')}`);
  return `${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped${extra.join('')}`;
}

/** An area's counts, then a mark per check in the report's order (by name). */
function areaLine(area: Area, results: CheckResult[]): string {
  return `  ${area.padEnd(6)} ${counts(results).padEnd(34)} ${results.map((r) => mark[r.outcome] ?? '?').join('')}`;
}

/** Progress while the run goes (areas are printed once, at the end, in a fixed order): how many checks have ended. */
export function progressCounter(): (results: CheckResult[]) => string {
  const done: CheckResult[] = [];
  return (results) => {
    done.push(...results);
    return `  ... ${done.length} checks done (${counts(done)})`;
  };
}

const oneLine = (s: string, max = Number.POSITIVE_INFINITY) => String(s).replace(/\s+/g, ' ').slice(0, max);

function failureLines(r: CheckResult, withBaseline: boolean, report: RunReport): string[] {
  const tag = (f: Failure) => (withBaseline ? (f.known ? '[known] ' : '[new] ') : '');
  // New failures first: the five shown are the ones that fail the run.
  const shown = withBaseline ? [...r.failures].sort((a, b) => Number(!!a.known) - Number(!!b.known)) : r.failures;
  const lines: string[] = [];
  for (const f of shown.slice(0, 5)) {
    // One line each: a newline the target put in a message must not start a line of its own.
    lines.push(`    ${tag(f)}${oneLine(f.message)}`, `      expected: ${oneLine(f.expected)}`, `      actual:   ${oneLine(f.actual, 300)}`);
    if (f.says?.length) lines.push(`      document: ${oneLine(f.says.map((w) => `"${w}"`).join(' '), 300)}`);
    const found = exploredNote(f);
    if (found) lines.push(`      ${found}`);
    if (f.curl) lines.push(`      reproduce: ${f.curl.replace(/\n/g, '\n                 ')}`);
    const replay = replayCommand(report, f);
    if (replay) lines.push(`      replay:    ${replay}`);
  }
  if (r.failures.length > 5) lines.push(`    ... and ${r.failures.length - 5} more (see the JSON or HTML report)`);
  return lines;
}

function knownNote(r: CheckResult): string {
  if (r.known) return '  (known: the baseline has it)';
  const known = r.failures.filter((f) => f.known).length;
  return known ? `  (${r.failures.length - known} new, ${known} known)` : '';
}

/** How to set the variables the curl lines read: one `. keys.env` (--mock), else an export line each. */
function variableLines(report: RunReport): string[] {
  const vars = report.variables ?? [];
  if (!vars.length) return [];
  const lines = ['', 'The curl lines read these variables; set them first (a line with one unset stops, naming it):'];
  for (const set of new Set(vars.map((v) => v.set))) {
    const names = vars.filter((v) => v.set === set);
    lines.push(`  ${set}`, ...names.map((v) => `      # ${v.name}: ${v.holds}`));
  }
  return lines;
}

/** A run cut short by --max-time or a silent target: what did not run, and what the rate limit's waits took of it. */
export function stoppedLine(report: RunReport): string | undefined {
  const st = report.stopped;
  if (!st) return undefined;
  const waits = report.pacing.pauses ? `; rate-limit waits took ${Math.round(report.pacing.seconds)} s of it` : '';
  const explore = st.explorationCut ? ', the exploration cut short' : '';
  return `STOPPED EARLY: ${st.why}: ${st.cutShort} check(s) stopped while running (timed out), ${st.notRun} not run (skipped)${explore}${waits}; results are partial and the run fails`;
}

function causeLines(report: RunReport): string[] {
  const f = figures(report);
  if (!f.failed) return ['', 'no failures'];
  const lines = ['', `${failedHeading(f)}:`];
  report.causes.forEach((c, i) => {
    const known = c.known === undefined ? '' : c.known ? ' (known)' : ' (new)';
    lines.push(
      `  ${i + 1}. ${c.summary}${known}: ${c.checks.length} check${c.checks.length === 1 ? '' : 's'}, ${c.failures} failure${c.failures === 1 ? '' : 's'}`,
      `     ${c.checks.map((name, j) => `${name} [${c.rules[j]}]`).join(', ')}`,
    );
  });
  return lines;
}

/** `files`: the reports written, named before the closing blocks (the console ends with the causes). */
export function renderConsole(report: RunReport, files: string[] = []): string {
  const lines: string[] = [];
  const failed = report.results.filter((r) => r.outcome === 'failed');
  if (failed.length) lines.push('', 'Failures:');
  for (const r of failed)
    lines.push(
      '',
      `✗ ${resultLabel(r)}  [${r.ruleId}, ${r.provenance}]${knownNote(r)}  ${r.rule}`,
      ...failureLines(r, !!report.baseline, report),
    );
  lines.push('', 'Summary by area:');
  for (const a of [...new Set(report.results.map((r) => r.area))])
    lines.push(
      areaLine(
        a,
        report.results.filter((r) => r.area === a),
      ),
    );
  for (const [o, title] of [
    ['timed-out', 'Timed out'],
    ['blocked', 'Blocked (a setup step of theirs did not work)'],
    ['skipped', 'Skipped'],
  ] as const) {
    const rs = report.results.filter((r) => r.outcome === o);
    if (rs.length) lines.push('', `${title}:`, ...rs.map((r) => `  ${mark[o]} ${resultLabel(r)} [${r.ruleId}]: ${r.reason ?? ''}`));
  }
  lines.push(
    '',
    `${counts(report.results)}; ${report.coveredBySchemas.length} more rules checked through the schema checks; ${report.notChecked.length} rules not checked, each with its reason (listed in the JSON/HTML reports); ${report.seconds.toFixed(1)} s; profile ${report.profile}; run ${report.runId}`,
  );
  if (report.ruleCoverage) lines.push(coverageLine(report.ruleCoverage));
  const waits = timingTable(report.timings ?? []);
  if (waits.length)
    lines.push('waits for the service (observed; never judged against words of time):', ...waits.map((r) => `  ${timingLine(r)}`));
  // Recorded traffic (--har) sent nothing: a cleanup line would only say 0/0.
  if (!report.recorded)
    lines.push(
      `cleanup: ${report.cleanup.removed}/${report.cleanup.created} created resources removed${report.cleanup.leftovers.length ? '; LEFT BEHIND:' : ''}`,
      ...report.cleanup.leftovers.map((l) => `  ${l}`),
    );
  if (report.pacing.pauses)
    lines.push(
      `rate limit: the target's window was spent ${report.pacing.pauses} time(s); paused ${Math.round(report.pacing.seconds)} s and resent (use a key of its own for the suite, or a higher limit)`,
    );
  const explored = explorationLine(report);
  if (explored) lines.push(explored);
  if (report.probeFaults) lines.push(report.probeFaults);
  if (report.interrupted) lines.push('interrupted (Ctrl-C): results are partial');
  const stopped = stoppedLine(report);
  if (stopped) lines.push(stopped);
  if (files.length) lines.push(`reports: ${files.join(', ')}`);
  const baseline = baselineLines(report);
  lines.push(...variableLines(report), ...(baseline.length ? ['', ...baseline] : []), ...causeLines(report));
  return printable(lines.join('\n'));
}
