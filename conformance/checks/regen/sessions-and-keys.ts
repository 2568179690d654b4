// REGEN: note regeneration, sessions, keys and statuses: the session id's form, auth errors, 202 queued, the
// Idempotency-Key and its bounds, a session not ready, unknown or unavailable.
import { randomBytes, randomUUID } from 'node:crypto';
import type { CheckContext, CheckDef } from '../../run/model.ts';
import type { RequestSpec } from '../../target/http.ts';
import { regenerate, notLanded, idempotencySchema } from '../support/regeneration.ts';
import { regenerableSession, watchedSession, notReadySession } from '../support/regen-session.ts';
import {
  sessionNow,
  watchRegeneration,
  stillSession,
  quietFor,
  describeChange,
  waitedFor,
  regenerateWithKey,
} from '../support/session-watch.ts';
import { got, body, is4xx, objOf, is2xx } from '../support/common.ts';
import { mockSession, pathIdForm, UUID, keyWithout } from '../support/operations.ts';
import { check } from '../support/define.ts';

export async function regenerate_session_id_uuid(ctx: CheckContext): Promise<void> {
  // A real session only with --mock (a 202 regenerates its note); elsewhere ids no session has.
  const real = await mockSession(ctx);
  const path = (id: string) => `/sessions/${id}/notes/regenerate`;
  if (real)
    await pathIdForm(ctx, { param: 'sessionId', form: UUID, formName: 'a UUID', id: real, requests: [{ method: 'POST', path, json: {} }] });
  else
    for (const bad of [`${randomUUID()}x`, 'not-a-uuid']) {
      const ex = await ctx.send({ method: 'POST', path: path(encodeURIComponent(bad)), key: ctx.keys.main, json: {} });
      ctx.expect(is4xx(ex), {
        expected: `a 4xx for POST /sessions/{sessionId}/notes/regenerate with sessionId ${JSON.stringify(bad)}, not a UUID`,
        actual: got(ex),
        exchange: ex,
        says: '| path | sessionId | string (UUID) | yes |',
      });
    }
  // Required: an empty sessionId segment is no regenerate request.
  const none = await ctx.send({ method: 'POST', path: path(''), key: ctx.keys.main, json: {} });
  ctx.expect(is4xx(none), {
    expected: 'a 4xx for POST /sessions//notes/regenerate (no sessionId)',
    actual: got(none),
    exchange: none,
    says: '| path | sessionId | string (UUID) | yes |',
  });
}

export async function regenerate_auth_errors(ctx: CheckContext): Promise<void> {
  // A session no one has: none of these requests can regenerate anything, whatever the answer.
  const path = `/sessions/${randomUUID()}/notes/regenerate`;
  const scopes = ctx.contract.byId('regenerateSessionNote').scopes;
  const cases: Array<[number, string, RequestSpec]> = [
    [401, 'without a key', { method: 'POST', path, json: {} }],
    [401, 'with an invalid key', { method: 'POST', path, rawKey: 'crc-not-a-valid-key-0000000000', json: {} }],
  ];
  const lacking = keyWithout(ctx, scopes);
  if (!lacking) return ctx.skip(`needs a --scoped-key without ${scopes.join(', ')}`);
  cases.push([
    403,
    `with a key of scopes [${lacking.scopes.join(', ')}] (needs ${scopes.join(', ')})`,
    { method: 'POST', path, key: lacking.key, json: {} },
  ]);
  for (const [status, why, spec] of cases) {
    const ex = await ctx.send(spec);
    ctx.expect(ex.response.status === status, {
      expected: `${status} for POST /sessions/{sessionId}/notes/regenerate ${why}`,
      actual: got(ex),
      exchange: ex,
      says: ['| 401 | unauthorized | {error} |', '| 403 | insufficient scope | {error} |'],
    });
  }
  await ctx.mock!.fault({ kind: 'rate-limited', count: 1 });
  const limited = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, acceptRateLimited: true });
  ctx.expect(limited.response.status === 429, {
    expected: '429 { error } for POST /sessions/{sessionId}/notes/regenerate when rate limited',
    actual: got(limited),
    exchange: limited,
    says: '| 429 | rate limit exceeded | {error} |',
  });
}

