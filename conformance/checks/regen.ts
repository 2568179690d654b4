// REGEN: note regeneration. 202 queued, Idempotency-Key, body fields, error statuses, timing and events.
import { randomBytes, randomUUID } from 'node:crypto';
import type { CheckContext, CheckDef } from '../model.ts';
import type { RequestSpec } from '../http.ts';
import type { Delivery } from '../receiver.ts';
import {
  regenerate,
  regenTarget,
  regenerateAndWait,
  accepted,
  notesPage,
  watchNote,
  notLanded,
  regenerationWaitMs,
  idempotencySchema,
} from './support/regeneration.ts';
import { regenerableSession, watchedSession, notReadySession, invalidRegenerations } from './support/regen-session.ts';
import { sessionNow, watchSession, stillSession, quietFor, describeChange, waitedFor, regenerateWithKey } from './support/session-watch.ts';
import { got, listOf, body, type Obj, is4xx, objOf, json, is2xx, readableError } from './support/common.ts';
import { register, unregister } from './support/webhook-probe.ts';
import { mockSession, pathIdForm, UUID, keyWithout } from './support/operations.ts';
import { check } from './support/define.ts';

export async function idempotency_key_still_deduplicated(ctx: CheckContext): Promise<void> {
  const session = await watchedSession(ctx, 0);
  const key = `${ctx.prefix}window-${randomBytes(4).toString('hex')}`;
  const first = await regenerateWithKey(ctx, session, key);
  if (!first) return;
  // The key outlives its regeneration: repeated once that run is done (and as long again, up to 5 s), it starts nothing.
  await ctx.sleep(Math.min(5000, first.watch.ms));
  const since = performance.now();
  const again = await first.send();
  ctx.expect(is2xx(again), { expected: `2xx for the repeat with Idempotency-Key ${key}`, actual: got(again), exchange: again });
  const quiet = await stillSession(ctx, session, first.watch.state.sig, since, quietFor(ctx, first.watch.ms));
  ctx.expect(!quiet.moved, {
    expected: `no second regeneration of session ${session} for the same Idempotency-Key repeated ${Math.round(since - first.since)} ms after the first, whose run had landed (deduplicated for at least one hour; watched ${Math.round(quiet.ms)} ms)`,
    actual: describeChange(quiet),
    exchange: quiet.state.exchange,
  });
}

export async function regenerate_body_optional(ctx: CheckContext): Promise<void> {
  const note = await ctx.fixtures.firstNote();
  const session = String(note.session_id);
  for (const [label, opts] of [
    ['no body at all', {}],
    ['an empty JSON object', { json: {} }],
    ['a JSON body with model', { json: { model: 'fast' } }],
  ] as const) {
    const ex = await regenerate(ctx, session, opts);
    ctx.expect(accepted(ex, session), {
      expected: `2xx { data: { session_id: "${session}", status: "queued" } } with ${label}`,
      actual: got(ex),
      exchange: ex,
    });
  }
}

export async function regenerate_template_id(ctx: CheckContext): Promise<void> {
  const [t] = await regenTarget(ctx, 3);
  if (!t!.templateId) return ctx.skip(`note ${t!.noteId} names no template`);
  const other = [
    ...new Set(
      listOf(await notesPage(ctx, {}))
        .map((n) => n.template_id)
        .filter((x): x is string => typeof x === 'string'),
    ),
  ].find((x) => x !== t!.templateId);
  if (!other) return ctx.skip('the organization lists notes of one template only: no other template to regenerate with');
  // Without template_id: the session's current template (its one note's).
  const dflt = await regenerateAndWait(ctx, t!, { json: { model: 'fast' } }, 'no template_id');
  if (!dflt) return;
  ctx.expect(dflt.note.template_id === t!.templateId, {
    expected: `template_id ${t!.templateId} (the session's) after a regeneration without template_id`,
    actual: got(dflt.exchange),
    exchange: dflt.exchange,
  });
  // With template_id: that template; then back to the original one (the mock's data as it was).
  let last = dflt.note.updated_at;
  for (const template of [other, t!.templateId]) {
    const since = performance.now();
    const ex = await regenerate(ctx, t!.sessionId, { json: { template_id: template, model: 'fast' } });
    if (!ctx.expect(accepted(ex, t!.sessionId), { expected: `2xx queued for template_id ${template}`, actual: got(ex), exchange: ex }))
      return;
    const w = await watchNote(ctx, t!.noteId, last, since, Math.min(ctx.timeoutMs, Math.max(1000, 10 * dflt.ms)));
    ctx.expect(w.moved && w.note.template_id === template, {
      expected: `note ${t!.noteId} regenerated with template_id ${template}`,
      actual: w.moved ? got(w.exchange) : `not regenerated within ${Math.round(w.ms)} ms`,
      exchange: w.exchange,
    });
    if (!w.moved) return;
    last = w.note.updated_at;
  }
}

