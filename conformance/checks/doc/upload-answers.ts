// DOC: documents, the upload's answer: text never returned, its status and what follows it, not waiting for the
// extraction, the started wording, the extract endpoint's statuses and the message wordings.
import type { CheckContext, CheckDef } from '../../run/model.ts';
import type { Exchange } from '../../../judge/define.ts';
import { messages } from '../../../generated/spec-values.ts';
import {
  type Obj,
  uploadDocument,
  objOf,
  listOf,
  followDocument,
  got,
  enumOf,
  body,
  json,
  is2xx,
  made,
  SETUP,
  byExternalId,
  readableError,
} from '../support/common.ts';
import { check } from '../support/define.ts';
import { EXTRACTION_FASTEST_MS, timeScale } from '../../run/durations.ts';
import {
  TERMINAL,
  RANK,
  saysExtractionStarted,
  lookupDocument,
  trackedUploads,
  untilTerminal,
  created,
  extractionWaitMs,
  extractionWaitText,
} from '../support/documents.ts';

/** A text long enough to be part of a document's text, and no media type or code. */
const isProse = (v: unknown) => typeof v === 'string' && v.length >= 20 && !/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(v);

export async function extracted_text_never_returned(ctx: CheckContext): Promise<void> {
  const { patientId, token, uploads } = await trackedUploads(ctx);
  const ok = created(ctx, uploads);
  const done = ok.filter((u) => u.last?.status === 'completed');
  if (!done.length) return ctx.skip(`no upload reached completed within ${extractionWaitText(ctx)}: no extracted text to look for`);
  const list = await ctx.send({ method: 'GET', path: `/patients/${patientId}/documents`, key: ctx.keys.main });
  const extract = await ctx.send({
    method: 'POST',
    path: `/patients/${patientId}/documents/${String(objOf(done[0]!.upload).id)}/extract`,
    key: ctx.keys.main,
  });
  const answers = [...ok.flatMap((u) => [u.upload, u.right, ...(u.lastExchange ? [u.lastExchange] : [])]), list, extract];
  for (const ex of answers)
    ctx.expect(!ex.response.text.includes(token), {
      expected: `the document's text (it carries "${token}") in no answer`,
      actual: `${ex.request.method} ${ex.request.path} answered ${got(ex)}`,
      exchange: ex,
      says: 'The extracted text itself is never returned by the API; only its availability and length.',
    });
  const docs = [...answers.flatMap((ex) => listOf(ex)), ...answers.map((ex) => objOf(ex)).filter((d) => typeof d.id === 'string')];
  for (const d of docs) {
    // A field named like the text that holds prose (a preview, an OCR dump): the token may lie past a preview's end.
    // A name alone proves nothing (content_type holding a media type is an extra field the tables do not forbid).
    const textual = Object.keys(d).filter(
      (k) => /text|content|ocr/i.test(k) && k !== 'has_extracted_text' && k !== 'extracted_text_length' && isProse(d[k]),
    );
    ctx.expect(!textual.length, {
      expected: 'only has_extracted_text and extracted_text_length about the text',
      actual: `document ${String(d.id)} carries ${textual.join(', ')}`,
      says: 'The extracted text itself is never returned by the API; only its availability and length.',
    });
  }
  for (const u of done)
    ctx.expect(
      u.last?.has_extracted_text === true &&
        Number.isInteger(u.last.extracted_text_length) &&
        (u.last.extracted_text_length as number) >= token.length,
      {
        expected: `a completed document with has_extracted_text true and extracted_text_length ≥ ${token.length} (its text carries a ${token.length}-character token)`,
        actual: json(u.last),
        exchange: u.lastExchange,
        says: [
          'true once extracted text exists',
          'The extracted text itself is never returned by the API; only its availability and length.',
        ],
      },
    );
}

