// Documents: upload answers 201 without waiting; extraction moves pending → processing → completed | failed;
// the extract endpoint starts a new run from any state; a queued-or-not upload says which in its message.
import type { CheckContext, CheckDef } from '../model.ts';
import type { Exchange } from '../http.ts';
import { tinyPdf } from '../fixtures.ts';
import { body, enumOf, followDocument, got, objOf, uploadDocument } from './util.ts';

/** Extraction may take 10–30 s on a real service; the mock scales it down. */
const EXTRACTION_MS = 60_000;

function checkTransitions(ctx: CheckContext, statuses: string[], order: string[]) {
  const idx = statuses.map((s) => order.indexOf(s));
  const forward = idx.every((v, i) => v >= 0 && (i === 0 || v > idx[i - 1]!));
  ctx.expect(forward, { expected: `statuses in the order ${order.join(' → ')} (completed/failed terminal)`, actual: statuses.join(' → ') });
}

export const documentChecks: CheckDef[] = [
  {
    name: 'extraction_reaches_terminal_state',
    area: 'documents',
    rule: 'DOC-028',
    covers: ['DOC-016', 'DOC-017'],
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const ext = ctx.externalId('extract');
      const up = await uploadDocument(ctx, String(p.id), ext);
      if (!ctx.expect(up.response.status === 201 && typeof body(up).message === 'string', { expected: '201 { data, message }', actual: got(up), exchange: up })) return;
      const order = enumOf(ctx, 'DocumentStatus');
      const first = String(objOf(up).status);
      const { statuses, last, exchange } = await followDocument(ctx, String(p.id), ext, EXTRACTION_MS);
      checkTransitions(ctx, [first, ...statuses.filter((s) => s !== first)], order);
      const terminal = last?.status === 'completed' || last?.status === 'failed';
      ctx.expect(terminal, { expected: `completed or failed within ${EXTRACTION_MS / 1000} s`, actual: String(last?.status), exchange });
      if (last?.status === 'completed')
        ctx.expect(last.has_extracted_text === true, { expected: 'has_extracted_text true once completed', actual: JSON.stringify(last), exchange });
      if (last?.status === 'failed')
        ctx.expect(typeof last.extraction_error === 'string' && last.extraction_error.length > 0, { expected: 'extraction_error set when failed', actual: JSON.stringify(last), exchange });
    },
  },
  {
    name: 'extract_endpoint_starts_a_run',
    area: 'documents',
    rule: 'DOC-019',
    covers: ['DOC-023', 'DOC-029'],
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const ext = ctx.externalId('reextract');
      const up = await uploadDocument(ctx, String(p.id), ext);
      const id = String(objOf(up).id);
      await followDocument(ctx, String(p.id), ext, EXTRACTION_MS);
      const ex = await ctx.send({ method: 'POST', path: `/patients/${String(p.id)}/documents/${id}/extract`, key: ctx.keys.main });
      const b = body(ex);
      ctx.expect(ex.response.status < 300 && typeof b.success === 'boolean' && objOf(ex).id === id, { expected: '2xx { data: <the document>, success, message }', actual: got(ex), exchange: ex });
      const { last, exchange } = await followDocument(ctx, String(p.id), ext, EXTRACTION_MS);
      ctx.expect(last?.status === 'completed' || last?.status === 'failed', { expected: 'the new run reaches a terminal state', actual: String(last?.status), exchange });
    },
  },
  {
    name: 'extraction_failure_then_retry',
    area: 'documents',
    rule: 'DOC-020',
    covers: ['DOC-006', 'DOC-018'],
    needs: { write: true, mock: true },
    exclusive: true,
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      await ctx.mock!.fault({ kind: 'extraction-fails', count: 1 });
      const ext = ctx.externalId('fails');
      const up = await uploadDocument(ctx, String(p.id), ext);
      const failed = await followDocument(ctx, String(p.id), ext, EXTRACTION_MS);
      ctx.expect(failed.last?.status === 'failed' && typeof failed.last.extraction_error === 'string', { expected: 'failed with extraction_error', actual: JSON.stringify(failed.last), exchange: failed.exchange });
      const ex = await ctx.send({ method: 'POST', path: `/patients/${String(p.id)}/documents/${String(objOf(up).id)}/extract`, key: ctx.keys.main });
      ctx.expect(ex.response.status < 300, { expected: '2xx from the extract endpoint', actual: got(ex), exchange: ex });
      const done = await followDocument(ctx, String(p.id), ext, EXTRACTION_MS);
      ctx.expect(done.last?.status === 'completed', { expected: 'a failed document later reaches completed', actual: JSON.stringify(done.last), exchange: done.exchange });
    },
  },
  {
    name: 'extraction_not_queued',
    area: 'documents',
    rule: 'DOC-015',
    covers: ['DOC-027'],
    needs: { write: true, mock: true },
    exclusive: true,
    async run(ctx) {
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
      ctx.expect(still.last?.status === 'pending', { expected: 'stays pending until the extract endpoint is called', actual: String(still.last?.status), exchange: still.exchange });
      await ctx.send({ method: 'POST', path: `/patients/${String(p.id)}/documents/${String(objOf(up).id)}/extract`, key: ctx.keys.main });
      const done = await followDocument(ctx, String(p.id), ext, EXTRACTION_MS);
      ctx.expect(done.last?.status === 'completed' || done.last?.status === 'failed', { expected: 'terminal after the extract endpoint', actual: String(done.last?.status), exchange: done.exchange });
    },
  },
];

