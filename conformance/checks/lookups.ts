// Lookups: external_id (patients, appointments, documents) and npi (providers) bypass pagination and answer a
// one-item data array, or 404 on a miss.
import type { CheckDef } from '../model.ts';
import { createAppointment, got, listOf, objOf, unusedNpi, uploadDocument } from './util.ts';

export const lookupChecks: CheckDef[] = [
  {
    name: 'external_id_lookup_hit',
    area: 'lookups',
    rule: 'XID-008',
    covers: ['XID-001', 'XID-009', 'XID-011', 'XID-012'],
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const a = objOf(await createAppointment(ctx, String(p.id)));
      const d = objOf(await uploadDocument(ctx, String(p.id)));
      for (const [path, item] of [['/patients', p], ['/appointments', a], [`/patients/${String(p.id)}/documents`, d]] as const) {
        const ex = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query: { external_id: String(item.external_id), page: 2, limit: 1 } });
        const data = listOf(ex);
        ctx.expect(ex.response.status === 200 && data.length === 1 && data[0]?.id === item.id, {
          expected: `200 with exactly the item ${String(item.id)} (pagination bypassed, even with page=2&limit=1)`,
          actual: got(ex),
          exchange: ex,
        });
      }
    },
  },
  {
    name: 'external_id_lookup_miss',
    area: 'lookups',
    rule: 'XID-010',
    covers: ['ERR-005'],
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      for (const path of ['/patients', '/appointments', `/patients/${String(p.id)}/documents`]) {
        const ex = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query: { external_id: `${ctx.prefix}no-such-id` } });
        ctx.expect(ex.response.status === 404, { expected: '404 for an external_id that matches nothing', actual: got(ex), exchange: ex });
      }
    },
  },
  {
    name: 'npi_lookup',
    area: 'lookups',
    rule: 'PRV-006',
    covers: ['PRV-007'],
    async run(ctx) {
      const providers = await ctx.fixtures.providers();
      const first = providers[0];
      if (!first?.npi) return ctx.skip('no provider with an npi to look up');
      const hit = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main, query: { npi: String(first.npi), page: 2 } });
      const data = listOf(hit);
      ctx.expect(hit.response.status === 200 && data.length === 1 && data[0]?.id === first.id, { expected: `200 with exactly provider ${String(first.id)}`, actual: got(hit), exchange: hit });
      // A well-formed NPI no provider holds (Luhn-valid with the 80840 prefix).
      const miss = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main, query: { npi: unusedNpi(providers.map((p) => String(p.npi))) } });
      ctx.expect(miss.response.status === 404, { expected: '404 for an npi no provider has', actual: got(miss), exchange: miss });
    },
  },
];
