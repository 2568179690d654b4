// The dashboard at GET /__mock/: one server-rendered page (the keys and the fault form are in the HTML; the live tables
// are filled by one small inline script polling the control API), no framework, nothing from another host. Its
// Content-Security-Policy allows exactly the inline script and style below, by hash, and requests to this origin only.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SeedFile } from '../../../platform/deps.ts';
import type { FaultKind } from '../../../platform/deps.ts';
import { isAimed, MAX_FAULT_PATH } from '../../../platform/faults.ts';
import { MAX_FAULT_MS } from '../../../platform/network-faults.ts';

const asset = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
// One inline script (one hash in the CSP): the opened row's rendering, then the script that uses it.
const SCRIPT = `${asset('details.js')}\n${asset('client.js')}`;
const STYLE = asset('style.css');
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The page's headers: no other host, no framing, no referrer, never cached (the keys are in it). */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': [
    "default-src 'self'",
    `script-src ${sha256(SCRIPT)}`,
    `style-src ${sha256(STYLE)}`,
    "img-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
});

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

export interface DashboardView {
  mode: string;
  keys: SeedFile['keys'];
  apiBase: string;
  journalSize: number;
  /** The readings of the document the engine plays (GET /__mock/readings), none when it plays the kit's. */
  readings?: ReadonlyArray<{ id: string; says: string }>;
  /** The fault kinds this mode accepts (--upstream: not the engine's own), in the form's order; the first is preselected. */
  faultKinds: readonly FaultKind[];
  /** Whether POST /__mock/reset means anything here (--upstream holds no seed to go back to). */
  canReset: boolean;
}

/** What the readings panel says: the kit's reading, or each reading played and what it does. */
function readingsPanel(readings: DashboardView['readings'] = []): string {
  if (!readings.length)
    return '<p class="muted">The kit\'s reading everywhere the document leaves room; <code>--reading &lt;id&gt;</code> or <code>--readings all</code> plays another team\'s (list: <a href="readings">readings</a>).</p>';
  return `<ul>${readings.map((r) => `<li><code>${escapeHtml(r.id)}</code>: ${escapeHtml(r.says)}</li>`).join('')}</ul>`;
}

function keyRows(keys: SeedFile['keys']): string {
  return keys
    .map((k, i) => {
      const label = escapeHtml(k.label ?? `key ${i + 1}`);
      return `<tr><td>${label}</td><td><code>${escapeHtml(k.key)}</code> <button type="button" data-copy="${escapeHtml(k.key)}" data-what="the key ${label}" aria-label="Copy the key ${label}">Copy</button></td><td>${escapeHtml(k.scopes.join(' '))}</td><td class="${k.state === 'active' ? 's2' : 's5'}">${escapeHtml(k.state)}</td><td class="mono">${escapeHtml(k.organization_id)}</td></tr>`;
    })
    .join('\n');
}

const table = (id: string, heads: string[], cls?: string) =>
  `<div class="scroll"><table${cls ? ` class="${cls}"` : ''}><thead><tr>${heads.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead><tbody id="${id}"></tbody></table></div>`;

const JOURNAL_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'];

/** The page's header: the mode, the API's base URL, the reference's link, the reset button where it means anything. */
const pageHeader = (v: DashboardView) => `<header>
<h1>clinical-records-mock</h1>
<span class="muted">mode ${escapeHtml(v.mode)} · API <code>${escapeHtml(v.apiBase)}</code></span>
<nav><a href="/__mock/docs">API reference</a></nav>
${v.canReset ? '<button type="button" id="reset">Reset to the seed</button>' : ''}
<span id="live" class="muted" role="status" aria-live="polite"></span>
<span id="status" role="status" aria-live="polite"></span>
</header>`;

/** The request log: its filter form and its table (rows filled by the script). */
const journalSection = () => `<section class="wide" aria-labelledby="h-journal">
<h2 id="h-journal">Requests <span id="journal-count" class="muted"></span> <button type="button" id="journal-clear">Clear</button></h2>
<a class="skip" href="#h-documents">Skip past the request log</a>
<p id="journal-note" class="muted">Newest first; open a row for its bodies, the error's <code>details</code> and a curl command (the key as <code>$CLINICAL_RECORDS_KEY</code>). Requests refused before an answer could be read (CORS, Host) show why and the flag that allows them.</p>
<form id="journal-filter" class="filter" role="search" aria-label="Filter the request log">
<label>status<select name="status"><option value="">any</option>${['2xx', '3xx', '4xx', '5xx'].map((c) => `<option>${c}</option>`).join('')}<option value="refused">refused</option></select></label>
<label>method<select name="method"><option value="">any</option>${JOURNAL_METHODS.map((m) => `<option>${m}</option>`).join('')}</select></label>
<label>path<input name="path" type="search" placeholder="path or query" autocomplete="off"></label>
<label>violations<select name="violations"><option value="">any</option><option value="any">with violations</option><option value="request">of the request (the app's)</option><option value="response">of the response (the service's)</option></select></label>
<span id="journal-shown" class="muted" role="status" aria-live="polite"></span>
<a id="journal-har" href="/__mock/requests.har" download="clinical-records-mock.har">Download as HAR</a>
</form>
${table('journal-rows', ['time', 'request', 'status', 'ms', 'key', 'violations', 'error'])}
</section>`;