/** Upload limits read from the spec: the file's x-max-bytes and the encoding's allowed content types. */
export function uploadLimits(ctx: CheckContext): { maxBytes?: number; types: string[] } {
  const file = ctx.contract.resolve('#/components/schemas/DocumentUpload/properties/file') as { 'x-max-bytes'?: number } | undefined;
  const op = ctx.contract.byId('uploadDocument');
  const enc = ctx.contract.resolve(`${op.pointer}/requestBody/content/multipart~1form-data/encoding/file`) as { contentType?: string } | undefined;
  return { maxBytes: file?.['x-max-bytes'], types: (enc?.contentType ?? '').split(',').map((t) => t.trim()).filter(Boolean) };
}

/** One oversized and one plain-text upload per run, shared by the checks that judge them. */
export function limitUploads(ctx: CheckContext) {
  return ctx.fixtures.shared('upload-limits', async () => {
    const { maxBytes, types } = uploadLimits(ctx);
    const p = await ctx.fixtures.patient();
    const path = `/patients/${String(p.id)}/documents`;
    let oversize: Exchange | undefined;
    if (maxBytes !== undefined) {
      // A real PDF header, padded past the limit by one byte.
      const pdf = tinyPdf();
      const bytes = new Uint8Array(maxBytes + 1);
      bytes.set(pdf.subarray(0, Math.min(pdf.length, bytes.length)));
      bytes.fill(0x20, pdf.length);
      oversize = await ctx.send({ method: 'POST', path, key: ctx.keys.main, form: { fields: { external_id: ctx.externalId('oversize') }, file: { name: 'oversize.pdf', type: 'application/pdf', bytes } } });
    }
    const text = new TextEncoder().encode('plain text is not one of the accepted document types\n');
    const wrongType = await ctx.send({ method: 'POST', path, key: ctx.keys.main, form: { fields: { external_id: ctx.externalId('wrongtype') }, file: { name: 'notes.txt', type: 'text/plain', bytes: text } } });
    return { maxBytes, types, oversize, wrongType };
  });
}

export const uploadLimitChecks: CheckDef[] = [
  {
    name: 'upload_limits_refused',
    area: 'documents',
    rule: 'LIM-001',
    covers: ['DOC-010', 'DOC-011'],
    needs: { write: true },
    async run(ctx) {
      const { maxBytes, types, oversize, wrongType } = await limitUploads(ctx);
      const refused = (ex: Exchange) => ex.response.status >= 400 && ex.response.status < 500;
      if (oversize) ctx.expect(refused(oversize), { expected: `a 4xx refusal for a file of ${maxBytes! + 1} bytes (limit ${maxBytes})`, actual: got(oversize), exchange: oversize });
      ctx.expect(refused(wrongType), { expected: `a 4xx refusal for a text/plain file (accepted: ${types.join(', ')})`, actual: got(wrongType), exchange: wrongType });
      // And the accepted kind at a small size goes through.
      const p = await ctx.fixtures.patient();
      const ok = await uploadDocument(ctx, String(p.id));
      ctx.expect(ok.response.status === 201, { expected: '201 for a small PDF', actual: got(ok), exchange: ok });
    },
  },
  {
    name: 'upload_over_max_bytes_413',
    area: 'documents',
    rule: 'DOC-032',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      const { maxBytes, oversize } = await limitUploads(ctx);
      if (!oversize) return ctx.skip('the spec gives no x-max-bytes for the upload file');
      ctx.expect(oversize.response.status === 413, { expected: `413 for a file of ${maxBytes! + 1} bytes (x-max-bytes ${maxBytes})`, actual: got(oversize), exchange: oversize });
    },
  },
  {
    name: 'upload_unsupported_type_415',
    area: 'documents',
    rule: 'DOC-033',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      const { types, wrongType } = await limitUploads(ctx);
      ctx.expect(wrongType.response.status === 415, { expected: `415 for a text/plain file (accepted: ${types.join(', ')})`, actual: got(wrongType), exchange: wrongType });
    },
  },
];