export async function regenerate_accepted(ctx: CheckContext): Promise<void> {
  const session = await regenerableSession(ctx);
  const before = await sessionNow(ctx, session);
  const since = performance.now();
  const ex = await regenerate(ctx, session, { json: {}, awaited: true });
  const d = objOf(ex);
  ctx.expect(ex.response.status === 202 && d.session_id === session && d.status === 'queued' && typeof body(ex).message === 'string', {
    expected: `202 { data: { session_id: "${session}", status: "queued" }, message }`,
    actual: got(ex),
    exchange: ex,
    says: "| 202 | regeneration queued | {data: {session_id: <string>, status: 'queued'}, message: <string>} |",
  });
  if (!is2xx(ex)) return;
  // The regenerated note shows up on the session notes endpoint: one of its notes rewritten, or one added.
  const w = await watchRegeneration(ctx, session, before.sig, since);
  if (!w.moved) await notLanded(ctx, session);
  ctx.expect(w.moved, {
    expected: `the regenerated note available from the session notes endpoint within ${waitedFor(ctx)}`,
    actual: `the notes of session ${session} unchanged after ${Math.round(w.ms / 1000)} s: ${got(w.state.exchange)}`,
    exchange: w.state.exchange,
    says: ['The regenerated note is then available from the session notes endpoint', 'Typical duration is under a minute.'],
  });
}

export async function regenerate_idempotency_key(ctx: CheckContext): Promise<void> {
  const session = await watchedSession(ctx, 0);
  const key = `${ctx.prefix}collapse-${randomBytes(4).toString('hex')}`;
  // Two retries of a request whose answer was lost: one while the run is queued, one once it has landed. Each
  // collapses onto the first run: accepted again (not refused), and no second run changes the session's notes.
  const first = await regenerateWithKey(ctx, session, key, { retryWhileQueued: true });
  if (!first) return;
  const done = await first.send();
  const after = performance.now();
  for (const [when, ex] of [
    ['while the first was queued', first.retried!],
    ['once the first had landed', done],
  ] as const)
    ctx.expect(is2xx(ex), {
      expected: `2xx for a repeat with Idempotency-Key ${key} ${when}, collapsed onto it`,
      actual: got(ex),
      exchange: ex,
      says: 'repeated requests with the same key for the same session collapse onto one regeneration',
    });
  const quiet = await stillSession(ctx, session, first.watch.state.sig, after, quietFor(ctx, first.watch.ms));
  ctx.expect(!quiet.moved, {
    expected: `one regeneration of session ${session} for three requests with Idempotency-Key ${key} (the first landed after ${Math.round(first.watch.ms)} ms; watched ${Math.round(quiet.ms)} ms after the last repeat)`,
    actual: `a second run: ${describeChange(quiet)}`,
    exchange: quiet.state.exchange,
    says: 'repeated requests with the same key for the same session collapse onto one regeneration',
  });
}

export async function regenerate_idempotent_repeat_same_body(ctx: CheckContext): Promise<void> {
  const note = await ctx.fixtures.firstNote();
  const key = `${ctx.prefix}same-body`;
  const path = `/sessions/${String(note.session_id)}/notes/regenerate`;
  const a = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, headers: { 'Idempotency-Key': key } });
  const b = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, headers: { 'Idempotency-Key': key } });
  ctx.expect(is2xx(a) && is2xx(b) && JSON.stringify(body(a)) === JSON.stringify(body(b)), {
    expected: 'the same 2xx body for a repeat with the same Idempotency-Key',
    actual: `${got(a)} then ${got(b)}`,
    exchange: b,
    says: 'kit: a repeat with the same Idempotency-Key answers the same 202 body (the answer to a repeat is not shown)',
  });
}

