import type { CheckContext, CheckDef } from '../model.ts';
import type { Exchange } from '../http.ts';
import { messages } from '../../generated/spec-values.ts';
import {
  type Obj,
  uploadDocument,
  objOf,
  listOf,
  followDocument,
  got,
  enumOf,
  body,
  is4xx,
  limitUploads,
  json,
  is2xx,
  made,
  SETUP,
  byExternalId,
  readableError,
} from './support/common.ts';
import { own, pathIdForm, UUID } from './support/operations.ts';
import { expectLookupGone } from './support/resources.ts';
import { check } from './support/define.ts';
import { EXTRACTION_FASTEST_MS, timeScale } from '../durations.ts';
import {
  TERMINAL,
  RANK,
  saysExtractionStarted,
  lookupDocument,
  trackedUploads,
  untilTerminal,
  noteStall,
  created,
  extractionWaitMs,
  extractionWaitText,
  checkTransitions,
} from './support/documents.ts';

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
    });
  const docs = [...answers.flatMap((ex) => listOf(ex)), ...answers.map((ex) => objOf(ex)).filter((d) => typeof d.id === 'string')];
  for (const d of docs) {
    const textual = Object.keys(d).filter(
      (k) => /text|content|ocr/i.test(k) && k !== 'has_extracted_text' && k !== 'extracted_text_length',
    );
    ctx.expect(!textual.length, {
      expected: 'only has_extracted_text and extracted_text_length about the text',
      actual: `document ${String(d.id)} carries ${textual.join(', ')}`,
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
  });
}

export async function document_id_path_uuid(ctx: CheckContext): Promise<void> {
  const { patient } = await own(ctx);
  const pid = String(patient.id);
  const up = await uploadDocument(ctx, pid);
  const id = made(up, 'a stored upload to read the id of', SETUP.upload).id;
  await pathIdForm(ctx, {
    param: 'documentId',
    form: UUID,
    formName: 'a UUID',
    id,
    requests: [{ method: 'POST', path: (x) => `/patients/${pid}/documents/${x}/extract` }],
  });
  // A DELETE with the id of the wrong form is refused and deletes nothing (the document is the run's own).
  for (const bad of [`${id}x`, 'not-a-uuid']) {
    const ex = await ctx.send({ method: 'DELETE', path: `/patients/${pid}/documents/${encodeURIComponent(bad)}`, key: ctx.keys.main });
    ctx.expect(is4xx(ex), {
      expected: `a 4xx for DELETE /patients/{patientId}/documents/{documentId} with documentId ${JSON.stringify(bad)}`,
      actual: got(ex),
      exchange: ex,
    });
  }
  const still = await ctx.send({
    method: 'GET',
    path: `/patients/${pid}/documents`,
    key: ctx.keys.main,
    query: { external_id: String(objOf(up).external_id) },
  });
  ctx.expect(byExternalId(still, String(objOf(up).external_id))?.id === id, {
    expected: `document ${id} still there after DELETEs naming ids of the wrong form`,
    actual: got(still),
    exchange: still,
  });
}

export async function extraction_reaches_terminal_state(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const ext = ctx.externalId('extract');
  const up = await uploadDocument(ctx, String(p.id), ext);
  made(up, 'a stored PDF upload', SETUP.upload);
  if (!ctx.expect(typeof body(up).message === 'string', { expected: '{ data, message } for the upload', actual: got(up), exchange: up }))
    return;
  const order = enumOf(ctx, 'DocumentStatus');
  const first = String(objOf(up).status);
  const { statuses, last, exchange } = await followDocument(ctx, String(p.id), ext, extractionWaitMs(ctx));
  checkTransitions(ctx, [first, ...statuses.filter((s) => s !== first)], order);
  const terminal = last?.status === 'completed' || last?.status === 'failed';
  if (!terminal) noteStall(ctx, ext, last?.status);
  ctx.expect(terminal, { expected: `completed or failed within ${extractionWaitText(ctx)}`, actual: String(last?.status), exchange });
  if (last?.status === 'completed')
    ctx.expect(last.has_extracted_text === true, {
      expected: 'has_extracted_text true once completed',
      actual: JSON.stringify(last),
      exchange,
    });
  if (last?.status === 'failed')
    ctx.expect(typeof last.extraction_error === 'string' && last.extraction_error.length > 0, {
      expected: 'extraction_error set when failed',
      actual: JSON.stringify(last),
      exchange,
    });
}

