// Webhooks, when a receiver is in use: payloads valid against the spec's `webhooks` schemas, retries of 5xx with
// identical payloads and growing gaps, and a dedupe triple (event + resource id + timestamp) that tells a
// document's `failed` and `completed` events apart. With --mock the suite registers its own loopback receiver.
import type { CheckContext, CheckDef } from '../model.ts';
import type { Delivery } from '../receiver.ts';
import { objOf, uploadDocument, followDocument } from './util.ts';

const WAIT_MS = 90_000;

async function register(ctx: CheckContext, event: string): Promise<string | undefined> {
  if (!ctx.mock) return undefined; // against a deployment the user registered the webhook in the web application
  const url = `http://127.0.0.1:${ctx.receiver!.port}/hooks/${ctx.runId}`;
  const r = await ctx.mock.call<{ data?: { id?: string }; error?: string }>('POST', '/webhooks', {
    name: `${ctx.prefix}${event}`, url, event, ...(ctx.keys.mainOrg ? { organization_id: ctx.keys.mainOrg } : {}),
  });
  if (r.status >= 300) ctx.skip(`the mock refused a loopback webhook (${r.status} ${JSON.stringify(r.body)}); start it with --allow-private-webhooks`);
  return r.body.data?.id;
}

async function unregister(ctx: CheckContext, id: string | undefined) {
  if (ctx.mock && id) await ctx.mock.call('DELETE', `/webhooks/${id}`).catch(() => undefined);
}

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
  if (!arrived && !ctx.mock) ctx.skip(`no DOCUMENT_STATUS_CHANGED delivery for document ${docId} within ${WAIT_MS / 1000} s: is a webhook registered for it to the public receiver URL?`);
  return { docId, deliveries: ctx.receiver!.deliveries.filter(forDoc(docId)) };
}

export const webhookChecks: CheckDef[] = [
  {
    name: 'webhook_payload_schema',
    area: 'webhooks',
    rule: 'EVT-007',
    needs: { receiver: true, write: true },
    exclusive: true,
    async run(ctx) {
      const id = await register(ctx, 'DOCUMENT_STATUS_CHANGED');
      try {
        const { docId, deliveries } = await documentEvents(ctx, 1, false);
        ctx.expect(deliveries.length >= 1, { expected: `a DOCUMENT_STATUS_CHANGED delivery for ${docId}`, actual: 'none' });
        for (const d of deliveries) {
          const errors = ctx.schemas.validate('#/components/schemas/DocumentStatusChangedEvent', d.json);
          ctx.expect(!errors.length, { expected: 'payload valid against DocumentStatusChangedEvent', actual: `${errors.join('; ')} in ${d.body.slice(0, 300)}` });
        }
      } finally {
        await unregister(ctx, id);
      }
    },
  },
  {
    name: 'webhook_retries_identical_payload',
    area: 'webhooks',
    rule: 'EVT-037',
    needs: { receiver: true, write: true },
    exclusive: true,
    async run(ctx) {
      const id = await register(ctx, 'DOCUMENT_STATUS_CHANGED');
      try {
        ctx.receiver!.answerNext([500, 500]);
        const { deliveries } = await documentEvents(ctx, 3, false);
        ctx.expect(deliveries.length === 3, { expected: '3 attempts after 500, 500 (then 200)', actual: `${deliveries.length} attempts` });
        ctx.expect(new Set(deliveries.map((d) => d.body)).size === 1, { expected: 'every retry carries the identical payload', actual: deliveries.map((d) => d.body).join('\n') });
        const gaps = deliveries.slice(1).map((d, i) => d.at - deliveries[i]!.at);
        if (gaps.length === 2)
          ctx.expect(gaps[1]! >= gaps[0]! * 0.8, { expected: 'backoff that grows (1 s then 2 s, scaled by the mock)', actual: `gaps ${gaps.map((g) => g.toFixed(0)).join(' ms, ')} ms` });
      } finally {
        ctx.receiver!.answerNext([]);
        await unregister(ctx, id);
      }
    },
  },
  {
    name: 'webhook_dedupe_triple_distinct',
    area: 'webhooks',
    rule: 'EVT-042',
    needs: { receiver: true, write: true, mock: true },
    exclusive: true,
    async run(ctx) {
      const id = await register(ctx, 'DOCUMENT_STATUS_CHANGED');
      try {
        const { deliveries } = await documentEvents(ctx, 2, true);
        const payloads = deliveries.map((d) => d.json as Record<string, unknown>);
        ctx.expect(payloads.map((p) => p.status).join() === 'failed,completed', { expected: 'failed then completed for one document', actual: payloads.map((p) => String(p.status)).join(', ') });
        const triples = new Set(payloads.map((p) => `${String(p.event)}|${String(p.document_id)}|${String(p.timestamp)}`));
        ctx.expect(triples.size === payloads.length, { expected: 'distinct event + resource id + timestamp triples', actual: [...triples].join(', ') });
      } finally {
        await unregister(ctx, id);
      }
    },
  },
];
