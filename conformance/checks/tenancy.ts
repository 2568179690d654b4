// Tenant isolation: another organization's key sees none of this organization's data (404, exactly like a
// missing id), and this organization's key sees none of the other's.
import type { CheckDef } from '../model.ts';
import { got, listOf, uploadDocument } from './util.ts';

export const tenancyChecks: CheckDef[] = [
  {
    name: 'other_org_patient_not_found',
    area: 'tenancy',
    rule: 'GEN-001',
    needs: { keys: ['otherOrg'], write: true },
    async run(ctx) {
      const other = ctx.keys.otherOrg!;
      const mine = await ctx.fixtures.patient();
      const id = String(mine.id);
      for (const [method, path, json] of [
        ['GET', `/patients/${id}`, undefined],
        ['PATCH', `/patients/${id}`, { phone: '+1-555-0000' }],
        ['GET', `/patients/${id}/documents`, undefined],
      ] as const) {
        const ex = await ctx.send({ method, path, key: other, json });
        ctx.expect(ex.response.status === 404, { expected: `404 for ${method} ${path} with another organization's key`, actual: got(ex), exchange: ex });
      }
      const lookup = await ctx.send({ method: 'GET', path: '/patients', key: other, query: { external_id: String(mine.external_id) } });
      ctx.expect(lookup.response.status === 404, { expected: "404 for another organization's external_id lookup", actual: got(lookup), exchange: lookup });
      const list = await ctx.send({ method: 'GET', path: '/patients', key: other, query: { limit: 100 } });
      ctx.expect(!listOf(list).some((p) => p.id === id), { expected: "another organization's list without this organization's patient", actual: `patient ${id} listed`, exchange: list });
    },
  },
  {
    name: 'other_org_ids_not_found',
    area: 'tenancy',
    rule: 'ERR-004',
    needs: { keys: ['otherOrg'] },
    async run(ctx) {
      // Ids the other organization can see must not resolve with this organization's key (reads only).
      const other = ctx.keys.otherOrg!;
      for (const [list, detail] of [['/patients', '/patients/'], ['/appointments', '/appointments/'], ['/notes', '/notes/'], ['/providers', '/providers/']] as const) {
        const ex = await ctx.send({ method: 'GET', path: list, key: other, query: { limit: 3 } });
        for (const item of listOf(ex).slice(0, 2)) {
          const mine = await ctx.send({ method: 'GET', path: `${detail}${String(item.id)}`, key: ctx.keys.main });
          ctx.expect(mine.response.status === 404, { expected: `404 for another organization's ${detail}${String(item.id)}`, actual: got(mine), exchange: mine });
        }
      }
    },
  },
  {
    name: 'other_org_document_not_found',
    area: 'tenancy',
    rule: 'AUTH-008',
    needs: { keys: ['otherOrg'], write: true },
    async run(ctx) {
      const patient = await ctx.fixtures.patient();
      const up = await uploadDocument(ctx, String(patient.id));
      const doc = (up.response.json as { data?: { id?: string } })?.data;
      if (!doc?.id) return ctx.skip(`upload answered ${up.response.status}`);
      const ex = await ctx.send({ method: 'POST', path: `/patients/${String(patient.id)}/documents/${doc.id}/extract`, key: ctx.keys.otherOrg! });
      ctx.expect(ex.response.status === 404, { expected: "404 for extract on another organization's document", actual: got(ex), exchange: ex });
    },
  },
];