export async function extract_endpoint_starts_a_run(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const ext = ctx.externalId('reextract');
  const up = await uploadDocument(ctx, String(p.id), ext);
  const id = String(objOf(up).id);
  const before = (await untilTerminal(ctx, String(p.id), ext)).last;
  const ex = await ctx.send({ method: 'POST', path: `/patients/${String(p.id)}/documents/${id}/extract`, key: ctx.keys.main });
  // "returns the latest status": the document; success and message "may also" come (their values are DOC-031's).
  ctx.expect(is2xx(ex) && objOf(ex).id === id, { expected: `2xx { data: document ${id} }`, actual: got(ex), exchange: ex });
  // That the new run ends at all is DOC-028's (untilTerminal blocks on it); that one was started is this rule's: the
  // document left its terminal state (in the answer or a read after it) or ended again with a newer extracted_date.
  const after = await untilTerminal(ctx, String(p.id), ext);
  const statuses = [objOf(ex).status, ...after.statuses];
  const again = typeof after.last?.extracted_date === 'string' && after.last.extracted_date !== before?.extracted_date;
  ctx.expect(statuses.some((s) => s === 'pending' || s === 'processing') || again, {
    expected: `a new extraction run of document ${id} (${String(before?.status)} before the call): pending or processing after it, or a newer extracted_date once it ends`,
    actual: `statuses ${statuses.map(String).join(' → ')}; extracted_date ${json(before?.extracted_date)} then ${json(after.last?.extracted_date)}`,
    exchange: after.exchange,
  });
}

export async function extraction_failure_then_retry(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  await ctx.mock!.fault({ kind: 'extraction-fails', count: 1 });
  const ext = ctx.externalId('fails');
  const up = await uploadDocument(ctx, String(p.id), ext);
  const failed = await untilTerminal(ctx, String(p.id), ext);
  ctx.expect(failed.last?.status === 'failed' && typeof failed.last.extraction_error === 'string', {
    expected: 'failed with extraction_error',
    actual: JSON.stringify(failed.last),
    exchange: failed.exchange,
  });
  const ex = await ctx.send({
    method: 'POST',
    path: `/patients/${String(p.id)}/documents/${String(objOf(up).id)}/extract`,
    key: ctx.keys.main,
  });
  ctx.expect(ex.response.status < 300, { expected: '2xx from the extract endpoint', actual: got(ex), exchange: ex });
  const done = await untilTerminal(ctx, String(p.id), ext);
  ctx.expect(done.last?.status === 'completed', {
    expected: 'a failed document later reaches completed',
    actual: JSON.stringify(done.last),
    exchange: done.exchange,
  });
}

export async function extraction_not_queued(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const queued = await uploadDocument(ctx, String(p.id));
  await ctx.mock!.fault({ kind: 'extraction-not-queued', count: 1 });
  const ext = ctx.externalId('notqueued');
  const up = await uploadDocument(ctx, String(p.id), ext);
  ctx.expect(is2xx(up) && body(up).message !== body(queued).message, {
    expected: 'a message without the extraction-started wording',
    actual: `${JSON.stringify(body(up).message)} (queued upload said ${JSON.stringify(body(queued).message)})`,
    exchange: up,
  });
  await ctx.sleep(300);
  const still = await followDocument(ctx, String(p.id), ext, 1);
  ctx.expect(still.last?.status === 'pending', {
    expected: 'stays pending until the extract endpoint is called',
    actual: String(still.last?.status),
    exchange: still.exchange,
  });
  await ctx.send({ method: 'POST', path: `/patients/${String(p.id)}/documents/${String(objOf(up).id)}/extract`, key: ctx.keys.main });
  // Ending at all is DOC-028's: a run that never ends blocks here (untilTerminal).
  await untilTerminal(ctx, String(p.id), ext);
}

