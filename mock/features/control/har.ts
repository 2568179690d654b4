// GET /__mock/requests.har: the request journal as HAR 1.2 (what browsers' devtools export and `redocly proxy`
// writes), filtered like GET /__mock/requests, oldest first. Bodies and headers as the journal keeps them, redacted
// as it shows them (showEntry): in --upstream mode the headers sent on and the upstream's whole answer; in the other
// modes the request's headers and body, an upload's form, the answer's headers and an error's body. `conformance
// --har` reads it back, and so do other tools (`redocly drift`): what they need of a request is there.
import type { Hono } from 'hono';
import type { ShownEntry } from '../../platform/journal-entry.ts';
import { parseJournalQuery, type RequestJournal } from '../../platform/request-journal.ts';

const pairs = (h: Record<string, string> | undefined) => Object.entries(h ?? {}).map(([name, value]) => ({ name, value }));

/** A dropped or timed-out request got no answer: status 0, as a browser's devtools export one that failed. */
const unanswered = (e: ShownEntry) => e.fault?.kind === 'drop' || e.fault?.kind === 'timeout';

function harResponse(e: ShownEntry) {
  if (unanswered(e)) return { status: 0, headers: [], content: { size: 0, mimeType: '' } };
  if (e.response) {
    const { status, headers, body, truncated } = e.response;
    return {
      status,
      headers: pairs(headers),
      // A body not kept whole is left out (a reader would judge the cut text as the answer), said so in a comment.
      content: {
        size: body.length,
        mimeType: headers['content-type'] ?? '',
        ...(truncated ? { comment: 'not kept whole: the journal keeps the first 256 KB of an answer the judge read' } : { text: body }),
      },
    };
  }
  const text = e.error === undefined ? undefined : typeof e.error === 'string' ? e.error : JSON.stringify(e.error);
  return {
    status: e.status,
    headers: pairs(e.response_headers),
    content: { size: text?.length ?? 0, mimeType: text ? 'application/json' : '', ...(text ? { text } : {}) },
  };
}

/** A quoted Content-Disposition parameter: quotes, backslashes and line breaks percent-encoded (as browsers send them). */
const quoted = (v: string) => `"${v.replace(/["\\\r\n]/g, (ch) => encodeURIComponent(ch))}"`;

/**
 * An upload as HAR postData: its fields and file as `params` (HAR's form of a multipart body), and a `text` rebuilt
 * from them, which readers that take only text need (redocly drift). The file's bytes are not kept: its part is empty,
 * and the comment says so. The file part is the upload's one, `file` (DocumentUpload; the readers' fileField).
 */
function formData(r: ShownEntry['request']) {
  const form = r.form!;
  const sent = r.content_type && /boundary="?([^";]+)"?/i.exec(r.content_type)?.[1];
  const boundary = sent || 'clinical-records-mock-har';
  const mimeType = sent ? r.content_type! : `multipart/form-data; boundary=${boundary}`;
  const part = (disposition: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n${value}\r\n`;
  const fields = Object.entries(form.fields);
  const text =
    fields.map(([name, value]) => part(`name=${quoted(name)}`, value)).join('') +
    (form.file ? part(`name="file"; filename=${quoted(form.file.filename)}`, '') : '') +
    `--${boundary}--\r\n`;
  return {
    mimeType,
    // `_bytes`: the file's size, which HAR's params have no field for (the judge reads it: DOC-011, LIM-001).
    params: [
      ...fields.map(([name, value]) => ({ name, value })),
      ...(form.file ? [{ name: 'file', fileName: form.file.filename, _bytes: form.file.bytes }] : []),
    ],
    text,
    ...(form.file ? { comment: `rebuilt from the form: the file's ${form.file.bytes} bytes are not kept` } : {}),
  };
}

/** One journal entry as a HAR entry; `_`-fields are the mock's own (HAR allows custom fields so prefixed). */
function harEntry(e: ShownEntry, origin: string) {
  const query = new URLSearchParams(e.query);
  const r = e.request;
  const response = harResponse(e);
  return {
    startedDateTime: e.time,
    time: e.duration_ms,
    request: {
      method: e.method,
      url: `${origin}${e.path}${e.query ? `?${e.query}` : ''}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(r.headers),
      queryString: [...query].map(([name, value]) => ({ name, value })),
      ...(r.body !== null ? { postData: { mimeType: r.content_type ?? '', text: r.body } } : r.form ? { postData: formData(r) } : {}),
      headersSize: -1,
      bodySize: r.bytes ?? 0,
      ...(r.note ? { comment: r.note } : {}),
    },
    response: { ...response, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { send: 0, wait: e.duration_ms, receive: 0 },
    _key: e.key,
    ...(response.status !== e.status && !unanswered(e) ? { _answered: e.status } : {}),
    ...(e.fault ? { _fault: e.fault.effect, ...(unanswered(e) ? { _error: e.fault.effect } : {}) } : {}),
    ...(e.violations ? { _violations: e.violations } : {}),
    ...(e.not_judged ? { _not_judged: e.not_judged } : {}),
    ...(e.refused ? { _refused: e.refused } : {}),
  };
}

export function harRoute(app: Hono, journal: RequestJournal, apiUrl: () => string): void {
  app.get('/requests.har', async (c) => {
    // Every kept entry unless a limit is given.
    const query = { limit: String(Math.max(1, journal.capacity)), ...c.req.query() };
    const parsed = parseJournalQuery(query, journal.capacity);
    if (!parsed.ok) return c.json({ error: 'Validation failed', details: parsed.details }, 400);
    const origin = new URL(apiUrl()).origin;
    const entries = (await journal.read(parsed.filter)).reverse().map((e) => harEntry(e, origin));
    const har = { log: { version: '1.2', creator: { name: 'clinical-records-mock', version: '1' }, pages: [], entries } };
    return c.body(JSON.stringify(har, null, 1), 200, {
      'Content-Type': 'application/json',
      'Content-Disposition': 'attachment; filename="clinical-records-mock.har"',
    });
  });
}
