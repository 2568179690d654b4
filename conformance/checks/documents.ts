// Documents: upload answers 201 without waiting; extraction moves pending → processing → completed | failed;
// the extract endpoint starts a new run from any state; a queued-or-not upload says which in its message.
import type { CheckContext, CheckDef } from '../model.ts';
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
