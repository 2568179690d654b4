// Helpers for regeneration: sessions to regenerate, sending the request, watching the session's note change, and
// how long a regeneration may take (the document's minute, never the mock's own timing unless the run is --mock).
import type { CheckContext } from '../../run/model.ts';
import type { Exchange } from '../../../judge/define.ts';
import { timeScale, waitMs } from '../../run/durations.ts';
import { type Obj, listOf, objOf, got, is2xx } from './common.ts';

export interface RegenTarget {
  sessionId: string;
  noteId: string;
  templateId?: string;
}

/**
 * Sessions a watching check may regenerate: ready (the mock's session list), exactly one note (so "the session's
 * note" is that note), and not the session of the first listed note (the other regeneration checks use that one).
 */
export async function regenTarget(ctx: CheckContext, index: number, count = 1): Promise<RegenTarget[]> {
  const first = await ctx.fixtures.firstNote();
  const ex = await ctx.send({ method: 'GET', path: '/notes', key: ctx.keys.main, query: { limit: 100 } });
  const sessions = await ctx.mock!.sessions();
  const ready = new Set(sessions.filter((s) => s.ready && (!ctx.keys.mainOrg || s.organization_id === ctx.keys.mainOrg)).map((s) => s.id));
  const bySession = new Map<string, Obj[]>();
  for (const n of listOf(ex)) bySession.set(String(n.session_id), [...(bySession.get(String(n.session_id)) ?? []), n]);
  const targets = [...bySession.entries()]
    .filter(([sid, notes]) => notes.length === 1 && ready.has(sid) && sid !== first.session_id)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([sessionId, [n]]) => ({
      sessionId,
      noteId: String(n!.id),
      templateId: typeof n!.template_id === 'string' ? n!.template_id : undefined,
    }));
  if (targets.length < count)
    return ctx.skip(
      `the organization has ${targets.length} ready session(s) with exactly one note besides the first note's session; ${count} needed`,
    );
  return Array.from({ length: count }, (_, i) => targets[(index + i) % targets.length]!);
}

/**
 * Sends a regenerate request. `awaited`: the caller watches for the run to land; any other 2xx on the user's session
 * (--regenerable-session, which every check shares) is noted, so a watching check first waits it out (settle).
 */
export async function regenerate(
  ctx: CheckContext,
  sessionId: string,
  opts: { json?: unknown; idempotencyKey?: string; bodyText?: string; awaited?: boolean } = {},
): Promise<Exchange> {
  const ex = await ctx.send({
    method: 'POST',
    path: `/sessions/${sessionId}/notes/regenerate`,
    key: ctx.keys.main,
    ...(opts.json !== undefined ? { json: opts.json } : {}),
    ...(opts.bodyText !== undefined ? { bodyText: opts.bodyText } : {}),
    ...(opts.idempotencyKey ? { headers: { 'Idempotency-Key': opts.idempotencyKey } } : {}),
  });
  if (is2xx(ex) && !opts.awaited) await notLanded(ctx, sessionId);
  return ex;
}

/** When the latest regeneration of the user's session that no check saw land was queued (performance.now()). */
const unawaited = (ctx: CheckContext) => ctx.fixtures.shared('regen-unawaited', async () => new Map<string, number>());

/** A regeneration of `sessionId` may still land (queued by a request no check watched, or watched in vain). */
export async function notLanded(ctx: CheckContext, sessionId: string): Promise<void> {
  if (sessionId === ctx.keys.sessions?.regenerable) (await unawaited(ctx)).set(sessionId, performance.now());
}

/**
 * Waits until a regeneration of the session noted by notLanded has had its documented time to land, so it cannot
 * be taken for the watching check's own. Nothing to wait for unless a check saw a 2xx it did not watch (a 400 case
 * the target accepted) or a watch ran out.
 */
export async function settle(ctx: CheckContext, sessionId: string): Promise<void> {
  const at = (await unawaited(ctx)).get(sessionId);
  const left = at === undefined ? 0 : at + regenerationWaitMs(ctx) - performance.now();
  if (left > 0) await ctx.sleep(left);
}

/** A regeneration queued for `sessionId`: any 2xx with the queued body (the 202 itself is REGEN-008's to judge). */
export const accepted = (ex: Exchange, sessionId: string) =>
  is2xx(ex) && objOf(ex).session_id === sessionId && objOf(ex).status === 'queued';

function readNote(ctx: CheckContext, noteId: string): Promise<Exchange> {
  return ctx.send({ method: 'GET', path: `/notes/${noteId}`, key: ctx.keys.main, query: { include: '' } });
}

export interface Watch {
  moved: boolean;
  /** performance.now() when the request was sent. */
  since: number;
  /** ms from `since` to the read that saw the change (or to the end of the wait). */
  ms: number;
  note: Obj;
  exchange: Exchange;
}

