// EVT: webhook payloads received by the suite's receiver (the mock's, or a deployment's via --webhook-receiver):
// schema, event kinds, retries, deduplication triple.
import type { Delivery } from '../../receiver.ts';
import type { CheckContext, CheckDef } from '../../model.ts';
import { uploadDocument, objOf, followDocument, listOf, got } from '../support/common.ts';
import { register, unregister } from '../support/webhook-probe.ts';
import { check } from '../support/define.ts';

const WAIT_MS = 90_000;

const forDoc = (docId: string) => (d: Delivery) => (d.json as { document_id?: string } | undefined)?.document_id === docId;

/** Uploads a document and waits for its DOCUMENT_STATUS_CHANGED deliveries (count of them). */
async function documentEvents(ctx: CheckContext, count: number, fail: boolean): Promise<{ docId: string; deliveries: Delivery[] }> {
  const p = await ctx.fixtures.patient();
  if (fail) await ctx.mock!.fault({ kind: 'extraction-fails', count: 1 });
  const ext = ctx.externalId('hook');
  const up = await uploadDocument(ctx, String(p.id), ext);
  const docId = String(objOf(up).id);
  if (fail) {
    await followDocument(ctx, String(p.id), ext, WAIT_MS);
    await ctx.send({ method: 'POST', path: `/patients/${String(p.id)}/documents/${docId}/extract`, key: ctx.keys.main });
  }
  const arrived = await ctx.receiver!.waitFor((ds) => ds.filter(forDoc(docId)).length >= count, ctx.mock ? 20_000 : WAIT_MS);
  if (!arrived && !ctx.mock)
    ctx.skip(
      `no DOCUMENT_STATUS_CHANGED delivery for document ${docId} within ${WAIT_MS / 1000} s: is a webhook registered for it to the public receiver URL?`,
    );
  return { docId, deliveries: ctx.receiver!.deliveries.filter(forDoc(docId)) };
}

/** The DOCUMENT_STATUS_CHANGED deliveries of one upload (a failure of the check when none came). */
async function uploadDeliveries(ctx: CheckContext): Promise<Delivery[]> {
  const id = await register(ctx, 'DOCUMENT_STATUS_CHANGED');
  try {
    const { docId, deliveries } = await documentEvents(ctx, 1, false);
    ctx.expect(deliveries.length >= 1, { expected: `a DOCUMENT_STATUS_CHANGED delivery for ${docId}`, actual: 'none' });
    return deliveries;
  } finally {
    await unregister(ctx, id);
  }
}

/**
 * A session to finalize: one the control API lists as completed without a note, or else (a mock already run
 * against) a session that has notes, finalized with a template none of its notes uses (the notes list names them).
 */
async function finalizeTarget(ctx: CheckContext): Promise<{ sessionId: string; templateId?: string }> {
  const fresh = (await ctx.mock!.sessions()).find(
    (s) => s.organization_id === ctx.keys.mainOrg && s.transcript_status === 'completed' && !s.has_note,
  );
  if (fresh) return { sessionId: fresh.id };
  const ex = await ctx.send({ method: 'GET', path: '/notes', key: ctx.keys.main, query: { limit: 100 } });
  const notes = listOf(ex);
  const templates = [...new Set(notes.map((n) => String(n.template_id ?? '')).filter(Boolean))];
  for (const sessionId of new Set(notes.map((n) => String(n.session_id)))) {
    const used = new Set(notes.filter((n) => n.session_id === sessionId).map((n) => String(n.template_id)));
    const free = templates.find((t) => !used.has(t));
    if (free) return { sessionId, templateId: free };
  }
  return ctx.skip(`no session to finalize: the notes list (${got(ex).slice(0, 80)}) names no session with a template left to use`);
}

/** Waits for the note event of `note`, checks it against the NoteEvent schema and the note, and follows note_url. */
async function noteEvent(ctx: CheckContext, event: string, note: Record<string, unknown>): Promise<void> {
  const mine = (d: Delivery) => {
    const j = d.json as { event?: string; note_id?: string } | undefined;
    return j?.event === event && j.note_id === note.id;
  };
  await ctx.receiver!.waitFor((ds) => ds.some(mine), 20_000);
  const deliveries = ctx.receiver!.deliveries.filter(mine);
  if (!ctx.expect(deliveries.length >= 1, { expected: `a ${event} delivery for note ${String(note.id)}`, actual: 'none within 20 s' }))
    return;
  const d = deliveries[0]!;
  const errors = ctx.schemas.validate('#/components/schemas/NoteEvent', d.json);
  ctx.expect(!errors.length, { expected: 'payload valid against NoteEvent', actual: `${errors.join('; ')} in ${d.body.slice(0, 300)}` });
  const j = d.json as Record<string, unknown>;
  const same = ['session_id', 'patient_id', 'template_id'].filter((k) => note[k] !== undefined && j[k] !== note[k]);
  ctx.expect(!same.length, {
    expected: `session_id, patient_id, template_id of note ${String(note.id)}`,
    actual: `${same.map((k) => `${k} ${JSON.stringify(j[k])} (note: ${JSON.stringify(note[k])})`).join(', ')}`,
  });
  let url: URL | undefined;
  try {
    url = new URL(String(j.note_url));
  } catch {
    url = undefined;
  }
  const basePath = new URL(ctx.http.baseUrl).pathname.replace(/\/$/, '');
  const rel = url?.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : undefined;
  if (
    !ctx.expect(!!rel && rel === `/notes/${String(note.id)}`, {
      expected: `note_url an absolute URL of ${basePath}/notes/${String(note.id)}`,
      actual: JSON.stringify(j.note_url),
    })
  )
    return;
  const fetched = await ctx.send({ method: 'GET', path: rel!, key: ctx.keys.main });
  ctx.expect(fetched.response.status === 200 && objOf(fetched).id === note.id, {
    expected: `GET note_url answers 200 with note ${String(note.id)}`,
    actual: got(fetched),
    exchange: fetched,
  });
}