export async function terminal_status_stays(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const pid = String(p.id);
  const watched: Array<{ externalId: string; terminal: Obj }> = [];
  const follow = async (label: string) => {
    const externalId = ctx.externalId(`terminal-${label}`);
    const up = await uploadDocument(ctx, pid, externalId, { text: 'Conformance terminal status' });
    made(up, 'a stored PDF upload', SETUP.upload);
    const t0 = performance.now();
    const f = await followDocument(ctx, pid, externalId, extractionWaitMs(ctx));
    if (!f.last || !TERMINAL.has(String(f.last.status))) return;
    watched.push({ externalId, terminal: f.last });
    return performance.now() - t0;
  };
  const took = [await follow('completed')];
  if (ctx.mock) {
    await ctx.mock.fault({ kind: 'extraction-fails', count: 1 });
    try {
      took.push(await follow('failed'));
    } finally {
      await ctx.mock.clearFaults();
    }
  }
  if (!watched.length) return ctx.skip(`no upload reached completed or failed within ${extractionWaitText(ctx)}`);
  // Watch the terminal documents for as long as they took to get there (0.3 s to 2 s), no extract call made.
  const holdMs = Math.min(2000, Math.max(300, ...took.filter((x): x is number => x !== undefined)));
  const end = performance.now() + holdMs;
  do {
    for (const { externalId, terminal: was } of watched) {
      const ex = await lookupDocument(ctx, pid, externalId);
      const d = byExternalId(ex, externalId);
      ctx.expect(
        !!d && d.status === was.status && d.extraction_error === was.extraction_error && d.has_extracted_text === was.has_extracted_text,
        {
          expected: `document ${externalId} stays ${String(was.status)} (extraction_error ${json(was.extraction_error)}, has_extracted_text ${json(was.has_extracted_text)}) until a new run is started`,
          actual: d
            ? `status ${String(d.status)}, extraction_error ${json(d.extraction_error)}, has_extracted_text ${json(d.has_extracted_text)}`
            : got(ex),
          exchange: ex,
          says: ['completed and failed are terminal for one extraction run', 'true once extracted text exists', 'extraction_error set'],
        },
      );
    }
    await ctx.sleep(Math.min(100, holdMs / 5));
  } while (performance.now() < end);
}

export async function upload_status_is_a_real_state(ctx: CheckContext): Promise<void> {
  const { uploads } = await trackedUploads(ctx);
  const statuses = enumOf(ctx, 'DocumentStatus');
  for (const u of created(ctx, uploads)) {
    if (
      !ctx.expect(!!u.first && statuses.includes(u.first), {
        expected: `an upload status among ${statuses.join(', ')}`,
        actual: got(u.upload),
        exchange: u.upload,
        says: ['States: pending, processing, completed, failed.', 'processing, completed or failed is possible'],
      })
    )
      continue;
    // Whatever the upload answered was where the extraction stood: nothing seen later is behind it.
    const ranks = u.seen.map((s) => RANK[s] ?? -1);
    const forward = ranks.every((r, i) => r >= 0 && (i === 0 || r >= ranks[i - 1]!)) && u.seen.filter((s) => TERMINAL.has(s)).length <= 1;
    ctx.expect(forward, {
      expected: `the upload's status ${u.first} followed only by later states (pending → processing → completed | failed, no change after a terminal one)`,
      actual: `upload ${u.first}, then ${u.seen.slice(1).join(' → ') || '(no change)'}`,
      exchange: u.right,
      says: 'States: pending, processing, completed, failed. completed and failed are terminal for one extraction run.',
    });
  }
}

export async function upload_does_not_wait_for_extraction(ctx: CheckContext): Promise<void> {
  const { uploads } = await trackedUploads(ctx);
  const ok = created(ctx, uploads);
  if (!ok.length) return;
  for (const u of ok)
    ctx.expect(u.right.response.status === 200 && byExternalId(u.right, u.externalId)?.id === objOf(u.upload).id, {
      expected: `document ${String(objOf(u.upload).id)} stored (found by its external_id) as soon as the upload answered`,
      actual: got(u.right),
      exchange: u.right,
      says: ['The response returns once the file is stored', 'lookup path is /patients/{patientId}/documents?external_id=<value>'],
    });
  if (ok.some((u) => !TERMINAL.has(String(u.first)))) return; // answered before its extraction finished
  // Every upload answered a terminal status. "Extraction finished before the response was built" is documented (a
  // fast extractor), so only time shows a wait: a terminal answer slower than half the fastest documented extraction.
  const waited = Math.round((EXTRACTION_FASTEST_MS / 2) * timeScale(ctx.mock));
  const slow = ok.filter((u) => u.upload.ms >= waited);
  ctx.expect(!slow.length, {
    expected: `an upload answered before its extraction finished: pending or processing, or a terminal status within ${waited / 1000} s (half the ${EXTRACTION_FASTEST_MS / 1000} s a PDF may take at the least)`,
    actual: ok.map((u) => `${u.externalId}: ${String(u.first)} after ${Math.round(u.upload.ms)} ms`).join(', '),
    exchange: (slow[0] ?? ok[0])!.upload,
    says: 'it does not wait for extraction (a PDF may take roughly 10 to 30 seconds)',
  });
}

