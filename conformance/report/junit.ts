// JUnit XML for CI: one testsuite per area, one testcase per check (classname = area, name = check [rule id]).
// A blocked check is <skipped> with what it waited for; a timed-out check is an <error> with what it was waiting on.
// A failed check names its causes (a `cause` property each) and lists its evidence by cause, with the other checks
// that cause failed, so CI shows one defect as one defect. Known failures (--baseline) are skips.
import { causeGroups } from './causes.ts';
import type { CheckResult, Failure, RunReport } from '../run/model.ts';
import { printable } from './printable.ts';
import { resultLabel } from './explored.ts';

/** Text for XML content and attributes. */
export const x = (v: unknown) =>
  // printable spells out the control characters XML 1.0 cannot carry.
  printable(String(v ?? ''))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const evidence = (f: Failure, withBaseline: boolean) =>
  `${withBaseline ? (f.known ? '[known] ' : '[new] ') : ''}${f.message}\nexpected: ${f.expected}\nactual: ${f.actual}${f.says?.length ? `\ndocument: ${f.says.map((w) => `"${w}"`).join(' ')}` : ''}${f.curl ? `\nreproduce: ${f.curl}` : ''}`;

export function renderJunit(report: RunReport): string {
  const areas = [...new Set(report.results.map((r) => r.area))];
  const groups = causeGroups(report.results);
  /** Per check: its causes (number, summary, the other checks) and the failures of each. */
  const causesOfCheck = (r: CheckResult) =>
    groups
      .map((g, i) => ({ n: i + 1, g, mine: g.members.filter((m) => m.result.name === r.name).map((m) => m.failure) }))
      .filter((c) => c.mine.length);
  // A known failure (--baseline) is a skip for CI: reported, not failing the pipeline.
  const outcome = (r: CheckResult) => (r.known ? 'skipped' : r.outcome);
  const count = (o: string, rs = report.results) => rs.filter((r) => outcome(r) === o).length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="clinical-records-conformance" tests="${report.results.length}" failures="${count('failed')}" errors="${count('timed-out')}" skipped="${count('skipped') + count('blocked')}" time="${report.seconds.toFixed(3)}">`,
  ];
  for (const a of areas) {
    const rs = report.results.filter((r) => r.area === a);
    out.push(
      `  <testsuite name="${x(a)}" tests="${rs.length}" failures="${count('failed', rs)}" errors="${count('timed-out', rs)}" skipped="${count('skipped', rs) + count('blocked', rs)}" time="${(rs.reduce((s, r) => s + r.ms, 0) / 1000).toFixed(3)}">`,
    );
    for (const r of rs) {
      const causes = r.outcome === 'failed' ? causesOfCheck(r) : [];
      out.push(`    <testcase classname="${x(a)}" name="${x(`${resultLabel(r)} [${r.ruleId}]`)}" time="${(r.ms / 1000).toFixed(3)}">`);
      out.push(
        `      <properties><property name="rule_id" value="${x(r.ruleId)}"/><property name="provenance" value="${r.provenance}"/><property name="rule" value="${x(r.rule)}"/>${causes.map((c) => `<property name="cause" value="${x(`${c.n}: ${c.g.cause.summary}`)}"/>`).join('')}</properties>`,
      );
      if (r.outcome === 'skipped') out.push(`      <skipped message="${x(r.reason ?? '')}"/>`);
      if (r.known)
        out.push(
          `      <skipped message="${x(`known failure (in the baseline): ${r.ruleId}: ${r.failures[0]?.expected ?? r.reason ?? r.outcome}`)}"/>`,
        );
      else if (r.outcome === 'blocked') out.push(`      <skipped message="${x(`blocked: ${r.reason ?? ''}`)}"/>`);
      else if (r.outcome === 'timed-out')
        out.push(
          `      <error message="${x(`timed out: ${r.reason ?? ''}`)}" type="timed-out">${x(r.failures.map((f) => `${f.message}\nexpected: ${f.expected}\nactual: ${f.actual}`).join('\n\n'))}</error>`,
        );
      else if (r.outcome === 'failed') {
        const text = causes
          .map(({ n, g, mine }) => {
            const others = g.cause.checks.filter((c) => c !== r.name).map((c) => `${c} [${g.cause.rules[g.cause.checks.indexOf(c)]}]`);
            const head = `cause ${n} of ${groups.length}: ${g.cause.summary}${others.length ? ` (also failing: ${others.join(', ')})` : ''}`;
            return [head, ...mine.map((f) => evidence(f, !!report.baseline))].join('\n\n');
          })
          .join('\n\n');
        const first = causes[0];
        const why = first ? `cause ${first.n}: ${first.g.cause.summary}` : (r.failures[0]?.expected ?? '');
        out.push(`      <failure message="${x(`${r.ruleId}: ${why}`)}" type="${x(r.ruleId)}">${x(text)}</failure>`);
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