export async function webhook_payload_schema(ctx: CheckContext): Promise<void> {
  for (const d of await uploadDeliveries(ctx)) {
    const errors = ctx.schemas.validate('#/components/schemas/DocumentStatusChangedEvent', d.json);
    ctx.expect(!errors.length, {
      expected: 'payload valid against DocumentStatusChangedEvent',
      actual: `${errors.join('; ')} in ${d.body.slice(0, 300)}`,
    });
  }
}

export async function received_delivery_is_post(ctx: CheckContext): Promise<void> {
  for (const d of await uploadDeliveries(ctx))
    ctx.expect(d.method === 'POST', { expected: 'the delivery sent as POST', actual: `${d.method} ${d.path}` });
}

export async function webhook_retries_identical_payload(ctx: CheckContext): Promise<void> {
  const id = await register(ctx, 'DOCUMENT_STATUS_CHANGED');
  try {
    ctx.receiver!.answerNext([500, 500]);
    const { deliveries } = await documentEvents(ctx, 3, false);
    ctx.expect(deliveries.length === 3, { expected: '3 attempts after 500, 500 (then 200)', actual: `${deliveries.length} attempts` });
    ctx.expect(new Set(deliveries.map((d) => d.body)).size === 1, {
      expected: 'every retry carries the identical payload',
      actual: deliveries.map((d) => d.body).join('\n'),
    });
    const gaps = deliveries.slice(1).map((d, i) => d.at - deliveries[i]!.at);
    if (gaps.length === 2)
      ctx.expect(gaps[1]! >= gaps[0]! * 0.8, {
        expected: 'backoff that grows (1 s then 2 s, scaled by the mock)',
        actual: `gaps ${gaps.map((g) => g.toFixed(0)).join(' ms, ')} ms`,
      });
  } finally {
    ctx.receiver!.answerNext([]);
    await unregister(ctx, id);
  }
}

export async function webhook_dedupe_triple_distinct(ctx: CheckContext): Promise<void> {
  const id = await register(ctx, 'DOCUMENT_STATUS_CHANGED');
  try {
    const { deliveries } = await documentEvents(ctx, 2, true);
    const payloads = deliveries.map((d) => d.json as Record<string, unknown>);
    ctx.expect(payloads.map((p) => p.status).join() === 'failed,completed', {
      expected: 'failed then completed for one document',
      actual: payloads.map((p) => String(p.status)).join(', '),
    });
    const triples = new Set(payloads.map((p) => `${String(p.event)}|${String(p.document_id)}|${String(p.timestamp)}`));
    ctx.expect(triples.size === payloads.length, {
      expected: 'distinct event + resource id + timestamp triples',
      actual: [...triples].join(', '),
    });
  } finally {
    await unregister(ctx, id);
  }
}

export async function note_created_event(ctx: CheckContext): Promise<void> {
  const id = await register(ctx, 'NOTE_CREATED');
  try {
    const target = await finalizeTarget(ctx);
    const r = await ctx.mock!.call<{ data?: Record<string, unknown>; error?: string }>(
      'POST',
      `/sessions/${target.sessionId}/finalize`,
      target.templateId ? { template_id: target.templateId } : {},
    );
    const note = r.body?.data;
    if (r.status !== 201 || !note?.id)
      return ctx.skip(`POST /__mock/sessions/${target.sessionId}/finalize answered ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    await noteEvent(ctx, 'NOTE_CREATED', note);
  } finally {
    await unregister(ctx, id);
  }
}

export async function note_updated_event(ctx: CheckContext): Promise<void> {
  const id = await register(ctx, 'NOTE_UPDATED');
  try {
    const first = await ctx.fixtures.firstNote();
    const r = await ctx.mock!.call<{ data?: Record<string, unknown> }>('PATCH', `/notes/${String(first.id)}`, {
      content: `Edited by the conformance suite, run ${ctx.runId}.`,
    });
    const note = r.body?.data;
    if (r.status !== 200 || !note?.id)
      return ctx.skip(`PATCH /__mock/notes/${String(first.id)} answered ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    await noteEvent(ctx, 'NOTE_UPDATED', note);
  } finally {
    await unregister(ctx, id);
  }
}

export const checks: CheckDef[] = [
  check(webhook_payload_schema, {
    rule: 'EVT-007',
    payloadSchemas: ['#/components/schemas/DocumentStatusChangedEvent'],
    needs: { receiver: true, write: true },
    exclusive: true,
  }),
  check(received_delivery_is_post, { rule: 'EVT-032', needs: { receiver: true, write: true }, exclusive: true }),
  check(webhook_retries_identical_payload, {
    rule: 'EVT-037',
    covers: ['EVT-036'],
    needs: { receiver: true, write: true },
    exclusive: true,
  }),
  check(webhook_dedupe_triple_distinct, {
    rule: 'EVT-042',
    covers: ['EVT-008', 'EVT-009', 'EVT-010'],
    needs: { receiver: true, write: true, mock: true },
    exclusive: true,
  }),
  check(note_created_event, {
    rule: 'EVT-004',
    covers: ['EVT-003', 'EVT-016'],
    payloadSchemas: ['#/components/schemas/NoteEvent'],
    needs: { receiver: true, mock: true },
    exclusive: true,
  }),
  check(note_updated_event, {
    rule: 'EVT-006',
    payloadSchemas: ['#/components/schemas/NoteEvent'],
    needs: { receiver: true, mock: true },
    exclusive: true,
  }),
];
