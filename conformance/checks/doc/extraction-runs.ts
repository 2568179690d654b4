// DOC: documents, extraction runs and limits: the path id's form, runs reaching a terminal state, the extract endpoint
// starting one, a failure then a retry, an upload not queued, 413 and 415, and the lifecycle.
import type { CheckContext, CheckDef } from '../../run/model.ts';
import {
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
} from '../support/common.ts';
import { own, pathIdForm, UUID } from '../support/operations.ts';
import { expectLookupGone } from '../support/resources.ts';
import { check } from '../support/define.ts';
import { untilTerminal, noteStall, extractionWaitMs, extractionWaitText, checkTransitions } from '../support/documents.ts';

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
    requests: [
      {
        method: 'POST',
        path: (x) => `/patients/${pid}/documents/${x}/extract`,
        // "Its status codes for success and for failure: not shown": any answer but a refusal of the key or the id.
        takes: (ex) => ![400, 401, 403, 404].includes(ex.response.status),
      },
    ],
  });
  // A DELETE with the id of the wrong form is refused and deletes nothing (the document is the run's own).
  for (const bad of [`${id}x`, 'not-a-uuid']) {
    const ex = await ctx.send({ method: 'DELETE', path: `/patients/${pid}/documents/${encodeURIComponent(bad)}`, key: ctx.keys.main });
    ctx.expect(is4xx(ex), {
      expected: `a 4xx for DELETE /patients/{patientId}/documents/{documentId} with documentId ${JSON.stringify(bad)}`,
      actual: got(ex),
      exchange: ex,
      says: 'documentId (UUID)',
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
    says: 'documentId (UUID)',
  });
}