export async function regenerate_model_tiers(ctx: CheckContext): Promise<void> {
  const note = await ctx.fixtures.firstNote();
  const session = String(note.session_id);
  for (const model of ['fast', 'balanced', 'detailed', undefined]) {
    const ex = await regenerate(ctx, session, { json: model ? { model } : {} });
    ctx.expect(accepted(ex, session), {
      expected: `2xx queued for ${model ? `model ${model}` : 'no model (the standard tier)'}`,
      actual: got(ex),
      exchange: ex,
    });
  }
  const bad = await regenerate(ctx, session, { json: { model: 'turbo' } });
  ctx.expect(bad.response.status === 400, {
    expected: '400 for model "turbo" (not one of fast, balanced, detailed)',
    actual: got(bad),
    exchange: bad,
  });
}

export async function regenerate_invalid_400(ctx: CheckContext): Promise<void> {
  // The body's { error } is error_body_shape's (GEN-005): the status is this rule.
  for (const [label, ex] of await invalidRegenerations(ctx))
    ctx.expect(ex.response.status === 400, {
      expected: `400 for ${label}`,
      actual: got(ex),
      exchange: ex,
    });
}

export async function regeneration_under_a_minute(ctx: CheckContext): Promise<void> {
  const session = await watchedSession(ctx, 0);
  const before = await sessionNow(ctx, session);
  // "Typical duration is under a minute": one run is judged against the minute and the margin, not the minute alone.
  const limit = regenerationWaitMs(ctx);
  const since = performance.now();
  const ex = await regenerate(ctx, session, { json: {}, awaited: true });
  if (
    !ctx.expect(accepted(ex, session), { expected: '2xx queued for a regeneration with the default tier', actual: got(ex), exchange: ex })
  )
    return;
  const w = await watchSession(ctx, session, before.sig, since, limit);
  if (!w.moved) await notLanded(ctx, session);
  if (
    !ctx.expect(w.moved, {
      expected: `the regenerated note within ${waitedFor(ctx)}`,
      actual: `the notes of session ${session} unchanged after ${Math.round(w.ms / 1000)} s`,
      exchange: w.state.exchange,
    })
  )
    return;
  // The service's own clock: the changed note's updated_at against the Date of the 202 (whole seconds).
  const queued = Date.parse(ex.response.headers.date ?? '');
  const done = Date.parse(String(w.changed?.updated_at));
  if (!Number.isNaN(queued) && !Number.isNaN(done))
    ctx.expect(done - queued < limit + 1000, {
      expected: `updated_at within ${waitedFor(ctx)} of the 202 (Date: ${ex.response.headers.date})`,
      actual: `updated_at ${String(w.changed?.updated_at)}, ${Math.round((done - queued) / 1000)} s later`,
      exchange: w.state.exchange,
    });
}

