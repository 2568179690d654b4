// One self-contained HTML file (inline CSS, no external assets; the copy buttons' one-line handlers are its only
// code) a person can open and read, on a phone too. It opens on what failed, grouped by cause (each cause with its
// checks, linked to their evidence), then a bar per area, then the checks area by area; identical evidence is shown
// once ("N more like this"), and a filter (CSS :target) shows one outcome at a time. Whatever the target sent is
// escaped, control characters spelled out.
import { coverageLine } from './rule-coverage.ts';
import { causeGroups, type CauseGroup } from './causes.ts';
import type { CheckResult, Failure, Outcome, RunReport } from '../run/model.ts';
import { printable } from './printable.ts';
import { stoppedLine } from './console.ts';
import { failedHeading, figures, outcomeCounts } from './figures.ts';
import { STYLE } from './html-style.ts';
import { timingTable, WORDS_OF_TIME } from './timings.ts';
import { explorationTable, exploredNote, replayCommand, resultLabel } from './explored.ts';

const h = (s: unknown) =>
  printable(String(s ?? ''))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
const OUTCOMES: Outcome[] = ['failed', 'timed-out', 'blocked', 'skipped', 'passed'];
const label = (o: Outcome) => o.replace('-', ' ');
const anchor = (r: Pick<CheckResult, 'name' | 'explored'>) => `check-${resultLabel(r).replace(/[^\w-]+/g, '-')}`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

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

/** Past this many characters a variable's name may break after an underscore (else it would widen a phone's page). */
const LONG_NAME = 44;