export async function queued_upload_message_says_started(ctx: CheckContext): Promise<void> {
  const { uploads } = await trackedUploads(ctx);
  const queued = created(ctx, uploads).filter((u) => u.queued);
  if (!queued.length) return ctx.skip(`no upload left pending on its own within ${extractionWaitText(ctx)}: none was seen to be queued`);
  for (const u of queued)
    ctx.expect(typeof body(u.upload).message === 'string' && saysExtractionStarted(String(body(u.upload).message)), {
      expected: 'a message saying that text extraction started (the extraction was queued: the document moved on by itself)',
      actual: json(body(u.upload).message),
      exchange: u.upload,
      says: 'message contains a text-extraction-started wording when extraction was queued',
    });
}

export async function extract_endpoint_status_codes(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const pid = String(p.id);
  const externalId = ctx.externalId('extract-codes');
  const up = await uploadDocument(ctx, pid, externalId, { text: 'Conformance extract endpoint' });
  const id = made(up, 'a stored PDF upload', SETUP.upload).id;
  await untilTerminal(ctx, pid, externalId);
  const path = `/patients/${pid}/documents/${id}/extract`;
  const started = await ctx.send({ method: 'POST', path, key: ctx.keys.main });
  ctx.expect(started.response.status === 200 && body(started).success === true && objOf(started).id === id, {
    expected: `200 { data: document ${id}, success: true, message } when a run started`,
    actual: got(started),
    exchange: started,
    says: 'kit: 200 with success true when a run started; the status codes for success are not shown',
  });
  await ctx.mock!.fault({ kind: 'extraction-not-queued', count: 1 });
  let refused: Exchange;
  try {
    refused = await ctx.send({ method: 'POST', path, key: ctx.keys.main });
  } finally {
    await ctx.mock!.clearFaults();
  }
  const b = body(refused);
  ctx.expect(
    refused.response.status === 503 &&
      // A body that is not JSON is error_body_shape's (GEN-005); this rule is the fields of a JSON one.
      (!readableError(refused) ||
        (b.success === false &&
          typeof b.error === 'string' &&
          b.error.length > 0 &&
          typeof b.details === 'string' &&
          b.details.length > 0 &&
          objOf(refused).id === id)),
    {
      expected: `503 { data: document ${id}, success: false, message, error, details } when the run could not be started`,
      actual: got(refused),
      exchange: refused,
      says: 'kit: 503 with success false, error and details when no run could be started; the status codes for failure are not shown',
    },
  );
}

export async function upload_message_wordings(ctx: CheckContext): Promise<void> {
  const { patientId, uploads } = await trackedUploads(ctx);
  const queued = created(ctx, uploads).filter((u) => u.queued);
  for (const u of queued)
    ctx.expect(body(u.upload).message === messages.upload.queued, {
      expected: `message ${json(messages.upload.queued)} for a queued upload`,
      actual: json(body(u.upload).message),
      exchange: u.upload,
      says: 'kit: the wording of the extraction-started message is not quoted; the kit words it so',
    });
  if (!ctx.mock) {
    if (!queued.length)
      return ctx.skip(
        `no upload left pending on its own within ${extractionWaitText(ctx)}, and without --mock no upload can be made not to queue`,
      );
    return;
  }
  await ctx.mock.fault({ kind: 'extraction-not-queued', count: 1 });
  let up: Exchange;
  try {
    up = await uploadDocument(ctx, patientId, ctx.externalId('not-queued'), { text: 'Conformance not queued' });
  } finally {
    await ctx.mock.clearFaults();
  }
  ctx.expect(is2xx(up) && body(up).message === messages.upload.notQueued, {
    expected: `2xx with message ${json(messages.upload.notQueued)} for an upload whose extraction was not queued`,
    actual: got(up),
    exchange: up,
    says: 'kit: the plain uploaded-successfully wording is not quoted; the kit words it so',
  });
}

export const checks: CheckDef[] = [
  check(extracted_text_never_returned, { rule: 'DOC-009', needs: { write: true }, waits: ['extraction'] }),
  check(terminal_status_stays, { rule: 'DOC-012', needs: { write: true }, exclusive: true, waits: ['extraction', 'extraction'] }),
  check(upload_status_is_a_real_state, { rule: 'DOC-014', needs: { write: true }, waits: ['extraction'] }),
  check(upload_does_not_wait_for_extraction, { rule: 'DOC-025', needs: { write: true }, waits: ['extraction'] }),
  check(queued_upload_message_says_started, { rule: 'DOC-026', needs: { write: true }, waits: ['extraction'] }),
  check(extract_endpoint_status_codes, {
    rule: 'DOC-031',
    provenance: 'assumed',
    needs: { write: true, mock: true },
    waits: ['extraction'],
  }),
  check(upload_message_wordings, { rule: 'DOC-036', provenance: 'assumed', needs: { write: true }, waits: ['extraction'] }),
];
