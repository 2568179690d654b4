// Console: one progress line per area as it completes, then failures (rule, expected, actual, curl) and a
// summary by area.
import type { Area, CheckResult, Outcome, RunReport } from '../model.ts';

const mark: Record<Outcome, string> = { passed: '✓', failed: '✗', skipped: '-', blocked: '⊘', 'timed-out': '⏱' };

/** "3 passed, 1 failed, 2 skipped" plus blocked and timed out when there are any. */
function counts(results: CheckResult[]): string {
  const n = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  const extra = (['blocked', 'timed-out'] as const).filter((o) => n(o)).map((o) => `, ${n(o)} ${o.replace('-', ' ')}`);
  return `${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped${extra.join('')}`;
}

export function areaLine(area: Area, results: CheckResult[]): string {
  const marks = results.map((r) => mark[r.outcome] ?? '?').join('');
  return `  ${area.padEnd(14)} ${marks.padEnd(12)} ${counts(results)}`;
}

export function renderConsole(report: RunReport): string {
  const lines: string[] = [];
  const failed = report.results.filter((r) => r.outcome === 'failed');
  if (failed.length) lines.push('', 'Failures:');
  for (const r of failed) {
    lines.push('', `✗ ${r.name}  [${r.ruleId}, ${r.provenance}]${r.known ? '  (known: the baseline has it)' : ''}  ${r.rule}`);
    for (const f of r.failures.slice(0, 5)) {
      lines.push(
        `    ${f.message}`,
        `      expected: ${f.expected}`,
        `      actual:   ${String(f.actual).replace(/\s+/g, ' ').slice(0, 300)}`,
      );
      if (f.curl) lines.push(`      reproduce: ${f.curl}`);
    }
    if (r.failures.length > 5) lines.push(`    ... and ${r.failures.length - 5} more (see the JSON or HTML report)`);
  }
  lines.push('', 'Summary by area:');
  const areas = [...new Set(report.results.map((r) => r.area))];
  for (const a of areas)
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
    if (rs.length) lines.push('', `${title}:`, ...rs.map((r) => `  ${mark[o]} ${r.name} [${r.ruleId}]: ${r.reason ?? ''}`));
  }
  lines.push(
    '',
    `${counts(report.results)}; ${report.coveredBySchemas.length} more rules checked through the schema checks; ${report.notChecked.length} rules not checked, each with its reason (listed in the JSON/HTML reports); ${report.seconds.toFixed(1)} s; profile ${report.profile}; run ${report.runId}`,
    `cleanup: ${report.cleanup.removed}/${report.cleanup.created} created resources removed${report.cleanup.leftovers.length ? '; LEFT BEHIND:' : ''}`,
    ...report.cleanup.leftovers.map((l) => `  ${l}`),
  );
  if (report.pacing.pauses)
    lines.push(
      `rate limit: the target's window was spent ${report.pacing.pauses} time(s); paused ${Math.round(report.pacing.seconds)} s and resent (use a key of its own for the suite, or a higher limit)`,
    );
  if (report.interrupted) lines.push('interrupted (Ctrl-C): results are partial');
  return lines.join('\n');
}