export async function upload_over_max_bytes_413(ctx: CheckContext): Promise<void> {
  const { maxBytes, refuseAbove, oversize } = await limitUploads(ctx);
  if (!oversize) return ctx.skip('the spec gives no x-max-bytes for the upload file');
  ctx.expect(oversize.response.status === 413, {
    expected: `413 for a file of ${refuseAbove! + 1} bytes (over x-max-bytes ${maxBytes})`,
    actual: got(oversize),
    exchange: oversize,
  });
}

export async function upload_unsupported_type_415(ctx: CheckContext): Promise<void> {
  const { types, wrongType } = await limitUploads(ctx);
  ctx.expect(wrongType.response.status === 415, {
    expected: `415 for a text/plain file (accepted: ${types.join(', ')})`,
    actual: got(wrongType),
    exchange: wrongType,
  });
}

export async function document_lifecycle(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const up = await uploadDocument(ctx, String(p.id));
  const d = objOf(up);
  if (
    !ctx.expect(up.response.status === 201 && typeof d.id === 'string', {
      expected: '201 with the document',
      actual: got(up),
      exchange: up,
    })
  )
    return;
  const docs = `/patients/${String(p.id)}/documents`;
  const list = await ctx.send({ method: 'GET', path: docs, key: ctx.keys.main });
  ctx.expect(
    listOf(list).some((x) => x.id === d.id),
    { expected: "the upload in the patient's documents", actual: got(list), exchange: list },
  );
  const del = await ctx.send({ method: 'DELETE', path: `${docs}/${String(d.id)}`, key: ctx.keys.main });
  ctx.expect(del.response.status === 200, { expected: '200 { success: true }', actual: got(del), exchange: del });
  for (const [method, path] of [
    ['DELETE', `${docs}/${String(d.id)}`],
    ['POST', `${docs}/${String(d.id)}/extract`],
  ] as const) {
    const ex = await ctx.send({ method, path, key: ctx.keys.main });
    ctx.expect(ex.response.status === 404, { expected: `404 for ${method} after delete`, actual: got(ex), exchange: ex });
  }
  await expectLookupGone(ctx, docs, String(d.external_id), String(d.id));
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
  check(document_id_path_uuid, { rule: 'DOC-030', needs: { write: true } }),
  check(extraction_reaches_terminal_state, {
    rule: 'DOC-028',
    covers: ['DOC-007', 'DOC-017', 'DOC-018'],
    needs: { write: true },
    waits: ['extraction'],
  }),
  check(extract_endpoint_starts_a_run, {
    rule: 'DOC-019',
    covers: ['DOC-023'],
    needs: { write: true },
    waits: ['extraction', 'extraction'],
  }),
  check(extraction_failure_then_retry, {
    rule: 'DOC-020',
    covers: ['DOC-006', 'DOC-018', 'DOC-029'],
    needs: { write: true, mock: true },
    waits: ['extraction', 'extraction'],
  }),
  check(extraction_not_queued, { rule: 'DOC-015', covers: ['DOC-027'], needs: { write: true, mock: true }, waits: ['extraction'] }),
  check(upload_over_max_bytes_413, { rule: 'DOC-032', provenance: 'assumed', needs: { write: true } }),
  check(upload_unsupported_type_415, { rule: 'DOC-033', provenance: 'assumed', needs: { write: true } }),
  check(document_lifecycle, { rule: 'DOC-024', covers: ['DOC-021'], needs: { write: true } }),
];
