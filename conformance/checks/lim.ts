// LIM: limits. Page and limit defaults, upload limits, Idempotency-Key window per session, webhook delivery limits.
import { randomBytes } from 'node:crypto';
import type { CheckContext, CheckDef } from '../run/model.ts';
import type { Operation } from '../../spec/runtime/contract.ts';
import type { Exchange } from '../../judge/define.ts';
import { type Hit, gaps, backoffFits, BACKOFF_RANGE, ms, timingWithUnit, expectTimeouts } from './support/webhook-probe.ts';
import { expectLoggedBackoff, expectLoggedTimeouts, TIMER_LATENESS_MS } from './support/delivery-log.ts';
import { regenTarget, regenerateAndWait, noteNow, regenerate, accepted, watchNote, stillNote, quietMs } from './support/regeneration.ts';
import { got, limitUploads, uploadDocument, paginated, body, listOf, is2xx } from './support/common.ts';
import { check } from './support/define.ts';

const paramDefault = (ctx: CheckContext, op: Operation, name: string) => ctx.contract.paramDefault(op, name) as number | undefined;

/** Checks a delivery's gaps: 1 s then 2 s (the second about twice the first). */
function expectBackoff(ctx: CheckContext, label: string, hs: Hit[]): void {
  const g = gaps(hs);
  if (
    !ctx.expect(g.length === 2, {
      expected: `${label}: 3 attempts, so two backoff gaps (1 s then 2 s)`,
      actual: `${hs.length} attempt(s)`,
      says: 'Up to 3 attempts, with exponential backoff of 1 s then 2 s, capped at 5 s.',
    })
  )
    return;
  const ratio = g[1]! / g[0]!;
  ctx.expect(backoffFits(g[0]!, g[1]!), {
    expected: `${label}: exponential backoff, the second gap (2 s) about twice the first (1 s): ${BACKOFF_RANGE[0]}..${BACKOFF_RANGE[1]} ×, allowing ${TIMER_LATENESS_MS} ms of timer lateness`,
    actual: `gaps ${g.map(ms).join(' then ')} (× ${ratio.toFixed(2)})${g.some((x) => x < 0) ? '; a negative gap: the next attempt began before the sender let go of the previous one' : ''}`,
    says: 'exponential backoff of 1 s then 2 s',
  });
}

export async function idempotency_key_per_session(ctx: CheckContext): Promise<void> {
  const [a, b] = await regenTarget(ctx, 1, 2);
  const key = `${ctx.prefix}per-session-${randomBytes(4).toString('hex')}`;
  const onA = await regenerateAndWait(
    ctx,
    a!,
    { json: { model: 'fast' }, idempotencyKey: key },
    `Idempotency-Key ${key} on session ${a!.sessionId}`,
  );
  if (!onA) return;
  // The same key on another session starts that session's own regeneration...
  const beforeB = await noteNow(ctx, b!.noteId);
  if (!beforeB) return;
  const since = performance.now();
  const exB = await regenerate(ctx, b!.sessionId, { json: { model: 'fast' }, idempotencyKey: key });
  ctx.expect(accepted(exB, b!.sessionId), {
    expected: `2xx queued for session ${b!.sessionId} with the key already used on ${a!.sessionId}`,
    actual: got(exB),
    exchange: exB,
    says: [
      'Idempotency-Key deduplication window | at least one hour, per session',
      "{data: {session_id: <string>, status: 'queued'}, message: <string>}",
    ],
  });
  const wB = await watchNote(ctx, b!.noteId, beforeB.updated_at, since, Math.min(ctx.timeoutMs, Math.max(1000, 10 * onA.ms)));
  ctx.expect(wB.moved, {
    expected: `session ${b!.sessionId} regenerated (the key ${key} was used on session ${a!.sessionId} only)`,
    actual: `note ${b!.noteId} unchanged after ${Math.round(wB.ms)} ms`,
    exchange: wB.exchange,
    says: [
      'Idempotency-Key deduplication window | at least one hour, per session',
      'repeated requests with the same key for the same session collapse onto one regeneration',
    ],
  });
  // ...while on the first session the key still collapses onto the run it started.
  const sinceA = performance.now();
  const againA = await regenerate(ctx, a!.sessionId, { json: { model: 'fast' }, idempotencyKey: key });
  ctx.expect(is2xx(againA), {
    expected: `2xx for the repeat on session ${a!.sessionId}`,
    actual: got(againA),
    exchange: againA,
    says: 'meant for retries after a timeout or lost response',
  });
  const quiet = await stillNote(ctx, a!.noteId, onA.note.updated_at, sinceA, quietMs(ctx, onA));
  ctx.expect(!quiet.moved, {
    expected: `no second regeneration of session ${a!.sessionId} for its repeated key`,
    actual: `note ${a!.noteId} updated_at moved from ${String(onA.note.updated_at)} to ${String(quiet.note.updated_at)}`,
    exchange: quiet.exchange,
    says: ['repeated requests with the same key for the same session collapse onto one regeneration', 'deduplicated for at least one hour'],
  });
}

