// REGEN: note regeneration, its request and its run: Idempotency-Key deduplication, the optional body, template_id and
// model, 400s, the run's duration, its NOTE_REGENERATED event, the default tier.
import { randomBytes } from 'node:crypto';
import type { CheckContext, CheckDef } from '../../run/model.ts';
import type { Delivery } from '../../target/receiver.ts';
import {
  regenerate,
  regenTarget,
  regenerateAndWait,
  accepted,
  notesPage,
  watchNote,
  notLanded,
  regenerationWaitMs,
  noteNow,
} from '../support/regeneration.ts';
import { MARGIN_MS } from '../../run/durations.ts';
import { watchedSession, invalidRegenerations } from '../support/regen-session.ts';
import {
  sessionNow,
  watchSession,
  stillSession,
  quietFor,
  describeChange,
  waitedFor,
  regenerateWithKey,
} from '../support/session-watch.ts';
import { got, listOf, body, type Obj, json, is2xx, readableError } from '../support/common.ts';
import { register, unregister } from '../support/webhook-probe.ts';
import { check } from '../support/define.ts';

export async function idempotency_key_still_deduplicated(ctx: CheckContext): Promise<void> {
  const session = await watchedSession(ctx, 0);
  const key = `${ctx.prefix}window-${randomBytes(4).toString('hex')}`;
  const first = await regenerateWithKey(ctx, session, key);
  if (!first) return;
  // The key outlives its regeneration: repeated once that run is done (and as long again, up to 5 s), it starts nothing.
  await ctx.sleep(Math.min(5000, first.watch.ms));
  const since = performance.now();
  const again = await first.send();
  ctx.expect(is2xx(again), {
    expected: `2xx for the repeat with Idempotency-Key ${key}`,
    actual: got(again),
    exchange: again,
    says: 'repeated requests with the same key for the same session collapse onto one regeneration; deduplicated for at least one hour',
  });
  const quiet = await stillSession(ctx, session, first.watch.state.sig, since, quietFor(ctx, first.watch.ms));
  ctx.expect(!quiet.moved, {
    expected: `no second regeneration of session ${session} for the same Idempotency-Key repeated ${Math.round(since - first.since)} ms after the first, whose run had landed (deduplicated for at least one hour; watched ${Math.round(quiet.ms)} ms)`,
    actual: describeChange(quiet),
    exchange: quiet.state.exchange,
    says: 'deduplicated for at least one hour',
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
      says: ['| body (optional, JSON) |', "{data: {session_id: <string>, status: 'queued'}, message: <string>}"],
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
    says: "defaults to the session's current template",
  });
  // With template_id: that template; then back to the original one (the mock's data as it was).
  let last = dflt.note.updated_at;
  for (const template of [other, t!.templateId]) {
    const since = performance.now();
    const ex = await regenerate(ctx, t!.sessionId, { json: { template_id: template, model: 'fast' } });
    if (
      !ctx.expect(accepted(ex, t!.sessionId), {
        expected: `2xx queued for template_id ${template}`,
        actual: got(ex),
        exchange: ex,
        says: '| template_id | string, uuid | no | template to use',
      })
    )
      return;
    // The documented wait (a minute, three times, and a margin), not a multiple of the first run: "typical" is no bound.
    const w = await watchNote(ctx, t!.noteId, last, since, regenerationWaitMs(ctx));
    ctx.expect(w.moved && w.note.template_id === template, {
      expected: `note ${t!.noteId} regenerated with template_id ${template}`,
      actual: w.moved ? got(w.exchange) : `not regenerated within ${Math.round(w.ms)} ms`,
      exchange: w.exchange,
      says: 'template to use',
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
      says: 'generation tier fast, balanced or detailed; defaults to the standard tier',
    });
  }
  const bad = await regenerate(ctx, session, { json: { model: 'turbo' } });
  ctx.expect(bad.response.status === 400, {
    expected: '400 for model "turbo" (not one of fast, balanced, detailed)',
    actual: got(bad),
    exchange: bad,
    says: ['generation tier fast, balanced or detailed', '| 400 | invalid request | {error} |'],
  });
}