export async function regeneration_sends_note_regenerated(ctx: CheckContext): Promise<void> {
  const [t] = await regenTarget(ctx, 1);
  const hook = await register(ctx, 'NOTE_REGENERATED');
  try {
    const from = ctx.receiver!.deliveries.length;
    const ex = await regenerate(ctx, t!.sessionId, { json: { model: 'fast' } });
    if (!ctx.expect(accepted(ex, t!.sessionId), { expected: '2xx queued', actual: got(ex), exchange: ex })) return;
    const mine = (d: Delivery) => {
      const j = d.json as Obj | undefined;
      return j?.session_id === t!.sessionId || j?.note_id === t!.noteId;
    };
    const wait = Math.min(ctx.timeoutMs, 20_000);
    await ctx.receiver!.waitFor((ds) => ds.slice(from).some(mine), wait);
    const d = ctx.receiver!.deliveries.slice(from).find(mine);
    if (
      !ctx.expect(!!d, { expected: `a delivery for the regeneration of session ${t!.sessionId}`, actual: `none within ${wait / 1000} s` })
    )
      return;
    const j = d!.json as Obj;
    ctx.expect(j.event === 'NOTE_REGENERATED' && j.note_id === t!.noteId && j.session_id === t!.sessionId, {
      expected: `NOTE_REGENERATED for note ${t!.noteId} of session ${t!.sessionId}`,
      actual: d!.body.slice(0, 300),
    });
    const errors = ctx.schemas.validate('#/components/schemas/NoteEvent', j);
    ctx.expect(!errors.length, { expected: 'payload valid against NoteEvent', actual: `${errors.join('; ')} in ${d!.body.slice(0, 300)}` });
  } finally {
    await unregister(ctx, hook);
  }
}

export async function regenerate_default_tier_balanced(ctx: CheckContext): Promise<void> {
  const [t] = await regenTarget(ctx, 2);
  // The note a tier writes, run numbers masked: the default run must write what an explicit balanced run does.
  const written = new Map<string, string>();
  for (const model of ['default', 'balanced', 'fast', 'detailed']) {
    const w = await regenerateAndWait(
      ctx,
      t!,
      { json: model === 'default' ? {} : { model } },
      model === 'default' ? 'no model' : `model ${model}`,
    );
    if (!w) return;
    written.set(model, String(w.note.content).replace(/\d+/g, '#'));
  }
  const of = (m: string) => written.get(m);
  if (of('balanced') === of('fast') && of('balanced') === of('detailed'))
    return ctx.skip('every tier writes the same note here: the default tier cannot be told apart');
  const like = ['balanced', 'fast', 'detailed'].filter((m) => of(m) === of('default'));
  ctx.expect(of('default') === of('balanced'), {
    expected: 'a regeneration without model writes the note an explicit model balanced writes (run numbers aside)',
    actual: like.length ? `it writes what ${like.join(', ')} writes` : `it writes a note of its own: ${json(of('default')).slice(0, 200)}`,
  });
}

export async function regenerate_400_body_shape(ctx: CheckContext): Promise<void> {
  for (const [label, ex] of await invalidRegenerations(ctx)) {
    const b = body(ex);
    const keys = Object.keys(b);
    const details = b.details;
    const detailsOk =
      details === undefined ||
      (!!details &&
        typeof details === 'object' &&
        !Array.isArray(details) &&
        Object.values(details as Obj).every((v) => typeof v === 'string'));
    ctx.expect(
      ex.response.status === 400 &&
        (!readableError(ex) || (typeof b.error === 'string' && keys.every((k) => k === 'error' || k === 'details') && detailsOk)),
      {
        expected: `400 { error } or { error, details: { field: message } } for ${label}, nothing else`,
        actual: got(ex),
        exchange: ex,
      },
    );
  }
}

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
      });
    }
  // Required: an empty sessionId segment is no regenerate request.
  const none = await ctx.send({ method: 'POST', path: path(''), key: ctx.keys.main, json: {} });
  ctx.expect(is4xx(none), { expected: 'a 4xx for POST /sessions//notes/regenerate (no sessionId)', actual: got(none), exchange: none });
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
    });
  }
  await ctx.mock!.fault({ kind: 'rate-limited', count: 1 });
  const limited = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, acceptRateLimited: true });
  ctx.expect(limited.response.status === 429, {
    expected: '429 { error } for POST /sessions/{sessionId}/notes/regenerate when rate limited',
    actual: got(limited),
    exchange: limited,
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
  });
  if (!is2xx(ex)) return;
  // The regenerated note shows up on the session notes endpoint: one of its notes rewritten, or one added.
  const w = await watchSession(ctx, session, before.sig, since, regenerationWaitMs(ctx));
  if (!w.moved) await notLanded(ctx, session);
  ctx.expect(w.moved, {
    expected: `the regenerated note available from the session notes endpoint within ${waitedFor(ctx)}`,
    actual: `the notes of session ${session} unchanged after ${Math.round(w.ms / 1000)} s: ${got(w.state.exchange)}`,
    exchange: w.state.exchange,
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
    });
  const quiet = await stillSession(ctx, session, first.watch.state.sig, after, quietFor(ctx, first.watch.ms));
  ctx.expect(!quiet.moved, {
    expected: `one regeneration of session ${session} for three requests with Idempotency-Key ${key} (the first landed after ${Math.round(first.watch.ms)} ms; watched ${Math.round(quiet.ms)} ms after the last repeat)`,
    actual: `a second run: ${describeChange(quiet)}`,
    exchange: quiet.state.exchange,
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
    });
  }
  if (maxLength !== undefined) {
    const longest = `${ctx.prefix}`.padEnd(maxLength, 'k');
    const ok = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, headers: { 'Idempotency-Key': longest } });
    ctx.expect(is2xx(ok), { expected: `2xx for an Idempotency-Key of exactly ${maxLength} characters`, actual: got(ok), exchange: ok });
  }
}