export async function upload_limits_refused(ctx: CheckContext): Promise<void> {
  const { refuseAbove, types, oversize, wrongType } = await limitUploads(ctx);
  const refused = (ex: Exchange) => ex.response.status >= 400 && ex.response.status < 500;
  if (oversize)
    ctx.expect(refused(oversize), {
      expected: `a 4xx refusal for a file of ${refuseAbove! + 1} bytes (past 10 MB under either reading, ${refuseAbove} the larger)`,
      actual: got(oversize),
      exchange: oversize,
      says: ['Upload accepts PDF, JPEG, PNG and DOCX files up to 10 MB.', '| Document upload size | 10 MB; types PDF, JPEG, PNG, DOCX |'],
    });
  ctx.expect(refused(wrongType), {
    expected: `a 4xx refusal for a text/plain file (accepted: ${types.join(', ')})`,
    actual: got(wrongType),
    exchange: wrongType,
    says: ['Upload accepts PDF, JPEG, PNG and DOCX files up to 10 MB.', '| Document upload size | 10 MB; types PDF, JPEG, PNG, DOCX |'],
  });
  // And the accepted kind at a small size goes through.
  const p = await ctx.fixtures.patient();
  const ok = await uploadDocument(ctx, String(p.id));
  ctx.expect(is2xx(ok), {
    expected: '2xx for a small PDF',
    actual: got(ok),
    exchange: ok,
    says: 'Upload accepts PDF, JPEG, PNG and DOCX files up to 10 MB.',
  });
}

export async function list_meta_defaults(ctx: CheckContext): Promise<void> {
  for (const op of paginated(ctx)) {
    const ex = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main });
    const meta = body(ex).meta as Record<string, unknown> | undefined;
    const page = paramDefault(ctx, op, 'page');
    const limit = paramDefault(ctx, op, 'limit');
    ctx.expect(!!meta && meta.page === page && meta.limit === limit && Number.isInteger(meta.total_pages), {
      expected: `meta { page: ${page}, limit: ${limit}, total_pages: <integer> } for GET ${op.template} without page/limit`,
      actual: got(ex),
      exchange: ex,
      says: ['| Default page / limit | 1 / 20 |', 'meta with page, limit, total_pages (integers)'],
    });
    ctx.expect(listOf(ex).length <= (limit ?? Infinity), {
      expected: `at most ${limit} items`,
      actual: `${listOf(ex).length}`,
      exchange: ex,
      says: '| Default page / limit | 1 / 20 |',
    });
  }
}

export async function webhook_delivery_limits(ctx: CheckContext): Promise<void> {
  // The worst case: a receiver that never answers. Each attempt times out (30 s), three attempts in all, 1 s then 2 s apart.
  const t = await timingWithUnit(ctx);
  const hs = t.held;
  ctx.expect(hs.length === 3, {
    expected: '3 attempts to a receiver that never answers (each one times out), then no more',
    actual: `${hs.length} attempt(s)`,
    says: ['| Webhook timeout / attempts | 30 s / 3 attempts', 'Delivery is at-least-once'],
  });
  // On the mock its log gives the timeouts and backoff in service time; the receiver's times must agree with it.
  if (t.logged) {
    const held = hs.slice(0, 3).map((h) => (h.end === undefined ? undefined : h.end - h.at));
    expectLoggedTimeouts(ctx, t.logged.held.slice(0, 3), held);
    if (hs.length >= 3) expectLoggedBackoff(ctx, 'the receiver that never answers', t.logged.held.slice(0, 3), gaps(hs.slice(0, 3)));
    return;
  }
  expectTimeouts(ctx, t, hs.slice(0, 3));
  if (hs.length >= 3) expectBackoff(ctx, 'the receiver that never answers', hs.slice(0, 3));
}

export const checks: CheckDef[] = [
  check(idempotency_key_per_session, { rule: 'LIM-006', needs: { mock: true, write: true }, exclusive: true }),
  check(upload_limits_refused, { rule: 'LIM-001', needs: { write: true } }),
  check(list_meta_defaults, { rule: 'LIM-005', covers: ['PAG-001', 'PAG-002'] }),
  check(webhook_delivery_limits, {
    rule: 'LIM-007',
    needs: { mock: true, write: true },
    exclusive: true,
    waits: ['extraction', 'delivery'],
  }),
];