/** The fault form and the armed faults. */
function faultsSection(faultKinds: readonly FaultKind[]): string {
  // Aimed kinds (http and the network faults) take a method and a path; the form shows those fields for them only.
  const kinds = faultKinds.map((k) => `<option value="${k}"${isAimed(k) ? ' data-aimed' : ''}>${k}</option>`).join('');
  return `<section aria-labelledby="h-faults">
<h2 id="h-faults">Faults</h2>
<form id="fault-form" class="fault">
<label>kind<select id="fault-kind" name="kind">${kinds}</select></label>
<label>count (empty: until cleared)<input name="count" type="number" min="1" step="1" value="1" inputmode="numeric"></label>
<label>scope (optional)<input name="scope" type="text" maxlength="200" pattern="[!-~]{1,200}" title="1 to 200 visible ASCII characters, no spaces"></label>
<label class="aimed-only">method<select name="method">${['*', 'GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD'].map((m) => `<option>${m}</option>`).join('')}</select></label>
<label class="aimed-only">path<input name="path" type="text" value="/patients/**" required maxlength="${MAX_FAULT_PATH}" pattern="/.*" title="a path starting with /"></label>
<label class="http-only">status<input name="status" type="number" min="400" max="599" step="1" value="503"></label>
<label class="latency-only">ms (300, or a range 100-800)<input name="latency" type="text" value="500" required pattern=" *[0-9]{1,6}( *- *[0-9]{1,6})? *" title="milliseconds from 0 to ${MAX_FAULT_MS}, or a range low-high"></label>
<label class="timeout-only">hold ms (1 to ${MAX_FAULT_MS}; empty: ${MAX_FAULT_MS})<input name="hold" type="number" min="1" max="${MAX_FAULT_MS}" step="1" value="1000" inputmode="numeric"></label>
<button type="submit">Arm fault</button>
<button type="button" id="faults-clear">Clear faults</button>
</form>
${table('fault-rows', ['kind', 'target', 'left', 'scope'])}
</section>`;
}

/** The keys' table, server-rendered (the keys are in the page, hence never cached). */
const keysTable = (
  keys: SeedFile['keys'],
) => `<div class="scroll"><table><thead><tr><th scope="col">label</th><th scope="col">key (header X-API-Key)</th><th scope="col">scopes</th><th scope="col">state</th><th scope="col">organization</th></tr></thead>
<tbody id="key-rows">
${keyRows(keys)}
</tbody></table></div>`;

export function dashboardHtml(v: DashboardView): string {
  // In front of an upstream the engine holds no documents, sessions or webhooks, and its seed's keys mean nothing there.
  const engineOnly = v.mode === 'upstream' ? ' hidden' : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>clinical-records-mock · dashboard</title>
<style>${STYLE}</style>
</head>
<body data-api="${escapeHtml(v.apiBase)}" data-journal="${v.journalSize}" data-mode="${escapeHtml(v.mode)}">
${pageHeader(v)}
<noscript><p>The live tables need JavaScript; the control API under /__mock answers the same data as JSON.</p></noscript>
<main>
${journalSection()}
<section aria-labelledby="h-documents"${engineOnly}>
<h2 id="h-documents" tabindex="-1">Documents</h2>
${table('document-rows', ['file', 'patient', 'status', 'error', 'uploaded (UTC)', 'extracted (UTC)'], 'documents')}
</section>
${faultsSection(v.faultKinds)}
<section class="wide" aria-labelledby="h-sessions"${engineOnly}>
<h2 id="h-sessions">Sessions</h2>
${table('session-rows', ['session', 'patient', 'transcript', 'ready', 'regeneration'])}
</section>
<section class="wide" aria-labelledby="h-webhooks"${engineOnly}>
<h2 id="h-webhooks">Webhooks and deliveries</h2>
${table('webhook-rows', ['name', 'url', 'event', 'format', 'deliveries (newest first)'])}
</section>
<section class="wide" aria-labelledby="h-readings"${engineOnly}>
<h2 id="h-readings">Readings</h2>
${readingsPanel(v.readings)}
</section>
<section class="wide" aria-labelledby="h-keys"${engineOnly}>
<h2 id="h-keys">API keys</h2>
${keysTable(v.keys)}
</section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