export async function regenerate_session_not_ready(ctx: CheckContext): Promise<void> {
  const session = await notReadySession(ctx);
  const ex = await ctx.send({ method: 'POST', path: `/sessions/${session.id}/notes/regenerate`, key: ctx.keys.main, json: {} });
  ctx.expect(ex.response.status === 409, {
    expected: `409 for ${session.about}, not ready for regeneration`,
    actual: got(ex),
    exchange: ex,
  });
}

export async function regenerate_unknown_session(ctx: CheckContext): Promise<void> {
  const ex = await ctx.send({ method: 'POST', path: `/sessions/${crypto.randomUUID()}/notes/regenerate`, key: ctx.keys.main, json: {} });
  ctx.expect(ex.response.status === 404, { expected: '404 for a session the organization does not own', actual: got(ex), exchange: ex });
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
  });
}

// Checks that regenerate run on a session the user named (--regenerable-session, --not-ready-session) or, with --mock,
// on the mock's; the rest need the mock's faults, sessions or webhooks. A check that watches a run land runs alone
// (exclusive) and waits the document's durations (waits), each watch one regeneration.
export const checks: CheckDef[] = [
  check(idempotency_key_still_deduplicated, {
    rule: 'REGEN-004',
    needs: { write: true },
    exclusive: true,
    waits: ['regeneration', 'regeneration'],
  }),
  check(regenerate_body_optional, { rule: 'REGEN-005', needs: { mock: true, write: true } }),
  check(regenerate_template_id, {
    rule: 'REGEN-006',
    needs: { mock: true, write: true },
    exclusive: true,
    waits: ['regeneration', 'regeneration', 'regeneration'],
  }),
  check(regenerate_model_tiers, { rule: 'REGEN-007', needs: { mock: true, write: true } }),
  check(regenerate_invalid_400, { rule: 'REGEN-009', needs: { write: true } }),
  check(regeneration_under_a_minute, { rule: 'REGEN-015', needs: { write: true }, exclusive: true, waits: ['regeneration'] }),
  check(regeneration_sends_note_regenerated, {
    rule: 'REGEN-016',
    payloadSchemas: ['#/components/schemas/NoteEvent'],
    needs: { mock: true, receiver: true, write: true },
    exclusive: true,
  }),
  check(regenerate_default_tier_balanced, {
    rule: 'REGEN-017',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    exclusive: true,
    waits: ['regeneration', 'regeneration', 'regeneration', 'regeneration'],
  }),
  check(regenerate_400_body_shape, { rule: 'REGEN-020', provenance: 'assumed', needs: { write: true } }),
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
