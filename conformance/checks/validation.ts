// Strict bodies, from the spec's request schemas: valid bodies accepted; an unknown property, a missing required
// field, a wrong type or a value out of bounds rejected with 400 { error, details } — never 2xx, never 5xx.
// Bodies target the run's own resources; anything a server wrongly creates is removed by the cleanup.
import { BodyGenerator, type CaseKind } from '../datagen.ts';
import type { CheckContext, CheckDef } from '../model.ts';
import { createAppointment, got, isValidationError, objOf } from './util.ts';

let generator: BodyGenerator | undefined;
const gen = (ctx: CheckContext) => (generator ??= new BodyGenerator(ctx.contract));

/** Targets: each JSON-body operation with its path and the values its fields must reference. */
async function targets(ctx: CheckContext) {
  const patient = await ctx.fixtures.patient();
  const providers = await ctx.fixtures.providers();
  const appt = await createAppointment(ctx, String(patient.id));
  const apptId = String(objOf(appt).id ?? '');
  const bind = { patient_id: String(patient.id), provider_id: String(providers[0]?.id ?? '') };
  const out = [];
  for (const op of ctx.contract.operations) {
    if (!op.jsonBodyPointer) continue;
    if (op.operationId.startsWith('regenerate')) continue; // would regenerate a note the run does not own
    const path = op.template.replace('{patientId}', String(patient.id)).replace('{appointmentId}', apptId);
    out.push({ op, path, bind });
  }
  return out;
}

function negative(kinds: CaseKind[]): CheckDef['run'] {
  return async (ctx) => {
    let assumedOnly = 0;
    let asserted = 0;
    for (const t of await targets(ctx)) {
      const g = gen(ctx);
      const base = g.valid(t.op.jsonBodyPointer!, { ...t.bind, external_id: ctx.externalId('base') })[0]?.body ?? {};
      const cases = g.invalid(t.op.jsonBodyPointer!, base, () => (t.op.method === 'POST' ? { external_id: ctx.externalId('neg') } : {}));
      for (const c of cases.filter((c) => kinds.includes(c.kind))) {
        if (c.assumed && ctx.profile === 'documented') {
          assumedOnly++;
          continue;
        }
        const ex = await ctx.send({ method: t.op.method, path: t.path, key: ctx.keys.main, json: c.body });
        asserted++;
        ctx.expect(isValidationError(ex), {
          message: `${t.op.method} ${t.op.template} with ${c.label}${c.assumed ? ' (assumed constraint)' : ''}`,
          expected: '400 { error, details }',
          actual: got(ex),
          exchange: ex,
        });
      }
    }
    if (!asserted && assumedOnly) ctx.skip(`all ${assumedOnly} cases break assumed constraints only: run with --profile all`);
  };
}

export const validationChecks: CheckDef[] = [
  { name: 'unknown_field_rejected', area: 'validation', rule: 'GEN-010', needs: { write: true }, run: negative(['unknown-property']) },
  { name: 'missing_required_rejected', area: 'validation', rule: 'ERR-001', needs: { write: true }, run: negative(['missing-required']) },
  { name: 'wrong_type_rejected', area: 'validation', rule: 'ERR-001', needs: { write: true }, run: negative(['wrong-type']) },
  { name: 'out_of_bounds_rejected', area: 'validation', rule: 'ERR-001', covers: ['LIM-002', 'LIM-003', 'LIM-004'], needs: { write: true }, run: negative(['out-of-bounds']) },
  {
    name: 'valid_bodies_accepted',
    area: 'validation',
    rule: 'PAT-021',
    needs: { write: true },
    async run(ctx) {
      for (const t of await targets(ctx)) {
        for (const v of gen(ctx).valid(t.op.jsonBodyPointer!, t.bind, () => (t.op.method === 'POST' ? { external_id: ctx.externalId('pos') } : {}))) {
          if (v.assumed && ctx.profile === 'documented') continue;
          // PATCH bodies leave external_id out: sending one is the immutability check's business.
          const json = t.op.method === 'PATCH' ? Object.fromEntries(Object.entries(v.body).filter(([k]) => k !== 'external_id')) : v.body;
          const ex = await ctx.send({ method: t.op.method, path: t.path, key: ctx.keys.main, json });
          ctx.expect(ex.response.status >= 200 && ex.response.status < 300, {
            message: `${t.op.method} ${t.op.template} with ${v.label}`,
            expected: '2xx',
            actual: got(ex),
            exchange: ex,
          });
        }
      }
    },
  },
  {
    name: 'malformed_json_rejected',
    area: 'validation',
    rule: 'ERR-012',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      const ex = await ctx.send({ method: 'POST', path: '/patients', key: ctx.keys.main, bodyText: '{"name": "broken', headers: { 'Content-Type': 'application/json' } });
      ctx.expect(ex.response.status === 400, { expected: '400 for a malformed JSON body', actual: got(ex), exchange: ex });
    },
  },
];