export async function idempotency_key_length_bounds(ctx: CheckContext): Promise<void> {
  const { minLength, maxLength } = idempotencySchema(ctx);
  if (minLength === undefined && maxLength === undefined) return ctx.skip('the spec bounds no Idempotency-Key length');
  const note = await ctx.fixtures.firstNote();
  const path = `/sessions/${String(note.session_id)}/notes/regenerate`;
  const tooShort = minLength !== undefined && minLength > 0 ? 'k'.repeat(minLength - 1) : undefined;
  const tooLong = maxLength !== undefined ? 'k'.repeat(maxLength + 1) : undefined;
  for (const [label, value] of [
    [`shorter than ${minLength}`, tooShort],
    [`longer than ${maxLength}`, tooLong],
  ] as const) {
    if (value === undefined) continue;
    const ex = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, headers: { 'Idempotency-Key': value } });
    ctx.expect(ex.response.status === 400, {
      expected: `400 for an Idempotency-Key ${label} characters`,
      actual: got(ex),
      exchange: ex,
      says: 'kit: an Idempotency-Key is 1 to 255 characters, another length is a 400 (bounds not shown)',
    });
  }
  if (maxLength !== undefined) {
    const longest = `${ctx.prefix}`.padEnd(maxLength, 'k');
    const ok = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, headers: { 'Idempotency-Key': longest } });
    ctx.expect(is2xx(ok), {
      expected: `2xx for an Idempotency-Key of exactly ${maxLength} characters`,
      actual: got(ok),
      exchange: ok,
      says: 'kit: an Idempotency-Key is 1 to 255 characters, another length is a 400 (bounds not shown)',
    });
  }
}

export async function regenerate_session_not_ready(ctx: CheckContext): Promise<void> {
  const session = await notReadySession(ctx);
  const ex = await ctx.send({ method: 'POST', path: `/sessions/${session.id}/notes/regenerate`, key: ctx.keys.main, json: {} });
  ctx.expect(ex.response.status === 409, {
    expected: `409 for ${session.about}, not ready for regeneration`,
    actual: got(ex),
    exchange: ex,
    says: '| 409 | session not ready for regeneration | {error} |',
  });
}

export async function regenerate_unknown_session(ctx: CheckContext): Promise<void> {
  const ex = await ctx.send({ method: 'POST', path: `/sessions/${crypto.randomUUID()}/notes/regenerate`, key: ctx.keys.main, json: {} });
  ctx.expect(ex.response.status === 404, {
    expected: '404 for a session the organization does not own',
    actual: got(ex),
    exchange: ex,
    says: '| 404 | session not found | {error} |',
  });
}

export async function regenerate_unavailable(ctx: CheckContext): Promise<void> {
  const note = await ctx.fixtures.firstNote();
  await ctx.mock!.fault({ kind: 'regeneration-unavailable', count: 1 });
  const ex = await ctx.send({
    method: 'POST',
    path: `/sessions/${String(note.session_id)}/notes/regenerate`,
    key: ctx.keys.main,
    json: {},
  });
  ctx.expect(ex.response.status === 503, {
    expected: '503 { error } when regeneration cannot be queued',
    actual: got(ex),
    exchange: ex,
    says: '| 503 | regeneration could not be queued | {error} |',
  });
}

export const checks: CheckDef[] = [
  check(regenerate_session_id_uuid, { rule: 'REGEN-002', needs: { write: true } }),
  check(regenerate_auth_errors, { rule: 'REGEN-010', needs: { mock: true, keys: ['scoped'], write: true }, exclusive: true }),
  check(regenerate_accepted, { rule: 'REGEN-008', covers: ['REGEN-001', 'REGEN-014'], needs: { write: true }, waits: ['regeneration'] }),
  check(regenerate_idempotency_key, {
    rule: 'REGEN-003',
    needs: { write: true },
    exclusive: true,
    waits: ['regeneration', 'regeneration'],
  }),
  check(regenerate_idempotent_repeat_same_body, { rule: 'REGEN-019', provenance: 'assumed', needs: { mock: true, write: true } }),
  check(idempotency_key_length_bounds, { rule: 'REGEN-018', provenance: 'assumed', needs: { mock: true, write: true } }),
  check(regenerate_session_not_ready, { rule: 'REGEN-012', covers: ['ERR-007'], needs: { write: true } }),
  // A POST, even to a session that does not exist: --read-only sends none.
  check(regenerate_unknown_session, { rule: 'REGEN-011', needs: { write: true } }),
  check(regenerate_unavailable, { rule: 'REGEN-013', covers: ['ERR-009'], needs: { mock: true, write: true } }),
];
