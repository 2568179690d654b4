// One self-contained HTML file (inline CSS, no scripts or external assets) a person can open and read.
import type { RunReport } from '../model.ts';

const h = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function renderHtml(report: RunReport): string {
  const n = (o: string) => report.results.filter((r) => r.outcome === o).length;
  const areas = [...new Set(report.results.map((r) => r.area))];
  const rows = areas
    .map((a) => {
      const rs = report.results.filter((r) => r.area === a);
      return `<h2>${h(a)} <small>${rs.filter((r) => r.outcome === 'passed').length}/${rs.length} passed</small></h2>
<table><tr><th>check</th><th>rule</th><th>provenance</th><th>outcome</th></tr>
${rs
  .map(
    (
      r,
    ) => `<tr class="${r.outcome}"><td>${h(r.name)}</td><td><b>${h(r.ruleId)}</b> ${h(r.rule)}</td><td>${r.provenance}</td><td>${r.outcome}${r.known ? ' (known: in the baseline)' : ''}${r.reason ? `: ${h(r.reason)}` : ''}</td></tr>
${r.failures
  .map(
    (f) =>
      `<tr class="detail"><td colspan="4"><div>${h(f.message)}</div><div><b>expected</b> ${h(f.expected)}</div><div><b>actual</b> <code>${h(f.actual.slice(0, 2000))}</code></div>${f.curl ? `<pre>${h(f.curl)}</pre>` : ''}</td></tr>`,
  )
  .join('\n')}`,
  )
  .join('\n')}</table>`;
    })
    .join('\n');
  const bySchema = report.coveredBySchemas
    .map((r) => `<tr><td><b>${h(r.ruleId)}</b> ${h(r.rule)}</td><td>${r.provenance}</td><td>checked by ${h(r.check)}</td></tr>`)
    .join('\n');
  const notChecked = report.notChecked
    .map((r) => `<tr><td><b>${h(r.ruleId)}</b> ${h(r.rule)}</td><td>${r.provenance}</td><td>${h(r.reason)}</td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance report ${h(report.runId)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;width:100%;margin-bottom:1em}
td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}tr.passed td:last-child{color:#17702a}
tr.failed td{background:#fde8e8}tr.failed td:last-child{color:#b00020;font-weight:bold}tr.skipped td{color:#777}
tr.detail td{background:#fff6f6;font-size:13px}pre,code{white-space:pre-wrap;word-break:break-all;background:#f4f4f4;padding:2px 4px}
.summary span{margin-right:1.5em;font-size:16px}
</style></head><body>
<h1>Conformance report</h1>
<p>Target <code>${h(report.target)}</code> · profile <b>${report.profile}</b> · run ${h(report.runId)} · ${h(report.startedAt)} · ${report.seconds.toFixed(1)} s${report.pacing.pauses ? ` · paused ${Math.round(report.pacing.seconds)} s for the target's rate limit` : ''}${report.interrupted ? ' · <b>interrupted</b>' : ''}</p>
<p class="summary"><span>✓ ${n('passed')} passed</span><span>✗ ${n('failed')} failed</span><span>- ${n('skipped')} skipped</span><span>${report.notChecked.length} rules not checked</span></p>
${report.baseline ? `<p>Baseline <code>${h(report.baseline.file)}</code>: ${report.baseline.known.length} known failure(s), not failing the run. Fixed since: ${h(report.baseline.fixed.join(', ') || 'none')}.</p>\n` : ''}<p>Cleanup: ${report.cleanup.removed}/${report.cleanup.created} created resources removed. ${h(report.cleanup.leftovers.join('; '))}</p>
<p>Curl lines read the key from <code>$CLINICAL_RECORDS_KEY</code> (others: <code>$CLINICAL_RECORDS_*_KEY</code>); keys are never written here.</p>
${rows}
<h2>Rules checked through the schema checks</h2>
<p>Rules about the shape of responses (field types, formats, enums, required fields) or webhook payloads, checked on every response or payload received rather than by a check of their own.</p>
<table><tr><th>rule</th><th>provenance</th><th>how</th></tr>${bySchema}</table>
<h2>Rules not checked</h2>
<table><tr><th>rule</th><th>provenance</th><th>why</th></tr>${notChecked}</table>
</body></html>
`;
}
