// One self-contained HTML file (inline CSS, no scripts or external assets) a person can open and read. It opens on
// what failed (the failed rules, linked to their evidence), then a bar per area, then the checks area by area;
// identical evidence is shown once ("N more like this"), and a filter (CSS :target) shows one outcome at a time.
import type { CheckResult, Failure, Outcome, RunReport } from '../model.ts';

const h = (s: unknown) =>
  String(s ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
const OUTCOMES: Outcome[] = ['failed', 'timed-out', 'blocked', 'skipped', 'passed'];
const label = (o: Outcome) => o.replace('-', ' ');
const anchor = (r: CheckResult) => `check-${r.name}`;

/** Failures with the same expected and actual, in first-seen order: one example and how many more. */
export function groupFailures(failures: Failure[]): Array<{ example: Failure; more: Failure[] }> {
  const groups = new Map<string, { example: Failure; more: Failure[] }>();
  for (const f of failures) {
    const key = `${f.ruleId}\u0000${f.expected}\u0000${f.actual}`;
    const g = groups.get(key);
    if (g) g.more.push(f);
    else groups.set(key, { example: f, more: [] });
  }
  return [...groups.values()];
}

function evidence(r: CheckResult): string {
  return groupFailures(r.failures)
    .map(({ example: f, more }) => {
      const others = more.length
        ? `<details class="more"><summary>${more.length} more like this</summary><ul>${more.map((m) => `<li>${h(m.message)}</li>`).join('')}</ul></details>`
        : '';
      return `<div class="evidence"><div>${h(f.message)}</div><div><b>expected</b> ${h(f.expected)}</div><div><b>actual</b> <code>${h(String(f.actual).slice(0, 2000))}</code></div>${f.curl ? `<pre>${h(f.curl)}</pre>` : ''}${others}</div>`;
    })
    .join('\n');
}

function checkRows(r: CheckResult): string {
  const why = r.reason ? `: ${h(r.reason)}` : '';
  const detail = r.failures.length ? `<tr class="detail"><td colspan="4">${evidence(r)}</td></tr>` : '';
  return `<tbody class="check ${r.outcome}" id="${h(anchor(r))}"><tr><td>${h(r.name)}</td><td><b>${h(r.ruleId)}</b> ${h(r.rule)}</td><td>${r.provenance}</td><td class="outcome">${label(r.outcome)}${r.known ? ' (known: in the baseline)' : ''}${why}</td></tr>${detail}</tbody>`;
}

/** The rules whose checks failed or timed out, each linked to its evidence. */
function failedRules(report: RunReport): string {
  const bad = report.results.filter((r) => r.outcome === 'failed' || r.outcome === 'timed-out');
  if (!bad.length) return '<section id="failed-rules"><h2>Failed rules</h2><p>None: every check that ran passed.</p></section>';
  const rows = bad
    .map((r) => {
      const n = groupFailures(r.failures).length;
      const what = r.outcome === 'timed-out' ? 'timed out' : `${n} distinct failure${n === 1 ? '' : 's'}`;
      return `<tr class="${r.outcome}"><td><b>${h(r.ruleId)}</b> ${h(r.rule)}</td><td><a href="#${h(anchor(r))}">${h(r.name)}</a></td><td>${what}</td></tr>`;
    })
    .join('\n');
  return `<section id="failed-rules"><h2>Failed rules (${bad.length})</h2><table><tr><th>rule</th><th>check (evidence)</th><th></th></tr>${rows}</table></section>`;
}

function areaBar(area: string, rs: CheckResult[]): string {
  const parts = OUTCOMES.map((o) => [o, rs.filter((r) => r.outcome === o).length] as const).filter(([, n]) => n);
  const title = parts.map(([o, n]) => `${n} ${label(o)}`).join(', ');
  return `<div class="area-bar"><a href="#area-${h(area)}">${h(area)}</a><span class="bar" title="${h(title)}">${parts.map(([o, n]) => `<span class="${o}" style="flex:${n}">${n}</span>`).join('')}</span></div>`;
}

export function renderHtml(report: RunReport): string {
  const n = (o: Outcome) => report.results.filter((r) => r.outcome === o).length;
  const areas = [...new Set(report.results.map((r) => r.area))];
  const byArea = (a: string) => report.results.filter((r) => r.area === a);
  const tables = areas
    .map((a) => {
      const rs = byArea(a);
      return `<h2 id="area-${h(a)}">${h(a)} <small>${rs.filter((r) => r.outcome === 'passed').length}/${rs.length} passed</small></h2>
<table><thead><tr><th>check</th><th>rule</th><th>provenance</th><th>outcome</th></tr></thead>
${rs.map(checkRows).join('\n')}</table>`;
    })
    .join('\n');
  const bySchema = report.coveredBySchemas
    .map((r) => `<tr><td><b>${h(r.ruleId)}</b> ${h(r.rule)}</td><td>${r.provenance}</td><td>checked by ${h(r.check)}</td></tr>`)
    .join('\n');
  const notChecked = report.notChecked
    .map((r) => `<tr><td><b>${h(r.ruleId)}</b> ${h(r.rule)}</td><td>${r.provenance}</td><td>${h(r.reason)}</td></tr>`)
    .join('\n');
  const filters = OUTCOMES.map((o) => `<a href="#show-${o}">${label(o)} (${n(o)})</a>`).join(' ');
  const hide = OUTCOMES.map((o) => `#show-${o}:target ~ main tbody.check:not(.${o})`).join(',\n');
  const leftovers = report.cleanup.leftovers.length ? `<ul>${report.cleanup.leftovers.map((l) => `<li>${h(l)}</li>`).join('')}</ul>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance report ${h(report.runId)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;width:100%;margin-bottom:1em}
td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
tbody.passed td.outcome{color:#17702a}tbody.failed td,tr.failed td{background:#fde8e8}tbody.failed td.outcome{color:#b00020;font-weight:bold}
tbody.timed-out td,tr.timed-out td{background:#fff0d6}tbody.blocked td{background:#eef0f8}tbody.skipped td{color:#777}
tr.detail td{background:#fff6f6;font-size:13px}.evidence{margin-bottom:.6em}pre,code{white-space:pre-wrap;word-break:break-all;background:#f4f4f4;padding:2px 4px}
.summary span{margin-right:1.5em;font-size:16px}#failed-rules{border:2px solid #b00020;padding:0 1em;margin-bottom:1.5em}
.filter a{margin-right:1em}.area-bar{display:flex;align-items:center;gap:.5em;margin:2px 0}.area-bar>a{width:5em}
.bar{display:flex;width:24em;height:1.1em;font-size:11px;color:#fff;text-align:center}.bar>span{min-width:1.2em}
.bar .passed{background:#2e8b47}.bar .failed{background:#c62828}.bar .timed-out{background:#e08a00}.bar .blocked{background:#5c6bc0}.bar .skipped{background:#aaa}
${hide}{display:none}
</style></head><body>
<h1>Conformance report</h1>
<p>Target <code>${h(report.target)}</code> · profile <b>${report.profile}</b> · run ${h(report.runId)} · ${h(report.startedAt)} · ${report.seconds.toFixed(1)} s${report.pacing.pauses ? ` · paused ${Math.round(report.pacing.seconds)} s for the target's rate limit` : ''}${report.interrupted ? ' · <b>interrupted</b>' : ''}</p>
<p class="summary"><span>✓ ${n('passed')} passed</span><span>✗ ${n('failed')} failed</span>${n('timed-out') ? `<span>${n('timed-out')} timed out</span>` : ''}${n('blocked') ? `<span>⊘ ${n('blocked')} blocked</span>` : ''}<span>- ${n('skipped')} skipped</span><span>${report.notChecked.length} rules not checked</span></p>
${report.baseline ? `<p>Baseline <code>${h(report.baseline.file)}</code>: ${report.baseline.known.length} known failure(s), not failing the run. Fixed since: ${h(report.baseline.fixed.join(', ') || 'none')}.</p>\n` : ''}${failedRules(report)}
<section id="areas"><h2>By area</h2>${areas.map((a) => areaBar(a, byArea(a))).join('\n')}</section>
<p>Cleanup: ${report.cleanup.removed}/${report.cleanup.created} created resources removed.${leftovers ? ' Left behind:' : ''}</p>${leftovers}
<p>Curl lines read the key from <code>$CLINICAL_RECORDS_KEY</code> (others: <code>$CLINICAL_RECORDS_*_KEY</code>); keys are never written here.</p>
<p class="filter">Show only: ${filters} <a href="#all">all</a></p>
${OUTCOMES.map((o) => `<i id="show-${o}"></i>`).join('')}
<main>
${tables}
<h2>Rules checked through the schema checks</h2>
<p>Rules about the shape of responses (field types, formats, enums, required fields) or webhook payloads, checked on every response or payload received rather than by a check of their own.</p>
<table><tr><th>rule</th><th>provenance</th><th>how</th></tr>${bySchema}</table>
<h2>Rules not checked</h2>
<table><tr><th>rule</th><th>provenance</th><th>why</th></tr>${notChecked}</table>
</main>
</body></html>
`;
}
