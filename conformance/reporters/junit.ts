// JUnit XML for CI: one testsuite per area, one testcase per check (classname = area, name = check [rule id]).
// A blocked check is <skipped> with what it waited for; a timed-out check is an <error> with what it was waiting on.
import type { RunReport } from '../model.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the C0 controls XML 1.0 cannot carry, stripped on purpose
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

const x = (v: unknown) =>
  String(v ?? '')
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

export function renderJunit(report: RunReport): string {
  const areas = [...new Set(report.results.map((r) => r.area))];
  // A known failure (--baseline) is a skip for CI: reported, not failing the pipeline.
  const outcome = (r: RunReport['results'][number]) => (r.known ? 'skipped' : r.outcome);
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
      out.push(`    <testcase classname="${x(a)}" name="${x(`${r.name} [${r.ruleId}]`)}" time="${(r.ms / 1000).toFixed(3)}">`);
      out.push(
        `      <properties><property name="rule_id" value="${x(r.ruleId)}"/><property name="provenance" value="${r.provenance}"/><property name="rule" value="${x(r.rule)}"/></properties>`,
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
        const text = r.failures
          .map((f) => `${f.message}\nexpected: ${f.expected}\nactual: ${f.actual}${f.curl ? `\nreproduce: ${f.curl}` : ''}`)
          .join('\n\n');
        out.push(
          `      <failure message="${x(`${r.ruleId}: ${r.failures[0]?.expected ?? ''}`)}" type="${x(r.ruleId)}">${x(text)}</failure>`,
        );
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