export async function regenerate_invalid_400(ctx: CheckContext): Promise<void> {
  // The body's { error } is error_body_shape's (GEN-005): the status is this rule.
  for (const [label, ex] of await invalidRegenerations(ctx))
    ctx.expect(ex.response.status === 400, {
      expected: `400 for ${label}`,
      actual: got(ex),
      exchange: ex,
      says: [
        '| 400 | invalid request | {error} |',
        'generation tier fast, balanced or detailed',
        '| template_id | string, uuid |',
        '| body (optional, JSON) |',
      ],
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
    !ctx.expect(accepted(ex, session), {
      expected: '2xx queued for a regeneration with the default tier',
      actual: got(ex),
      exchange: ex,
      says: "{data: {session_id: <string>, status: 'queued'}, message: <string>}",
    })
  )
    return;
  const w = await watchSession(ctx, session, before.sig, since, limit);
  if (!w.moved) await notLanded(ctx, session);
  if (
    !ctx.expect(w.moved, {
      expected: `the regenerated note within ${waitedFor(ctx)}`,
      actual: `the notes of session ${session} unchanged after ${Math.round(w.ms / 1000)} s`,
      exchange: w.state.exchange,
      says: 'Typical duration is under a minute.',
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
      says: 'Typical duration is under a minute.',
    });
}

export async function regeneration_sends_note_regenerated(ctx: CheckContext): Promise<void> {
  const [t] = await regenTarget(ctx, 1);
  const hook = await register(ctx, 'NOTE_REGENERATED');
  try {
    const before = await noteNow(ctx, t!.noteId);
    if (!before) return;
    const from = ctx.receiver!.deliveries.length;
    const ex = await regenerate(ctx, t!.sessionId, { json: { model: 'fast' } });
    if (
      !ctx.expect(accepted(ex, t!.sessionId), {
        expected: '2xx queued',
        actual: got(ex),
        exchange: ex,
        says: "{data: {session_id: <string>, status: 'queued'}, message: <string>}",
      })
    )
      return;
    const mine = (d: Delivery) => {
      const j = d.json as Obj | undefined;
      return j?.session_id === t!.sessionId || j?.note_id === t!.noteId;
    };
    // The documented wait ("typical duration is under a minute", three times, and a margin); when nothing came, a
    // regeneration not applied yet is REGEN-015's to judge, and one applied is given a margin for its event.
    let wait = regenerationWaitMs(ctx);
    const came = () => ctx.receiver!.waitFor((ds) => ds.slice(from).some(mine), wait);
    if (!(await came())) {
      const now = await noteNow(ctx, t!.noteId);
      if (now && now.updated_at === before.updated_at)
        return ctx.skip(
          `the regeneration of session ${t!.sessionId} was not applied within ${wait / 1000} s, the documented minute and a margin`,
        );
      await ctx.receiver!.waitFor((ds) => ds.slice(from).some(mine), MARGIN_MS);
      wait += MARGIN_MS;
    }
    const d = ctx.receiver!.deliveries.slice(from).find(mine);
    if (
      !ctx.expect(!!d, {
        expected: `a delivery for the regeneration of session ${t!.sessionId}`,
        actual: `none within ${wait / 1000} s`,
        says: 'a NOTE_REGENERATED event is sent when registered',
      })
    )
      return;
    const j = d!.json as Obj;
    ctx.expect(j.event === 'NOTE_REGENERATED' && j.note_id === t!.noteId && j.session_id === t!.sessionId, {
      expected: `NOTE_REGENERATED for note ${t!.noteId} of session ${t!.sessionId}`,
      actual: d!.body.slice(0, 300),
      says: [
        'a NOTE_REGENERATED event is sent when registered',
        'NOTE_REGENERATED | a note is regenerated, for example by the regenerate endpoint',
      ],
    });
    const errors = ctx.schemas.validate('#/components/schemas/NoteEvent', j);
    ctx.expect(!errors.length, {
      expected: 'payload valid against NoteEvent',
      actual: `${errors.join('; ')} in ${d!.body.slice(0, 300)}`,
      says: 'Note events (NOTE_CREATED, NOTE_REGENERATED, NOTE_UPDATED):',
    });
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
    says: ['defaults to the standard tier', 'kit: the standard tier is balanced (the document does not name it)'],
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
        says: [
          '| 400 | invalid request | {error} |',
          'kit: a regenerate 400 carries details (a map of field errors) or nothing beside error',
        ],
      },
    );
  }
}

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
    waits: ['regeneration'],
  }),
  check(regenerate_default_tier_balanced, {
    rule: 'REGEN-017',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    exclusive: true,
    waits: ['regeneration', 'regeneration', 'regeneration', 'regeneration'],
  }),
  check(regenerate_400_body_shape, { rule: 'REGEN-020', provenance: 'assumed', needs: { write: true } }),
];
