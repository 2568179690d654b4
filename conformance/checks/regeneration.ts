// Regeneration: 202 { data: { session_id, status: 'queued' }, message }, the Idempotency-Key collapsing repeats,
// 404 for a session not owned, 503 when it cannot be queued. A 202 regenerates someone's note, so those checks
// run only against the mock (whose data is the run's to change).
import type { CheckContext, CheckDef } from '../model.ts';
import { body, got, objOf } from './util.ts';


/** The Idempotency-Key header's schema, from the spec. */
function idempotencySchema(ctx: CheckContext): { minLength?: number; maxLength?: number } {
  const op = ctx.contract.byId('regenerateSessionNote');
  const p = op.parameters.find((x) => x.in === 'header' && String(x.name).toLowerCase() === 'idempotency-key');
  return (ctx.contract.deref(p?.schema) ?? {}) as { minLength?: number; maxLength?: number };
}

export const regenerationChecks: CheckDef[] = [
  {
    name: 'regenerate_accepted',
    area: 'regeneration',
    rule: 'REGEN-008',
    covers: ['REGEN-001', 'REGEN-014'],
    needs: { mock: true, write: true },
    async run(ctx) {
      const note = await ctx.fixtures.firstNote();
      const session = String(note.session_id);
      const ex = await ctx.send({ method: 'POST', path: `/sessions/${session}/notes/regenerate`, key: ctx.keys.main, json: {} });
      const d = objOf(ex);
      ctx.expect(ex.response.status === 202 && d.session_id === session && d.status === 'queued' && typeof body(ex).message === 'string', {
        expected: `202 { data: { session_id: "${session}", status: "queued" }, message }`,
        actual: got(ex),
        exchange: ex,
      });
      // The regenerated note shows up on the session notes endpoint (updated_at moves).
      const before = String(note.updated_at);
      let moved = false;
      let last;
      for (let i = 0, wait = 25; i < 40 && !moved; i++, wait = Math.min(wait * 2, 1000)) {
        await ctx.sleep(wait);
        last = await ctx.send({ method: 'GET', path: `/sessions/${session}/notes`, key: ctx.keys.main });
        const notes = (objOf(last).notes ?? []) as Array<Record<string, unknown>>;
        moved = notes.some((n) => n.id === note.id && String(n.updated_at) !== before) || notes.length > 1;
      }
      ctx.expect(moved, { expected: 'the regenerated note available from the session notes endpoint', actual: last ? got(last) : 'no answer', exchange: last });
    },
  },
  {
    name: 'regenerate_idempotency_key',
    area: 'regeneration',
    rule: 'REGEN-003',
    needs: { mock: true, write: true },
    async run(ctx) {
      const note = await ctx.fixtures.firstNote();
      const key = `${ctx.prefix}idem`;
      const path = `/sessions/${String(note.session_id)}/notes/regenerate`;
      const a = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, headers: { 'Idempotency-Key': key } });
      const b = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, headers: { 'Idempotency-Key': key } });
      ctx.expect(a.response.status === 202 && b.response.status === 202, {
        expected: 'a repeat with the same Idempotency-Key accepted again (202), not refused',
        actual: `${got(a)} then ${got(b)}`,
        exchange: b,
      });
    },
  },
  {
    name: 'regenerate_idempotent_repeat_same_body',
    area: 'regeneration',
    rule: 'REGEN-019',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    async run(ctx) {
      const note = await ctx.fixtures.firstNote();
      const key = `${ctx.prefix}same-body`;
      const path = `/sessions/${String(note.session_id)}/notes/regenerate`;
      const a = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, headers: { 'Idempotency-Key': key } });
      const b = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, headers: { 'Idempotency-Key': key } });
      ctx.expect(a.response.status === 202 && b.response.status === 202 && JSON.stringify(body(a)) === JSON.stringify(body(b)), {
        expected: 'the same 202 body for a repeat with the same Idempotency-Key',
        actual: `${got(a)} then ${got(b)}`,
        exchange: b,
      });
    },
  },
  {
    name: 'idempotency_key_length_bounds',
    area: 'regeneration',
    rule: 'REGEN-018',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    async run(ctx) {
      const { minLength, maxLength } = idempotencySchema(ctx);
      if (minLength === undefined && maxLength === undefined) return ctx.skip('the spec bounds no Idempotency-Key length');
      const note = await ctx.fixtures.firstNote();
      const path = `/sessions/${String(note.session_id)}/notes/regenerate`;
      const tooShort = minLength !== undefined && minLength > 0 ? 'k'.repeat(minLength - 1) : undefined;
      const tooLong = maxLength !== undefined ? 'k'.repeat(maxLength + 1) : undefined;
      for (const [label, value] of [[`shorter than ${minLength}`, tooShort], [`longer than ${maxLength}`, tooLong]] as const) {
        if (value === undefined) continue;
        const ex = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, headers: { 'Idempotency-Key': value } });
        ctx.expect(ex.response.status === 400 && typeof body(ex).error === 'string', { expected: `400 { error } for an Idempotency-Key ${label} characters`, actual: got(ex), exchange: ex });
      }
      if (maxLength !== undefined) {
        const longest = `${ctx.prefix}`.padEnd(maxLength, 'k');
        const ok = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, headers: { 'Idempotency-Key': longest } });
        ctx.expect(ok.response.status === 202, { expected: `202 for an Idempotency-Key of exactly ${maxLength} characters`, actual: got(ok), exchange: ok });
      }
    },
  },
  {
    name: 'regenerate_session_not_ready',
    area: 'regeneration',
    rule: 'REGEN-012',
    covers: ['ERR-007'],
    needs: { mock: true, write: true },
    async run(ctx) {
      // A session that is not ready has no note, so no API route lists it: the mock's control API does.
      const session = (await ctx.mock!.sessions()).find((s) => s.organization_id === ctx.keys.mainOrg && !s.ready);
      if (!session) return ctx.skip('the mock lists no session of this organization that is not ready for regeneration');
      const ex = await ctx.send({ method: 'POST', path: `/sessions/${session.id}/notes/regenerate`, key: ctx.keys.main, json: {} });
      ctx.expect(ex.response.status === 409 && typeof body(ex).error === 'string', {
        expected: `409 { error } for session ${session.id} (transcript ${session.transcript_status}, ${session.has_note ? 'has a note' : 'no note'})`,
        actual: got(ex),
        exchange: ex,
      });
    },
  },
  {
    name: 'regenerate_unknown_session',
    area: 'regeneration',
    rule: 'REGEN-011',
    async run(ctx) {
      const ex = await ctx.send({ method: 'POST', path: `/sessions/${crypto.randomUUID()}/notes/regenerate`, key: ctx.keys.main, json: {} });
      ctx.expect(ex.response.status === 404, { expected: '404 for a session the organization does not own', actual: got(ex), exchange: ex });
    },
  },
  {
    name: 'regenerate_unavailable',
    area: 'regeneration',
    rule: 'REGEN-013',
    covers: ['ERR-009'],
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      const note = await ctx.fixtures.firstNote();
      await ctx.mock!.fault({ kind: 'regeneration-unavailable', count: 1 });
      const ex = await ctx.send({ method: 'POST', path: `/sessions/${String(note.session_id)}/notes/regenerate`, key: ctx.keys.main, json: {} });
      ctx.expect(ex.response.status === 503 && typeof body(ex).error === 'string', { expected: '503 { error } when regeneration cannot be queued', actual: got(ex), exchange: ex });
    },
  },
];
