// What a regeneration changes, watched where the document says the regenerated note appears: the session notes
// endpoint. A run lands as a change of the session's notes (one rewritten, or one added), whichever the service does.
import { createHash } from 'node:crypto';
import type { CheckContext } from '../../run/model.ts';
import type { Exchange } from '../../../judge/define.ts';
import { idText } from '../../run/fixtures.ts';
import { type Obj, objOf, got } from './common.ts';
import { accepted, notLanded, regenerate, regenerationWaitMs } from './regeneration.ts';

/** The rule whose check judges GET /sessions/{sessionId}/notes (session_notes). */
const SESSION_NOTES_RULE = 'NOTE-021';

interface SessionNotes {
  /** Each note's noteSig, sorted; '' when the read gave no notes list. */
  sig: string;
  notes: Obj[];
  exchange: Exchange;
}

/** A note as id@updated_at#content: a run that rewrote the body but kept updated_at still shows. */
const noteSig = (n: Obj) =>
  `${idText(n.id) ?? String(n.id)}@${String(n.updated_at)}#${createHash('sha256').update(String(n.content)).digest('hex').slice(0, 12)}`;

async function readSession(ctx: CheckContext, sessionId: string): Promise<SessionNotes> {
  const exchange = await ctx.send({ method: 'GET', path: `/sessions/${sessionId}/notes`, key: ctx.keys.main });
  const list = objOf(exchange).notes;
  const notes = exchange.response.status === 200 && Array.isArray(list) ? (list as Obj[]) : [];
  return { sig: notes.map(noteSig).sort().join(' '), notes, exchange };
}

/** The session's notes before a regeneration: a setup step (blocked on NOTE-021's check when unreadable). */
export async function sessionNow(ctx: CheckContext, sessionId: string): Promise<SessionNotes> {
  const s = await readSession(ctx, sessionId);
  if (s.exchange.response.status !== 200 || !Array.isArray(objOf(s.exchange).notes))
    return ctx.block(`the notes of session ${sessionId} (GET /sessions/{sessionId}/notes answered ${got(s.exchange)})`, SESSION_NOTES_RULE);
  if (!s.notes.length)
    return ctx.skip(`session ${sessionId} has no notes: regeneration needs a ready session with notes (--regenerable-session)`);
  return s;
}

export interface SessionWatch {
  moved: boolean;
  /** ms from `since` to the read that saw the change (or to the end of the wait). */
  ms: number;
  state: SessionNotes;
  /** The note that is new or has a new updated_at, when moved. */
  changed?: Obj;
}

function watched(before: string, state: SessionNotes, ms: number): SessionWatch {
  const old = new Set(before.split(' '));
  const changed = state.notes.find((n) => !old.has(noteSig(n)));
  return { moved: state.sig !== '' && state.sig !== before, ms, state, changed };
}

/**
 * Reads the session's notes until they differ from `before`, for at most `maxMs` from `since` (performance.now()).
 * Reads thin out as the wait grows (a tenth of the time waited, 20 ms to 2 s): a minute costs tens of requests.
 */
export async function watchSession(
  ctx: CheckContext,
  sessionId: string,
  before: string,
  since: number,
  maxMs: number,
): Promise<SessionWatch> {
  for (;;) {
    const state = await readSession(ctx, sessionId);
    const ms = performance.now() - since;
    const w = watched(before, state, ms);
    if (w.moved || ms >= maxMs) return w;
    await ctx.sleep(Math.max(1, Math.min(maxMs - ms, Math.min(2000, Math.max(20, ms / 10)))));
  }
}

/** Waits `ms` from `since`, then reads once: did the session's notes change from `before` meanwhile? */
export async function stillSession(ctx: CheckContext, sessionId: string, before: string, since: number, ms: number): Promise<SessionWatch> {
  await ctx.sleep(Math.max(0, since + ms - performance.now()));
  const state = await readSession(ctx, sessionId);
  if (state.sig === '')
    return ctx.block(
      `the notes of session ${sessionId} (GET /sessions/{sessionId}/notes answered ${got(state.exchange)})`,
      SESSION_NOTES_RULE,
    );
  return watched(before, state, performance.now() - since);
}

/**
 * How long to watch for a second run after a repeat: one run ends about a reference run after it starts, so twice
 * that and half a second, at most one regeneration's documented wait.
 */
export const quietFor = (ctx: CheckContext, referenceMs: number) => Math.min(regenerationWaitMs(ctx), Math.max(300, 2 * referenceMs + 500));

/** What changed, for a failure: the note and its updated_at. */
export const describeChange = (w: SessionWatch) =>
  w.changed ? `note ${String(w.changed.id)} now has updated_at ${String(w.changed.updated_at)}` : `the notes now read ${w.state.sig}`;

/** "not seen within 70 s (a minute and the margin)" */
export const waitedFor = (ctx: CheckContext) => `${regenerationWaitMs(ctx) / 1000} s (the document's minute and the margin)`;

/**
 * Queues a regeneration of `session` with Idempotency-Key `key` and watches it land: the reference run of the
 * idempotency checks (skipped when it is not seen within the documented wait: nothing can be told of a repeat then).
 * `send` repeats the very same request; `retryWhileQueued` sends it once more right after the first answer.
 */
export async function regenerateWithKey(ctx: CheckContext, session: string, key: string, opts: { retryWhileQueued?: boolean } = {}) {
  const before = await sessionNow(ctx, session);
  const send = () => regenerate(ctx, session, { json: { model: 'fast' }, idempotencyKey: key, awaited: true });
  const since = performance.now();
  const ex = await send();
  if (
    !ctx.expect(accepted(ex, session), {
      expected: `2xx queued for session ${session} with Idempotency-Key ${key}`,
      actual: got(ex),
      exchange: ex,
      says: "{data: {session_id: <string>, status: 'queued'}, message: <string>}",
    })
  )
    return undefined;
  const retried = opts.retryWhileQueued ? await send() : undefined;
  return { ex, retried, send, since, watch: await landed(ctx, session, before.sig, since, `with Idempotency-Key ${key}`) };
}

/** Watches a regeneration of the session for the documented wait, and records what it took (the table of waits). */
export async function watchRegeneration(ctx: CheckContext, session: string, before: string, since: number): Promise<SessionWatch> {
  const w = await watchSession(ctx, session, before, since, regenerationWaitMs(ctx));
  ctx.timings.observe({
    wait: 'regeneration',
    check: ctx.name,
    subject: `session ${session}`,
    ms: w.ms,
    ended: w.moved,
    limitMs: regenerationWaitMs(ctx),
  });
  return w;
}

/** Watches the session until its notes change; skips the check when they do not within the documented wait. */
async function landed(ctx: CheckContext, session: string, before: string, since: number, label: string) {
  const w = await watchRegeneration(ctx, session, before, since);
  if (w.moved) return w;
  await notLanded(ctx, session);
  return ctx.skip(`the regeneration of session ${session} (${label}) was not seen within ${waitedFor(ctx)}`);
}
