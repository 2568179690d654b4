import type { CheckContext, CheckDef } from '../../model.ts';
import { uploadDocument, objOf, listOf, followDocument, got, enumOf, body, is4xx, limitUploads } from '../support/common.ts';
import { own, pathIdForm, UUID } from '../support/operations.ts';
import { check } from '../support/define.ts';
import { EXTRACTION_MS, checkTransitions } from '../support/documents.ts';

export async function document_id_path_uuid(ctx: CheckContext): Promise<void> {
  const { patient } = await own(ctx);
  const pid = String(patient.id);
  const up = await uploadDocument(ctx, pid);
  if (
    !ctx.expect(up.response.status === 201 && typeof objOf(up).id === 'string', {
      expected: '201 for an upload to read the id of',
      actual: got(up),
      exchange: up,
    })
  )
    return;
  const id = String(objOf(up).id);
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
  ctx.expect(listOf(still)[0]?.id === id, {
    expected: `document ${id} still there after DELETEs naming ids of the wrong form`,
    actual: got(still),
    exchange: still,
  });
}

export async function extraction_reaches_terminal_state(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const ext = ctx.externalId('extract');
  const up = await uploadDocument(ctx, String(p.id), ext);
  if (
    !ctx.expect(up.response.status === 201 && typeof body(up).message === 'string', {
      expected: '201 { data, message }',
      actual: got(up),
      exchange: up,
    })
  )
    return;
  const order = enumOf(ctx, 'DocumentStatus');
  const first = String(objOf(up).status);
  const { statuses, last, exchange } = await followDocument(ctx, String(p.id), ext, EXTRACTION_MS);
  checkTransitions(ctx, [first, ...statuses.filter((s) => s !== first)], order);
  const terminal = last?.status === 'completed' || last?.status === 'failed';
  ctx.expect(terminal, { expected: `completed or failed within ${EXTRACTION_MS / 1000} s`, actual: String(last?.status), exchange });
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
  await followDocument(ctx, String(p.id), ext, EXTRACTION_MS);
  const ex = await ctx.send({ method: 'POST', path: `/patients/${String(p.id)}/documents/${id}/extract`, key: ctx.keys.main });
  const b = body(ex);
  ctx.expect(ex.response.status < 300 && typeof b.success === 'boolean' && objOf(ex).id === id, {
    expected: '2xx { data: <the document>, success, message }',
    actual: got(ex),
    exchange: ex,
  });
  const { last, exchange } = await followDocument(ctx, String(p.id), ext, EXTRACTION_MS);
  ctx.expect(last?.status === 'completed' || last?.status === 'failed', {
    expected: 'the new run reaches a terminal state',
    actual: String(last?.status),
    exchange,
  });
}

export async function extraction_failure_then_retry(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  await ctx.mock!.fault({ kind: 'extraction-fails', count: 1 });
  const ext = ctx.externalId('fails');
  const up = await uploadDocument(ctx, String(p.id), ext);
  const failed = await followDocument(ctx, String(p.id), ext, EXTRACTION_MS);
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
  const done = await followDocument(ctx, String(p.id), ext, EXTRACTION_MS);
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
  ctx.expect(up.response.status === 201 && body(up).message !== body(queued).message, {
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
  const done = await followDocument(ctx, String(p.id), ext, EXTRACTION_MS);
  ctx.expect(done.last?.status === 'completed' || done.last?.status === 'failed', {
    expected: 'terminal after the extract endpoint',
    actual: String(done.last?.status),
    exchange: done.exchange,
  });
}

export async function upload_over_max_bytes_413(ctx: CheckContext): Promise<void> {
  const { maxBytes, oversize } = await limitUploads(ctx);
  if (!oversize) return ctx.skip('the spec gives no x-max-bytes for the upload file');
  ctx.expect(oversize.response.status === 413, {
    expected: `413 for a file of ${maxBytes! + 1} bytes (x-max-bytes ${maxBytes})`,
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
  const gone = await ctx.send({ method: 'GET', path: docs, key: ctx.keys.main, query: { external_id: String(d.external_id) } });
  ctx.expect(gone.response.status === 404, { expected: 'external_id lookup 404 after delete', actual: got(gone), exchange: gone });
}

export const checks: CheckDef[] = [
  check(document_id_path_uuid, { rule: 'DOC-030', needs: { write: true } }),
  check(extraction_reaches_terminal_state, { rule: 'DOC-028', covers: ['DOC-016', 'DOC-017'], needs: { write: true } }),
  check(extract_endpoint_starts_a_run, { rule: 'DOC-019', covers: ['DOC-023', 'DOC-029'], needs: { write: true } }),
  check(extraction_failure_then_retry, { rule: 'DOC-020', covers: ['DOC-006', 'DOC-018'], needs: { write: true, mock: true } }),
  check(extraction_not_queued, { rule: 'DOC-015', covers: ['DOC-027'], needs: { write: true, mock: true } }),
  check(upload_over_max_bytes_413, { rule: 'DOC-032', provenance: 'assumed', needs: { write: true } }),
  check(upload_unsupported_type_415, { rule: 'DOC-033', provenance: 'assumed', needs: { write: true } }),
  check(document_lifecycle, { rule: 'DOC-024', covers: ['DOC-021', 'DOC-022'], needs: { write: true } }),
];
