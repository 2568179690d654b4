// The dashboard's one script: polls the control API (same origin, loopback only) and fills the tables. Every value
// goes in through textContent, never as HTML: request bodies are whatever a client sent. Control and bidi characters
// are shown escaped (`\u202e`), so that `invoice-\u202efdp.exe` cannot pass for `invoice-exe.pdf`.
(() => {
  const CONTROL = '/__mock';
  const MAX_ROWS = 500;
  const LIMIT = Math.max(1, Math.min(MAX_ROWS, Number(document.body.dataset.journal) || 1));
  const $ = (id) => document.getElementById(id);
  let lastId = 0;

  // C0 and C1 controls, DEL, bidi marks, embeddings, overrides and isolates, zero-width and line separators; in a
  // block of text (a body) line breaks and tabs stay.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job
  const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
  const escaped = (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const visible = (value, block) => String(value).replace(INVISIBLE, (ch) => (block && (ch === '\n' || ch === '\t') ? ch : escaped(ch)));

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === 'text') node.textContent = visible(v, tag === 'pre');
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children) if (c !== undefined && c !== null) node.append(typeof c === 'string' ? visible(c) : c);
    return node;
  }
  const td = (value, cls) => el('td', { text: value === undefined || value === null ? '' : String(value), class: cls });
  const statusClass = (s) => (s >= 500 ? 's5' : s >= 400 ? 's4' : 's2');
  const say = (message) => ($('status').textContent = visible(message));

  async function call(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) (init.headers['content-type'] = 'application/json'), (init.body = JSON.stringify(body));
    const r = await fetch(CONTROL + path, init);
    const text = await r.text();
    const json = text ? JSON.parse(text) : undefined;
    if (!r.ok) throw new Error(json?.error + (json?.details ? ` ${JSON.stringify(json.details)}` : ''));
    return json;
  }

  async function copy(text, what) {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const area = el('textarea', { 'aria-hidden': 'true' });
      area.value = text;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    say(`Copied ${what}.`);
  }

  const { detailsOf } = dashboardDetails({ el, copy });

  /** The error column: the refusal and its flag when refused, else the error's message. */
  function problemCell(e) {
    if (e.refused)
      return el(
        'td',
        { class: 'refused' },
        el('strong', { class: 's5', text: 'refused' }),
        ` ${e.refused.reason}`,
        e.refused.allow ? el('span', { class: 'allow' }, ' · allow with ', el('code', { text: e.refused.allow })) : undefined,
      );
    return td(e.error && typeof e.error === 'object' && e.error.error ? e.error.error : '');
  }

  /** The violations column: how many, and their rule ids. */
  function violationsCell(e) {
    if (e.not_judged) {
      const cell = td('not judged');
      cell.title = e.not_judged;
      return cell;
    }
    if (!e.violations) return td('');
    const ids = [...new Set(e.violations.map((v) => v.rule_id).filter(Boolean))];
    return td(`${e.violations.length}${ids.length ? ` ${ids.join(' ')}` : ''}`, 's5');
  }
  /**
   * The status column: what the client met. A dropped or timed-out request got no answer (its 502/504 is only what the
   * engine's mark stands for): the fault alone; a reset or malformed answer: its status and what the fault did to it.
   */
  function statusCell(e) {
    if (!e.fault) return td(e.status, statusClass(e.status));
    const unanswered = e.fault.kind === 'drop' || e.fault.kind === 'timeout';
    const cell = td(unanswered ? e.fault.effect : `${e.status} · ${e.fault.effect}`, `fault ${unanswered ? 's5' : statusClass(e.status)}`);
    cell.title = `network fault: ${e.fault.kind}`;
    return cell;
  }
  const sidesOf = (e) => (e.violations ? [...new Set(e.violations.map((v) => v.side || 'response'))].join(' ') : undefined);

  function journalRow(e) {
    const target = `${e.path}${e.query ? `?${e.query}` : ''}`;
    const open = el('button', { type: 'button', class: 'row', 'aria-expanded': 'false', text: `${e.method} ${target}` });
    const row = el(
      'tr',
      {
        'data-id': e.id,
        'data-status': e.status,
        'data-fault': e.fault ? e.fault.kind : undefined,
        'data-method': e.method,
        'data-refused': e.refused ? e.refused.by : undefined,
        'data-violations': sidesOf(e),
      },
      td(e.time.slice(11, 23), 'mono time'),
      el('td', {}, open),
      statusCell(e),
      td(e.duration_ms),
      td(e.key),
      violationsCell(e),
      problemCell(e),
    );
    row.dataset.target = target;
    let shown;
    open.addEventListener('click', () => {
      if (shown) {
        shown.remove();
        shown = undefined;
        open.setAttribute('aria-expanded', 'false');
        return;
      }
      shown = el('tr', { class: 'detail' }, el('td', { colspan: 7 }, detailsOf(e)));
      shown.hidden = row.hidden;
      row.after(shown);
      open.setAttribute('aria-expanded', 'true');
    });
    return row;
  }

  // The log's filter (status class or refused, method, part of the path): rows that do not match are hidden, with
  // their open details.
  const filterForm = $('journal-filter');
  function matches(row, { status, method, path, violations }) {
    if (status === 'refused' ? !row.dataset.refused : status && row.dataset.status[0] !== status[0]) return false;
    if (method && row.dataset.method !== method) return false;
    const sides = row.dataset.violations;
    if (violations && (!sides || (violations !== 'any' && !sides.split(' ').includes(violations)))) return false;
    return !path || row.dataset.target.toLowerCase().includes(path);
  }
  function filterLog() {
    const f = new FormData(filterForm);
    const wanted = {
      status: String(f.get('status') || ''),
      method: String(f.get('method') || ''),
      violations: String(f.get('violations') || ''),
      path: String(f.get('path') || '')
        .trim()
        .toLowerCase(),
    };
    const rows = $('journal-rows').querySelectorAll('tr:not(.detail)');
    for (const row of rows) {
      row.hidden = !matches(row, wanted);
      const next = row.nextElementSibling;
      if (next?.classList.contains('detail')) next.hidden = row.hidden;
    }
    const shown = [...rows].filter((r) => !r.hidden).length;
    $('journal-shown').textContent = shown === rows.length ? '' : `${shown} of ${rows.length} rows match the filter`;
  }
  filterForm.addEventListener('input', filterLog);
  filterForm.addEventListener('submit', (ev) => ev.preventDefault());

  async function pollJournal() {
    const { data, meta } = await call('GET', `/requests?since=${lastId}&limit=${LIMIT}`);
    const body = $('journal-rows');
    if (meta.capacity === 0) $('journal-note').textContent = 'The journal is off (--journal-size 0).';
    const rows = data.reverse().map(journalRow);
    labelCells(body, rows);
    for (const row of rows) body.prepend(row);
    if (data.length) lastId = data[data.length - 1].id;
    while (body.querySelectorAll('tr:not(.detail)').length > MAX_ROWS) body.lastElementChild.remove();
    if (data.length) filterLog();
    $('journal-count').textContent = `${meta.kept} kept of the last ${meta.capacity}`;
  }

  /** A date-time as `2026-11-02 10:15:00` (UTC, as the column says), the exact value in its title. */
  const timeCell = (iso) => el('td', { class: 'mono date', title: iso || undefined, text: iso ? iso.replace('T', ' ').slice(0, 19) : '' });

  /** Each cell named by its column (data-label): a narrow window shows the rows as lists (style.css). */
  function labelCells(body, rows) {
    const heads = [...body.closest('table').querySelectorAll('thead th')].map((th) => th.textContent);
    for (const row of rows)
      row.querySelectorAll(':scope > td').forEach((cell, i) => {
        if (!cell.hasAttribute('colspan') && heads[i]) cell.dataset.label = heads[i];
      });
  }

  function fill(id, rows, build) {
    const body = $(id);
    body.replaceChildren(...(rows.length ? rows.map(build) : [el('tr', {}, el('td', { colspan: 9, class: 'muted', text: 'none' }))]));
    labelCells(body, body.children);
  }

  /** What the counted kinds (no method or path) are taken by. */
  const COUNTED_TARGETS = {
    'rate-limited': 'the next API requests: 429',
    'extraction-fails': 'the next extraction runs: failed',
    'extraction-not-queued': 'the next uploads: not queued',
    'regeneration-unavailable': 'the next regenerate requests: 503',
  };
  /** What an armed fault is aimed at and does: `GET /patients → 503`, `* /** · 300 ms`, `POST /patients · hold 1000 ms`. */
  function faultTarget(f) {
    if (!f.method) return COUNTED_TARGETS[f.kind] || '';
    const ms = Array.isArray(f.ms) ? `${f.ms[0]}-${f.ms[1]} ms` : `${f.ms} ms`;
    const what = { http: ` → ${f.status}`, latency: ` · ${ms}`, timeout: ` · hold ${f.ms === undefined ? '120000 ms' : ms}` }[f.kind];
    return `${f.method} ${f.path}${what || ''}`;
  }

  // In front of an upstream (--upstream) the engine holds no documents, sessions or webhooks: only faults are polled.
  const UPSTREAM = document.body.dataset.mode === 'upstream';
  const NONE = Promise.resolve({ data: [] });
  async function pollState() {
    const [faults, documents, sessions, webhooks, deliveries] = await Promise.all([
      call('GET', '/faults'),
      UPSTREAM ? NONE : call('GET', '/documents'),
      UPSTREAM ? NONE : call('GET', '/sessions'),
      UPSTREAM ? NONE : call('GET', '/webhooks'),
      UPSTREAM ? NONE : call('GET', '/deliveries'),
    ]);
    fill('fault-rows', faults.data, (f) =>
      el('tr', {}, td(f.kind), td(faultTarget(f)), td(f.count === null ? 'until cleared' : f.count), td(f.scope || '')),
    );
    fill('document-rows', documents.data, (d) =>
      el(
        'tr',
        {},
        td(d.filename, 'name'),
        td(d.patient_id, 'mono'),
        td(d.status, `nowrap ${d.status === 'failed' ? 's5' : d.status === 'completed' ? 's2' : 's4'}`),
        td(d.extraction_error || '', 'name'),
        timeCell(d.upload_date),
        timeCell(d.extracted_date),
      ),
    );
    fill('session-rows', sessions.data, (s) =>
      el(
        'tr',
        {},
        td(s.id, 'mono'),
        td(s.patient_id, 'mono'),
        td(s.transcript_status),
        td(s.ready ? 'yes' : 'no'),
        td(
          s.regeneration
            ? `${s.regeneration.pending} waiting; run ${s.regeneration.applied_run} of ${s.regeneration.requested} applied`
            : '',
        ),
      ),
    );
    const byHook = new Map();
    for (const d of deliveries.data) byHook.set(d.webhook_id, [...(byHook.get(d.webhook_id) || []), d]);
    fill('webhook-rows', webhooks.data, (w) => {
      const list = el('ol', { reversed: true });
      for (const d of (byHook.get(w.id) || []).slice().reverse()) {
        const attempts = d.attempts.map((a) => `${a.status ?? a.error} in ${a.duration_ms} ms at ${a.at.slice(11, 19)}`).join('; ');
        list.append(
          el(
            'li',
            { 'data-state': d.state },
            el('span', { class: d.state === 'delivered' ? 's2' : d.state === 'failed' ? 's5' : 's4', text: d.state }),
            ` ${d.event} · ${d.attempts.length} attempt(s): ${attempts || 'none yet'}`,
          ),
        );
      }
      return el(
        'tr',
        {},
        td(w.name),
        td(w.url, 'mono'),
        td(w.event),
        td(w.format),
        el('td', {}, list.childElementCount ? list : el('span', { class: 'muted', text: 'no delivery yet' })),
      );
    });
  }

  async function tick() {
    try {
      await Promise.all([pollJournal(), pollState()]);
      $('live').textContent = `live · updated ${new Date().toLocaleTimeString()}`;
    } catch (err) {
      $('live').textContent = `not updating: ${err.message}`;
    }
  }

  labelCells($('key-rows'), $('key-rows').children);
  for (const b of document.querySelectorAll('button[data-copy]'))
    b.addEventListener('click', () => copy(b.dataset.copy, b.dataset.what || 'it'));

  const kind = $('fault-kind');
  const aimed = () => kind.selectedOptions[0]?.hasAttribute('data-aimed');
  // Only the fields of the chosen kind are shown and submitted (a hidden field's constraints are not checked).
  const showFields = () => {
    const only = {
      'http-only': kind.value === 'http',
      'aimed-only': aimed(),
      'latency-only': kind.value === 'latency',
      'timeout-only': kind.value === 'timeout',
    };
    for (const [cls, shown] of Object.entries(only))
      for (const f of document.querySelectorAll(`.${cls}`)) {
        f.hidden = !shown;
        for (const input of f.querySelectorAll('input,select')) input.disabled = !shown;
      }
  };
  kind.addEventListener('change', showFields);
  showFields();
  /** "300" → 300, "100-800" → [100, 800] (the input's pattern admits only these); empty → undefined. */
  const msOf = (text) => {
    const t = String(text || '').trim();
    if (!t) return undefined;
    const range = /^(\d+)\s*-\s*(\d+)$/.exec(t);
    return range ? [Number(range[1]), Number(range[2])] : Number(t);
  };
  // What the pattern cannot say: a range's ends in order, each at most the longest delay.
  const latencyInput = document.querySelector('input[name="latency"]');
  latencyInput.addEventListener('input', () => {
    const ms = msOf(latencyInput.value);
    const ends = Array.isArray(ms) ? ms : [ms, ms];
    const ok = ms === undefined || (ends[0] <= ends[1] && ends[1] <= 120000);
    latencyInput.setCustomValidity(ok ? '' : 'milliseconds from 0 to 120000; a range low-high with low <= high');
  });
  $('fault-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const form = new FormData(ev.target);
    const body = { kind: form.get('kind') };
    const count = String(form.get('count') || '').trim();
    body.count = count === '' ? null : Number(count);
    if (form.get('scope')) body.scope = form.get('scope');
    if (aimed()) Object.assign(body, { method: form.get('method'), path: form.get('path') });
    if (body.kind === 'http') body.status = Number(form.get('status'));
    const ms = msOf(form.get(body.kind === 'latency' ? 'latency' : 'hold'));
    if ((body.kind === 'latency' || body.kind === 'timeout') && ms !== undefined) body.ms = ms;
    try {
      const { data } = await call('POST', '/faults', body);
      say(`Armed fault ${data.id}: ${data.kind}.`);
      await tick();
    } catch (err) {
      say(`The fault was refused: ${err.message}`);
    }
  });
  $('faults-clear').addEventListener('click', async () => {
    await call('DELETE', '/faults');
    say('Faults cleared.');
    await tick();
  });
  $('journal-clear').addEventListener('click', async () => {
    await call('DELETE', '/requests');
    $('journal-rows').replaceChildren();
    say('Journal cleared.');
  });
  $('reset')?.addEventListener('click', async () => {
    if (!confirm('Reset the mock to its seed? Data, faults, rate-limit windows, deliveries and the journal are cleared.')) return;
    await call('POST', '/reset');
    $('journal-rows').replaceChildren();
    say('The mock is back to its seed.');
    await tick();
  });
  void tick();
  setInterval(tick, 1000);
})();