export async function extraction_reaches_terminal_state(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const ext = ctx.externalId('extract');
  const up = await uploadDocument(ctx, String(p.id), ext);
  made(up, 'a stored PDF upload', SETUP.upload);
  if (
    !ctx.expect(typeof body(up).message === 'string', {
      expected: '{ data, message } for the upload',
      actual: got(up),
      exchange: up,
      says: '201 {data: Document, message: <string>}',
    })
  )
    return;
  const order = enumOf(ctx, 'DocumentStatus');
  const first = String(objOf(up).status);
  const { statuses, last, exchange } = await followDocument(ctx, String(p.id), ext, extractionWaitMs(ctx));
  checkTransitions(ctx, [first, ...statuses.filter((s) => s !== first)], order);
  const terminal = last?.status === 'completed' || last?.status === 'failed';
  if (!terminal) noteStall(ctx, ext, last?.status);
  ctx.expect(terminal, {
    expected: `completed or failed within ${extractionWaitText(ctx)}`,
    actual: String(last?.status),
    exchange,
    says: [
      'Clients may poll the list endpoint with external_id to follow one document until status is completed or failed.',
      'a PDF may take roughly 10 to 30 seconds',
    ],
  });
  if (last?.status === 'completed')
    ctx.expect(last.has_extracted_text === true, {
      expected: 'has_extracted_text true once completed',
      actual: JSON.stringify(last),
      exchange,
      says: 'has_extracted_text becomes true',
    });
  if (last?.status === 'failed')
    ctx.expect(typeof last.extraction_error === 'string' && last.extraction_error.length > 0, {
      expected: 'extraction_error set when failed',
      actual: JSON.stringify(last),
      exchange,
      says: 'extraction_error set',
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
  ctx.expect(is2xx(ex) && objOf(ex).id === id, {
    expected: `2xx { data: document ${id} }`,
    actual: got(ex),
    exchange: ex,
    says: [
      'The extract endpoint starts or retries extraction and returns the latest status.',
      '{data: Document, success: <boolean>, message: <string>, error: <string>, details: <string>}',
    ],
  });
  // That the new run ends at all is DOC-028's (untilTerminal blocks on it); that one was started is this rule's: the
  // document left its terminal state (in the answer or a read after it) or ended again with a newer extracted_date.
  const after = await untilTerminal(ctx, String(p.id), ext);
  const statuses = [objOf(ex).status, ...after.statuses];
  const again = typeof after.last?.extracted_date === 'string' && after.last.extracted_date !== before?.extracted_date;
  ctx.expect(statuses.some((s) => s === 'pending' || s === 'processing') || again, {
    expected: `a new extraction run of document ${id} (${String(before?.status)} before the call): pending or processing after it, or a newer extracted_date once it ends`,
    actual: `statuses ${statuses.map(String).join(' → ')}; extracted_date ${json(before?.extracted_date)} then ${json(after.last?.extracted_date)}`,
    exchange: after.exchange,
    says: '| any | POST extract endpoint | may be called at any time | a new extraction run |',
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
    says: ['extraction_error set', 'reason when extraction failed'],
  });
  const ex = await ctx.send({
    method: 'POST',
    path: `/patients/${String(p.id)}/documents/${String(objOf(up).id)}/extract`,
    key: ctx.keys.main,
  });
  ctx.expect(ex.response.status < 300, {
    expected: '2xx from the extract endpoint',
    actual: got(ex),
    exchange: ex,
    says: 'The extract endpoint starts or retries extraction',
  });
  const done = await untilTerminal(ctx, String(p.id), ext);
  ctx.expect(done.last?.status === 'completed', {
    expected: 'a failed document later reaches completed',
    actual: JSON.stringify(done.last),
    exchange: done.exchange,
    says: 'a failed document can later reach completed',
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
    says: 'upload still succeeds; message omits the extraction-started wording',
  });
  await ctx.sleep(300);
  const still = await followDocument(ctx, String(p.id), ext, 1);
  ctx.expect(still.last?.status === 'pending', {
    expected: 'stays pending until the extract endpoint is called',
    actual: String(still.last?.status),
    exchange: still.exchange,
    says: ['pending and stays so', 'client must call the extract endpoint'],
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
    says: 'kit: 413 Content Too Large for a file over 10 MB; the document gives no status for it',
  });
}

export async function upload_unsupported_type_415(ctx: CheckContext): Promise<void> {
  const { types, wrongType } = await limitUploads(ctx);
  ctx.expect(wrongType.response.status === 415, {
    expected: `415 for a text/plain file (accepted: ${types.join(', ')})`,
    actual: got(wrongType),
    exchange: wrongType,
    says: 'kit: 415 Unsupported Media Type for a file of another type; the document gives no status for it',
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
      says: '201 {data: Document, message: <string>}',
    })
  )
    return;
  const docs = `/patients/${String(p.id)}/documents`;
  const list = await ctx.send({ method: 'GET', path: docs, key: ctx.keys.main });
  ctx.expect(
    listOf(list).some((x) => x.id === d.id),
    {
      expected: "the upload in the patient's documents",
      actual: got(list),
      exchange: list,
      says: '| GET | /patients/{patientId}/documents | documents:read |',
    },
  );
  const del = await ctx.send({ method: 'DELETE', path: `${docs}/${String(d.id)}`, key: ctx.keys.main });
  ctx.expect(del.response.status === 200, {
    expected: '200 { success: true }',
    actual: got(del),
    exchange: del,
    says: '| DELETE | /patients/{patientId}/documents/{documentId} | documents:write | none | {success: true} |',
  });
  for (const [method, path] of [
    ['DELETE', `${docs}/${String(d.id)}`],
    ['POST', `${docs}/${String(d.id)}/extract`],
  ] as const) {
    const ex = await ctx.send({ method, path, key: ctx.keys.main });
    ctx.expect(ex.response.status === 404, {
      expected: `404 for ${method} after delete`,
      actual: got(ex),
      exchange: ex,
      says: '| 404 | resource does not exist',
    });
  }
  await expectLookupGone(ctx, docs, String(d.external_id), String(d.id));
}

export const checks: CheckDef[] = [
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
