// provider_id on patients and appointments: it defaults on create to the provider that owns the key (known only
// with --mock, from the mock's key list), and a provider the organization does not have is refused.
import { randomUUID } from 'node:crypto';
import type { CheckContext, CheckDef } from '../model.ts';
import type { Exchange } from '../http.ts';
import { createAppointment, got, listOf, objOf } from './util.ts';

/** A provider id the organization does not have: another organization's (with --other-org-key), else a random uuid. */
async function foreignProvider(ctx: CheckContext): Promise<{ id: string; from: string }> {
  if (ctx.keys.otherOrg) {
    const ex = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.otherOrg, query: { limit: 1 } });
    const id = listOf(ex)[0]?.id;
    if (typeof id === 'string') return { id, from: "another organization's provider" };
  }
  return { id: randomUUID(), from: 'an unknown provider id' };
}

const refused = (ex: Exchange) => ex.response.status >= 400 && ex.response.status < 500 && ex.response.status !== 401 && ex.response.status !== 403;

export const providerAssignmentChecks: CheckDef[] = [
  {
    name: 'patient_provider_defaults_to_key_owner',
    area: 'patients',
    rule: 'PAT-017',
    needs: { write: true, mock: true },
    async run(ctx) {
      if (!ctx.keys.mainProvider) return ctx.skip('the provider that owns the key is unknown (the mock key list names none)');
      const p = await ctx.fixtures.createPatient('provider-default');
      ctx.expect(p.provider_id === ctx.keys.mainProvider, { expected: `provider_id ${ctx.keys.mainProvider} (the key's provider) when none is sent`, actual: JSON.stringify(p.provider_id) });
    },
  },
  {
    name: 'appointment_provider_defaults_to_key_owner',
    area: 'appointments',
    rule: 'APT-005',
    needs: { write: true, mock: true },
    async run(ctx) {
      if (!ctx.keys.mainProvider) return ctx.skip('the provider that owns the key is unknown (the mock key list names none)');
      const p = await ctx.fixtures.patient();
      const a = await createAppointment(ctx, String(p.id));
      ctx.expect(a.response.status === 201 && objOf(a).provider_id === ctx.keys.mainProvider, { expected: `201 with provider_id ${ctx.keys.mainProvider} (the key's provider) when none is sent`, actual: got(a), exchange: a });
    },
  },
  {
    name: 'patient_foreign_provider_refused',
    area: 'patients',
    rule: 'PAT-018',
    needs: { write: true },
    async run(ctx) {
      const foreign = await foreignProvider(ctx);
      const create = await ctx.send({ method: 'POST', path: '/patients', key: ctx.keys.main, json: { name: 'Conformance foreign provider', external_id: ctx.externalId('foreign-prv'), provider_id: foreign.id } });
      ctx.expect(refused(create), { expected: `a 4xx refusal for POST /patients with ${foreign.from} as provider_id`, actual: got(create), exchange: create });
      const p = await ctx.fixtures.patient();
      const patch = await ctx.send({ method: 'PATCH', path: `/patients/${String(p.id)}`, key: ctx.keys.main, json: { provider_id: foreign.id } });
      ctx.expect(refused(patch), { expected: `a 4xx refusal for PATCH /patients/{id} with ${foreign.from} as provider_id`, actual: got(patch), exchange: patch });
    },
  },
  {
    name: 'appointment_foreign_provider_refused',
    area: 'appointments',
    rule: 'APT-006',
    needs: { write: true },
    async run(ctx) {
      const foreign = await foreignProvider(ctx);
      const p = await ctx.fixtures.patient();
      const create = await createAppointment(ctx, String(p.id), { provider_id: foreign.id });
      ctx.expect(refused(create), { expected: `a 4xx refusal for POST /appointments with ${foreign.from} as provider_id`, actual: got(create), exchange: create });
      const mine = await createAppointment(ctx, String(p.id));
      if (mine.response.status !== 201) return;
      const patch = await ctx.send({ method: 'PATCH', path: `/appointments/${String(objOf(mine).id)}`, key: ctx.keys.main, json: { provider_id: foreign.id } });
      ctx.expect(refused(patch), { expected: `a 4xx refusal for PATCH /appointments/{id} with ${foreign.from} as provider_id`, actual: got(patch), exchange: patch });
    },
  },
];
