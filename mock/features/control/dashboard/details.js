// The request log's opened row, for the dashboard's script (client.js, inlined after this file in the same <script>):
// the bodies, the error's `details`, a refusal and the flag that allows it, Prism's or the judge's violations, and a
// curl line that sends the request again (an upload as multipart). Every value goes in through `el` (textContent).
// biome-ignore lint/correctness/noUnusedVariables: used by client.js, which follows this file in the page's one script
const dashboardDetails = ({ el, copy }) => {
  const shellQuote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
  function curlOf(e) {
    const url = location.origin + e.path + (e.query ? `?${e.query}` : '');
    const parts = [`curl -X ${e.method} ${shellQuote(url)}`];
    if (e.key !== 'no key') parts.push(`-H "X-API-Key: $CLINICAL_RECORDS_KEY"`);
    const form = e.request.form;
    // An upload is sent again as multipart (-F: curl writes the boundary and the Content-Type), the file by its name.
    if (form) {
      for (const [k, v] of Object.entries(form.fields)) parts.push(`--form-string ${shellQuote(`${k}=${v}`)}`);
      if (form.file) parts.push(`-F ${shellQuote(`file=@"${form.file.filename.replace(/["\\]/g, '\\$&')}"`)}`);
    } else if (e.request.content_type) parts.push(`-H ${shellQuote(`Content-Type: ${e.request.content_type}`)}`);
    if (e.request.body !== null) parts.push(`--data-raw ${shellQuote(e.request.body)}`);
    let curl = parts.join(' \\\n  ');
    if (form?.file)
      return `${curl}\n# the file's bytes are not kept: run this beside your copy of ${JSON.stringify(form.file.filename)} (${form.file.bytes} bytes)`;
    if (e.request.truncated) curl += `\n# the body was cut at 4 KB in the journal: this sends only its start`;
    else if (e.request.note) curl += `\n# body ${e.request.note}`;
    return curl;
  }

  function pretty(text) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return text;
    }
  }

  function detailsOf(e) {
    const box = el('div');
    box.append(
      el('p', {
        class: 'muted',
        text: `${e.time} · ${e.duration_ms} ms · key ${e.key}${e.organization_id ? ` · organization ${e.organization_id}` : ''}${e.fault ? ` · network fault: ${e.fault.effect}` : ''}`,
      }),
    );
    if (e.request.body !== null)
      box.append(
        el('h3', { text: `Request body${e.request.truncated ? ' (first 4 KB)' : ''}` }),
        el('pre', { text: pretty(e.request.body) }),
      );
    else if (e.request.note) box.append(el('p', { text: `Request body ${e.request.note} (${e.request.bytes} bytes).` }));
    if (e.refused) {
      box.append(el('h3', { text: e.refused.by === 'cors' ? 'Refused by CORS: the page could not read this answer' : 'Refused' }));
      box.append(el('p', { text: e.refused.reason }));
      if (e.refused.allow)
        box.append(
          el(
            'p',
            {},
            'Start the mock with ',
            el('code', { text: e.refused.allow }),
            ' to allow it. ',
            el('button', { type: 'button', text: 'Copy the flag', onclick: () => copy(e.refused.allow, 'the flag') }),
          ),
        );
      else box.append(el('p', { class: 'muted', text: 'No flag allows it.' }));
    }
    const details = e.error && typeof e.error === 'object' ? e.error.details : undefined;
    if (details && typeof details === 'object') {
      const dl = el('dl', { class: 'details', 'aria-label': 'details' });
      for (const [k, v] of Object.entries(details))
        dl.append(el('dt', { class: 'mono', text: k }), el('dd', { text: typeof v === 'string' ? v : JSON.stringify(v) }));
      box.append(el('h3', { text: 'details' }), dl);
    }
    if (e.error !== undefined)
      box.append(el('h3', { text: `Error body (${e.status})` }), el('pre', { text: JSON.stringify(e.error, null, 2) }));
    if (e.response)
      box.append(
        el('h3', { text: `The upstream's answer (${e.response.status})${e.response.truncated ? ', first 256 KB' : ''}` }),
        el('pre', { text: pretty(e.response.body) }),
      );
    if (e.violations) {
      const list = el('ul', { class: 'violations' });
      for (const v of e.violations)
        list.append(
          v.rule_id
            ? el(
                'li',
                { 'data-rule': v.rule_id },
                el('strong', { text: v.rule_id }),
                ` ${v.side === 'request' ? "the app's request" : "the service's response"} at ${v.location} (${v.check}): ${v.message}`,
                el('br'),
                el('span', { class: 'muted', text: v.rule }),
              )
            : el('li', { text: `${v.severity} at ${v.location}: ${v.message}` }),
        );
      const judged = e.violations.some((v) => v.rule_id);
      const said = e.engine_status ? ` (${judged ? 'the upstream' : 'the engine'} said ${e.engine_status})` : '';
      box.append(
        el('h3', { text: `${judged ? 'Contract violations in this exchange' : 'Contract violations Prism found in the response'}${said}` }),
        list,
      );
    }
    const curl = curlOf(e);
    box.append(
      el('button', { type: 'button', text: 'Copy as curl', onclick: () => copy(curl, 'the curl command') }),
      el('pre', { text: curl }),
    );
    return box;
  }

  return { detailsOf };
};