/** Reads the note until its updated_at differs from `before`, for at most `maxMs` from `since` (performance.now()). */
export async function watchNote(ctx: CheckContext, noteId: string, before: unknown, since: number, maxMs: number): Promise<Watch> {
  for (let wait = 20; ; wait = Math.min(wait * 1.5, 250)) {
    const exchange = await readNote(ctx, noteId);
    const note = objOf(exchange);
    const ms = performance.now() - since;
    if (exchange.response.status === 200 && typeof note.updated_at === 'string' && note.updated_at !== before)
      return { moved: true, since, ms, note, exchange };
    if (ms >= maxMs) return { moved: false, since, ms, note, exchange };
    await ctx.sleep(Math.max(1, Math.min(wait, maxMs - ms)));
  }
}

/** The note as it is now (status 200 or the check fails). */
export async function noteNow(ctx: CheckContext, noteId: string): Promise<Obj | undefined> {
  const ex = await readNote(ctx, noteId);
  return ctx.expect(ex.response.status === 200 && typeof objOf(ex).updated_at === 'string', {
    expected: `200 { data: note ${noteId} with updated_at }`,
    actual: got(ex),
    exchange: ex,
    says: ['| GET | /notes/{noteId} | notes:read |', '{data: Note detail}', 'updated_at (ISO 8601)'],
  })
    ? objOf(ex)
    : undefined;
}

/**
 * How long one regeneration may take to be seen: "Typical duration is under a minute", plus the margin of
 * durations.ts; scaled only on the mock, which says its time scale (CheckDef.waits gives a check that budget).
 */
export const regenerationWaitMs = (ctx: CheckContext) => waitMs('regeneration', timeScale(ctx.mock));

/**
 * Regenerates and waits until the note moves: the reference run of a watching check. Skipped (not passed) when the
 * run is not seen within the budget, since nothing can then be told about what follows.
 */
export async function regenerateAndWait(
  ctx: CheckContext,
  t: RegenTarget,
  opts: { json?: unknown; idempotencyKey?: string },
  label: string,
): Promise<Watch | undefined> {
  const before = await noteNow(ctx, t.noteId);
  if (!before) return undefined;
  const since = performance.now();
  const ex = await regenerate(ctx, t.sessionId, { ...opts, awaited: true });
  if (
    !ctx.expect(accepted(ex, t.sessionId), {
      expected: `2xx { data: { session_id: "${t.sessionId}", status: "queued" } } for ${label}`,
      actual: got(ex),
      exchange: ex,
      says: "{data: {session_id: <string>, status: 'queued'}, message: <string>}",
    })
  )
    return undefined;
  const w = await watchNote(ctx, t.noteId, before.updated_at, since, regenerationWaitMs(ctx));
  ctx.timings.observe({
    wait: 'regeneration',
    check: ctx.name,
    subject: `session ${t.sessionId}`,
    ms: w.ms,
    ended: w.moved,
    limitMs: regenerationWaitMs(ctx),
  });
  if (!w.moved)
    return ctx.skip(
      `the regeneration of session ${t.sessionId} (${label}) was not seen within ${regenerationWaitMs(ctx) / 1000} s (a minute and the margin)`,
    );
  return w;
}

/** Waits long enough for a second run to show (three times the reference run, at least 300 ms, at most one regeneration's wait). */
export const quietMs = (ctx: CheckContext, reference: { ms: number }) => Math.min(regenerationWaitMs(ctx), Math.max(300, 3 * reference.ms));

/** Waits `ms` from `since`, then reads the note once: did its updated_at move from `before` meanwhile? */
export async function stillNote(ctx: CheckContext, noteId: string, before: unknown, since: number, ms: number): Promise<Watch> {
  await ctx.sleep(Math.max(0, since + ms - performance.now()));
  const exchange = await readNote(ctx, noteId);
  const note = objOf(exchange);
  return { moved: note.updated_at !== before, since, ms: performance.now() - since, note, exchange };
}

export const notesPage = (ctx: CheckContext, query: Record<string, string | number>) =>
  ctx.send({ method: 'GET', path: '/notes', key: ctx.keys.main, query: { limit: 100, ...query } });

/** The Idempotency-Key header's schema, from the spec. */
export function idempotencySchema(ctx: CheckContext): { minLength?: number; maxLength?: number } {
  const op = ctx.contract.byId('regenerateSessionNote');
  const p = op.parameters.find((x) => x.in === 'header' && String(x.name).toLowerCase() === 'idempotency-key');
  return (ctx.contract.deref(p?.schema) ?? {}) as { minLength?: number; maxLength?: number };
}
