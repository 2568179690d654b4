// Which session a regeneration check may use. The suite regenerates only a session the user named
// (--regenerable-session) or, with --mock, the mock's own data: no API route lists sessions, and a 202 rewrites a
// note someone may be reading.
import type { CheckContext } from '../../run/model.ts';
import type { Exchange } from '../../../judge/define.ts';
import { regenTarget, regenerate, settle } from './regeneration.ts';

const REGENERABLE = '--regenerable-session <id> (a ready session with notes the suite may regenerate), or --mock';
const NOT_READY = '--not-ready-session <id> (a session not ready for regeneration), or --mock';

/** The session a check regenerates without watching it land: the user's, else with --mock the first listed note's. */
export async function regenerableSession(ctx: CheckContext): Promise<string> {
  const given = ctx.keys.sessions?.regenerable;
  if (given) return given;
  if (ctx.mock) return String((await ctx.fixtures.firstNote()).session_id);
  return ctx.skip(`needs ${REGENERABLE}`);
}

/**
 * The session a watching check regenerates: the user's, once a regeneration another check queued there has had its
 * time to land; else with --mock a ready one-note session that the parallel checks leave alone (regenTarget).
 */
export async function watchedSession(ctx: CheckContext, index = 0): Promise<string> {
  const given = ctx.keys.sessions?.regenerable;
  if (given) {
    await settle(ctx, given);
    return given;
  }
  if (ctx.mock) return (await regenTarget(ctx, index))[0]!.sessionId;
  return ctx.skip(`needs ${REGENERABLE}`);
}

/** A session not ready for regeneration, and how the check came by it: the user's, else the mock's control API. */
export async function notReadySession(ctx: CheckContext): Promise<{ id: string; about: string }> {
  const given = ctx.keys.sessions?.notReady;
  if (given) return { id: given, about: `session ${given} (--not-ready-session)` };
  if (!ctx.mock) return ctx.skip(`needs ${NOT_READY}`);
  // A session that is not ready has no note, so no API route lists it: the mock's control API does.
  const s = (await ctx.mock.sessions()).find((x) => x.organization_id === ctx.keys.mainOrg && !x.ready);
  if (!s) return ctx.skip('the mock lists no session of this organization that is not ready for regeneration');
  return { id: s.id, about: `session ${s.id} (transcript ${s.transcript_status}, ${s.has_note ? 'has a note' : 'no note'})` };
}

const INVALID_REGENERATE: Array<[string, { json?: unknown; bodyText?: string }]> = [
  ['model "turbo" (not a tier)', { json: { model: 'turbo' } }],
  ['template_id "not-a-uuid"', { json: { template_id: 'not-a-uuid' } }],
  ['a malformed JSON body', { bodyText: '{"model": ' }],
  ['a JSON array body', { json: [{ model: 'fast' }] }],
];

/**
 * The invalid regenerate requests, sent once per run (shared by REGEN-009 and REGEN-020) to a ready session, so that
 * only the body can be what is wrong: the user's --regenerable-session, or with --mock the first note's.
 */
export function invalidRegenerations(ctx: CheckContext): Promise<Array<[string, Exchange]>> {
  return ctx.fixtures.shared('invalid-regenerations', async () => {
    const session = await regenerableSession(ctx);
    const out: Array<[string, Exchange]> = [];
    for (const [label, opts] of INVALID_REGENERATE) out.push([label, await regenerate(ctx, session, opts)]);
    return out;
  });
}
