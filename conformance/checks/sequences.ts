// Stateful sequences (Schemathesis style): create → read → list → update → delete → read 404, and use after delete.
import type { CheckContext, CheckDef } from '../model.ts';
import { createAppointment, got, listOf, objOf, uploadDocument } from './util.ts';

async function lifecycle(ctx: CheckContext, created: Record<string, unknown>, base: string, listPath: string, update: Record<string, unknown>) {
  const id = String(created.id);
  const path = `${base}/${id}`;
  const read = await ctx.send({ method: 'GET', path, key: ctx.keys.main });
  ctx.expect(read.response.status === 200 && objOf(read).id === created.id, { expected: `200 with the created ${id}`, actual: got(read), exchange: read });
  const list = await ctx.send({ method: 'GET', path: listPath, key: ctx.keys.main, query: { external_id: String(created.external_id) } });
  ctx.expect(listOf(list).some((x) => x.id === created.id), { expected: 'the created resource visible in its list', actual: got(list), exchange: list });
  const upd = await ctx.send({ method: 'PATCH', path, key: ctx.keys.main, json: update });
  const after = objOf(upd);
  ctx.expect(upd.response.status === 200 && Object.entries(update).every(([k, v]) => after[k] === v), { expected: `200 with ${JSON.stringify(update)} applied`, actual: got(upd), exchange: upd });
  const reread = await ctx.send({ method: 'GET', path, key: ctx.keys.main });
  ctx.expect(Object.entries(update).every(([k, v]) => objOf(reread)[k] === v), { expected: 'the update visible on read', actual: got(reread), exchange: reread });
  const del = await ctx.send({ method: 'DELETE', path, key: ctx.keys.main });
  ctx.expect(del.response.status === 200 && (del.response.json as { success?: unknown })?.success === true, { expected: '200 { success: true }', actual: got(del), exchange: del });
  for (const [method, json] of [['GET', undefined], ['PATCH', update], ['DELETE', undefined]] as const) {
    const ex = await ctx.send({ method, path, key: ctx.keys.main, json });
    ctx.expect(ex.response.status === 404, { expected: `404 for ${method} after delete`, actual: got(ex), exchange: ex });
  }
  const gone = await ctx.send({ method: 'GET', path: listPath, key: ctx.keys.main, query: { external_id: String(created.external_id) } });
  ctx.expect(gone.response.status === 404, { expected: 'external_id lookup 404 after delete', actual: got(gone), exchange: gone });
}

export const sequenceChecks: CheckDef[] = [
  {
    name: 'patient_lifecycle',
    area: 'sequences',
    rule: 'PAT-024',
    covers: ['PAT-023'],
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.createPatient('lifecycle');
      await lifecycle(ctx, p, '/patients', '/patients', { phone: '+1-555-0142' });
    },
  },
  {
    name: 'appointment_lifecycle',
    area: 'sequences',
    rule: 'APT-020',
    covers: ['APT-018'],
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const a = await createAppointment(ctx, String(p.id));
      if (!ctx.expect(a.response.status === 201, { expected: '201 for a new appointment', actual: got(a), exchange: a })) return;
      await lifecycle(ctx, objOf(a), '/appointments', '/appointments', { notes: 'Updated by the conformance suite', duration_minutes: 45 });
    },
  },
  {
    name: 'document_lifecycle',
    area: 'sequences',
    rule: 'DOC-024',
    covers: ['DOC-021', 'DOC-022'],
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const up = await uploadDocument(ctx, String(p.id));
      const d = objOf(up);
      if (!ctx.expect(up.response.status === 201 && typeof d.id === 'string', { expected: '201 with the document', actual: got(up), exchange: up })) return;
      const docs = `/patients/${String(p.id)}/documents`;
      const list = await ctx.send({ method: 'GET', path: docs, key: ctx.keys.main });
      ctx.expect(listOf(list).some((x) => x.id === d.id), { expected: "the upload in the patient's documents", actual: got(list), exchange: list });
      const del = await ctx.send({ method: 'DELETE', path: `${docs}/${String(d.id)}`, key: ctx.keys.main });
      ctx.expect(del.response.status === 200, { expected: '200 { success: true }', actual: got(del), exchange: del });
      for (const [method, path] of [['DELETE', `${docs}/${String(d.id)}`], ['POST', `${docs}/${String(d.id)}/extract`]] as const) {
        const ex = await ctx.send({ method, path, key: ctx.keys.main });
        ctx.expect(ex.response.status === 404, { expected: `404 for ${method} after delete`, actual: got(ex), exchange: ex });
      }
      const gone = await ctx.send({ method: 'GET', path: docs, key: ctx.keys.main, query: { external_id: String(d.external_id) } });
      ctx.expect(gone.response.status === 404, { expected: 'external_id lookup 404 after delete', actual: got(gone), exchange: gone });
    },
  },
];