/** A curl line that wraps between words, never inside a variable's name, with a button that copies it. */
function curlBlock(curl: string): string {
  const text = h(curl).replace(/\$\{?[A-Z][A-Z0-9_]+|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g, (name) =>
    name.length > LONG_NAME ? `<span class="var long">${name.replace(/_/g, '_<wbr>')}</span>` : `<span class="var">${name}</span>`,
  );
  const copy =
    "const p=this.nextElementSibling;getSelection().selectAllChildren(p);navigator.clipboard&&navigator.clipboard.writeText(p.textContent).then(()=>{this.textContent='copied'},()=>{this.textContent='selected: Ctrl-C'})";
  return `<div class="curl"><button type="button" class="copy" onclick="${h(copy)}">copy</button><pre>${text}</pre></div>`;
}

function evidence(r: CheckResult, causeOf: (f: Failure) => number | undefined, withBaseline: boolean, report: RunReport): string {
  return groupFailures(r.failures)
    .map(({ example: f, more }) => {
      const others = more.length
        ? `<details class="more"><summary>${more.length} more like this</summary><ul>${more.map((m) => `<li>${h(m.message)}</li>`).join('')}</ul></details>`
        : '';
      const n = causeOf(f);
      const tags = `${n ? `<a class="tag" href="#cause-${n}">cause ${n}</a>` : ''}${withBaseline ? `<span class="tag">${f.known ? 'known' : 'new'}</span>` : ''}`;
      const found = exploredNote(f);
      const replay = replayCommand(report, f);
      const explored = found ? `<div><span class="tag">explored</span>${h(found)}</div>${replay ? curlBlock(replay) : ''}` : '';
      return `<div class="evidence"><div>${tags}${h(f.message)}</div><div><b>expected</b> ${h(f.expected)}</div><div><b>actual</b> <code>${h(String(f.actual).slice(0, 2000))}</code></div>${f.says?.length ? `<div><b>document</b> ${f.says.map((w) => `<q>${h(w)}</q>`).join(' ')}</div>` : ''}${f.curl ? curlBlock(f.curl) : ''}${explored}${others}</div>`;
    })
    .join('\n');
}

function checkRows(r: CheckResult, causeOf: (f: Failure) => number | undefined, withBaseline: boolean, report: RunReport): string {
  const why = r.reason ? `: ${h(r.reason)}` : '';
  const detail = r.failures.length ? `<tr class="detail"><td colspan="4">${evidence(r, causeOf, withBaseline, report)}</td></tr>` : '';
  return `<tbody class="check ${r.outcome}" id="${h(anchor(r))}"><tr><td>${h(resultLabel(r))}</td><td><b>${h(r.ruleId)}</b> ${h(r.rule)}</td><td>${r.provenance}</td><td class="outcome">${label(r.outcome)}${r.known ? ' (known: in the baseline)' : ''}${why}</td></tr>${detail}</tbody>`;
}

/** The failed rules grouped by cause, each check linked to its evidence; then the checks that timed out. */
function failedRules(report: RunReport, groups: CauseGroup[]): string {
  const failed = report.results.filter((r) => r.outcome === 'failed');
  const timedOut = report.results.filter((r) => r.outcome === 'timed-out');
  if (!failed.length && !timedOut.length)
    return '<section id="failed-rules" class="none"><h2>Failed rules</h2><p>None failed: every check that ran passed.</p></section>';
  // A check explored on several operations has a result for each: the link goes to the failed one.
  const rule = (name: string) => failed.find((r) => r.name === name) ?? report.results.find((r) => r.name === name);
  const causes = groups
    .map(({ cause: c }, i) => {
      const known = c.known === undefined ? '' : ` <span class="tag">${c.known ? 'known' : 'new'}</span>`;
      const items = c.checks
        .map(
          (name, j) =>
            `<li><b>${h(c.rules[j])}</b> ${h(rule(name)?.rule)} — <a href="#${h(anchor(rule(name) ?? { name }))}">${h(name)}</a></li>`,
        )
        .join('');
      return `<div class="cause" id="cause-${i + 1}"><h3>${i + 1}. ${h(c.summary)}${known} <small>${plural(c.checks.length, 'check')}, ${plural(c.failures, 'failure')}</small></h3><ul>${items}</ul></div>`;
    })
    .join('\n');
  const late = timedOut.length
    ? `<h3>Timed out</h3><ul>${timedOut.map((r) => `<li><b>${h(r.ruleId)}</b> <a href="#${h(anchor(r))}">${h(resultLabel(r))}</a>: ${h(r.reason)}</li>`).join('')}</ul>`
    : '';
  return `<section id="failed-rules"><h2>Failed rules: ${h(failedHeading(figures(report)))}</h2>${causes}${late}</section>`;
}

function areaBar(area: string, rs: CheckResult[]): string {
  const parts = OUTCOMES.map((o) => [o, rs.filter((r) => r.outcome === o).length] as const).filter(([, n]) => n);
  const title = parts.map(([o, n]) => `${n} ${label(o)}`).join(', ');
  return `<div class="area-bar"><a href="#area-${h(area)}">${h(area)}</a><span class="bar" title="${h(title)}">${parts.map(([o, n]) => `<span class="${o}" style="flex:${n}">${n}</span>`).join('')}</span></div>`;
}

function baselineSection(report: RunReport): string {
  const b = report.baseline;
  if (!b) return '';
  const list = (title: string, xs: string[]) =>
    xs.length ? `<details><summary>${title} (${xs.length})</summary><ul>${xs.map((x) => `<li>${h(x)}</li>`).join('')}</ul></details>` : '';
  return `<section id="baseline"><p>Baseline <code>${h(b.file)}</code>: ${plural(b.known.length, 'check')} with only known failures, not failing the run; ${b.new.length} new failure(s).</p>${list('New since the baseline', b.new)}${list('Expired entries (no longer excusing a failure)', b.expired)}${list('Fixed since the baseline: prune these entries', b.fixed)}</section>\n`;
}

function variablesSection(report: RunReport): string {
  const vars = report.variables ?? [];
  if (!vars.length) return '<p>Curl lines read keys from shell variables; keys are never written here.</p>';
  const rows = vars.map((v) => `<li><code>${h(v.name)}</code>: ${h(v.holds)}. Set it: <code>${h(v.set)}</code></li>`).join('');
  return `<section id="variables"><p>The curl lines read these variables (one unset stops the line, naming it); keys are never written here:</p><ul>${rows}</ul></section>`;
}

export function renderHtml(report: RunReport): string {
  const n = (o: Outcome) => report.results.filter((r) => r.outcome === o).length;
  const areas = [...new Set(report.results.map((r) => r.area))];
  const byArea = (a: string) => report.results.filter((r) => r.area === a);
  const groups = causeGroups(report.results);
  const causeOf = (f: Failure) => {
    const i = groups.findIndex((g) => g.members.some((m) => m.failure === f));
    return i < 0 ? undefined : i + 1;
  };
  const tables = areas
    .map((a) => {
      const rs = byArea(a);
      const c = outcomeCounts(rs);
      // Passed of the checks that ran: a skipped check is not a check that did not pass.
      return `<section class="area"><h2 id="area-${h(a)}">${h(a)} <small>${c.passed}/${c.ran} passed${c.skipped ? `, ${c.skipped} skipped` : ''}</small></h2>
<table><thead><tr><th>check</th><th>rule</th><th>provenance</th><th>outcome</th></tr></thead>
${rs.map((r) => checkRows(r, causeOf, !!report.baseline, report)).join('\n')}</table></section>`;
    })
    .join('\n');
  const bySchema = report.coveredBySchemas
    .map((r) => `<tr><td><b>${h(r.ruleId)}</b> ${h(r.rule)}</td><td>${r.provenance}</td><td>checked by ${h(r.check)}</td></tr>`)
    .join('\n');
  const notChecked = report.notChecked
    .map((r) => `<tr><td><b>${h(r.ruleId)}</b> ${h(r.rule)}</td><td>${r.provenance}</td><td>${h(r.reason)}</td></tr>`)
    .join('\n');
  const filters = OUTCOMES.map((o) => `<a href="#show-${o}">${label(o)} (${n(o)})</a>`).join(' ');
  const hide = OUTCOMES.flatMap((o) => [
    `#show-${o}:target ~ main tbody.check:not(.${o})`,
    `#show-${o}:target ~ main section.area:not(:has(tbody.check.${o}))`,
    `#show-${o}:target ~ main section.rules`,
  ]).join(',\n');
  const leftovers = report.cleanup.leftovers.length ? `<ul>${report.cleanup.leftovers.map((l) => `<li>${h(l)}</li>`).join('')}</ul>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Conformance report ${h(report.runId)}</title>
<style>
${STYLE}
${hide}{display:none}
</style></head><body>
<h1>Conformance report</h1>
<p>Target <code>${h(report.target)}</code> · profile <b>${report.profile}</b> · run ${h(report.runId)} · ${h(report.startedAt)} · ${report.seconds.toFixed(1)} s${report.pacing.pauses ? ` · paused ${Math.round(report.pacing.seconds)} s for the target's rate limit` : ''}${report.interrupted ? ' · <b>interrupted</b>' : ''}${report.stopped ? ` · <b>${h(stoppedLine(report)!)}</b>` : ''}</p>
<p class="summary"><span>✓ ${n('passed')} passed</span><span>✗ ${n('failed')} failed</span>${n('timed-out') ? `<span>${n('timed-out')} timed out</span>` : ''}${n('blocked') ? `<span>⊘ ${n('blocked')} blocked</span>` : ''}<span>- ${n('skipped')} skipped</span><span>${report.notChecked.length} rules not checked</span></p>${report.ruleCoverage ? `\n<p class="coverage">${h(coverageLine(report.ruleCoverage))}</p>` : ''}
${baselineSection(report)}${failedRules(report, groups)}
${explorationTable(report, h)}${timingSection(report)}<section id="areas"><h2>By area</h2>${areas.map((a) => areaBar(a, byArea(a))).join('\n')}</section>
${report.recorded ? '' : `<p>Cleanup: ${report.cleanup.removed}/${report.cleanup.created} created resources removed.${leftovers ? ' Left behind:' : ''}</p>${leftovers}`}
${variablesSection(report)}
<p class="filter">Show only: ${filters} <a href="#all">all</a></p>
${OUTCOMES.map((o) => `<i id="show-${o}"></i>`).join('')}
<main>
${tables}
<section class="rules"><h2>Rules checked through the schema checks</h2>
<p>Rules about the shape of responses (field types, formats, enums, required fields) or webhook payloads, checked on every response or payload received rather than by a check of their own.</p>
<table><tr><th>rule</th><th>provenance</th><th>how</th></tr>${bySchema}</table>
<h2>Rules not checked</h2>
<table><tr><th>rule</th><th>provenance</th><th>why</th></tr>${notChecked}</table></section>
</main>
</body></html>
`;
}

/** The waits for the service: what they took beside the document's words of time (observed, never judged). */
function timingSection(report: RunReport): string {
  const rows = timingTable(report.timings ?? []);
  if (!rows.length) return '';
  const s = (ms?: number) => (ms === undefined ? '–' : `${(ms / 1000).toFixed(2)} s`);
  const body = rows
    .map(
      (r) =>
        `<tr><td>${r.wait}</td><td><q>${h(WORDS_OF_TIME[r.wait])}</q></td><td>${r.ended}</td><td>${s(r.minMs)}</td><td>${s(r.medianMs)}</td><td>${s(r.maxMs)}</td><td>${r.gaveUp}</td><td>${s(r.limitMs)}</td></tr>`,
    )
    .join('');
  return `<section id="timings"><h2>Waits for the service</h2><p>Observed durations: the document's words of time are no bound, so they are reported, not judged.</p><table><tr><th>wait</th><th>the document</th><th>ended</th><th>min</th><th>median</th><th>max</th><th>not ended</th><th>the suite's limit</th></tr>${body}</table></section>\n`;
}
