// external_id: unique per organization (409 with `existing`), immutable (ignored on PATCH).
import type { CheckContext, CheckDef } from '../model.ts';
import type { Exchange } from '../http.ts';
import { body, createAppointment, got, objOf, uploadDocument } from './util.ts';

function conflict(ctx: CheckContext, ex: Exchange, first: Exchange, what: string) {
  const b = body(ex);
  const existing = b.existing as { id?: unknown; external_id?: unknown } | undefined;
  const orig = objOf(first);
  ctx.expect(ex.response.status === 409, { expected: `409 for a second ${what} with the same external_id`, actual: got(ex), exchange: ex });
  ctx.expect(!!existing && existing.id === orig.id && existing.external_id === orig.external_id, {
    expected: `409 body { error, existing: { id: ${JSON.stringify(orig.id)}, external_id: ${JSON.stringify(orig.external_id)} } }`,
    actual: got(ex),
    exchange: ex,
  });
}

export const externalIdChecks: CheckDef[] = [
  {
    name: 'duplicate_external_id_conflict',
    area: 'external-id',
    rule: 'XID-006',
    covers: ['XID-003', 'APT-021'],
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.createPatient('dup');
      const firstP = await ctx.send({ method: 'GET', path: `/patients/${String(p.id)}`, key: ctx.keys.main });
      conflict(ctx, await ctx.send({ method: 'POST', path: '/patients', key: ctx.keys.main, json: { name: 'Conformance dup', external_id: p.external_id } }), firstP, 'patient');
      const a = await createAppointment(ctx, String(p.id));
      conflict(ctx, await createAppointment(ctx, String(p.id), { external_id: objOf(a).external_id }), a, 'appointment');
      const d = await uploadDocument(ctx, String(p.id));
      conflict(ctx, await uploadDocument(ctx, String(p.id), String(objOf(d).external_id)), d, 'document');
    },
  },
  {
    name: 'external_id_immutable_on_patch',
    area: 'external-id',
    rule: 'XID-005',
    covers: ['XID-004'],
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.createPatient('immutable');
      const a = objOf(await createAppointment(ctx, String(p.id)));
      for (const [path, original] of [[`/patients/${String(p.id)}`, p.external_id], [`/appointments/${String(a.id)}`, a.external_id]] as const) {
        const ex = await ctx.send({ method: 'PATCH', path, key: ctx.keys.main, json: { external_id: ctx.externalId('changed') } });
        ctx.expect(ex.response.status === 200, { expected: `200 for PATCH ${path} with external_id (silently ignored)`, actual: got(ex), exchange: ex });
        const after = await ctx.send({ method: 'GET', path, key: ctx.keys.main });
        ctx.expect(objOf(after).external_id === original, { expected: `external_id still ${JSON.stringify(original)}`, actual: got(after), exchange: after });
      }
    },
  },
];
