// Patients: ids are digit strings kept exactly (never numbers), list items omit detail-only fields, a name-only
// patient has consent false, the name is built from first/last names.
import type { CheckDef } from '../model.ts';
import { createAppointment, got, listOf, objOf } from './util.ts';

const DIGITS = /^\d+$/;

export const patientChecks: CheckDef[] = [
  {
    name: 'patient_id_digit_string',
    area: 'patients',
    rule: 'GEN-008',
    async run(ctx) {
      const list = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { limit: 20 } });
      // Raw text too: a number would lose digits in JSON.parse before any schema sees it.
      ctx.expect(!/"id"\s*:\s*\d/.test(list.response.text), { expected: 'every patient "id" a JSON string', actual: list.response.text.slice(0, 300), exchange: list });
      for (const p of listOf(list)) ctx.expect(typeof p.id === 'string' && DIGITS.test(p.id), { expected: 'id a string of digits', actual: JSON.stringify(p.id), exchange: list });
      const p = await ctx.fixtures.patient();
      const one = await ctx.send({ method: 'GET', path: `/patients/${String(p.id)}`, key: ctx.keys.main });
      ctx.expect(typeof objOf(one).id === 'string' && !/"id"\s*:\s*\d/.test(one.response.text), { expected: 'id a JSON string', actual: got(one), exchange: one });
    },
  },
  {
    name: 'patient_id_kept_exact',
    area: 'patients',
    rule: 'PAT-001',
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.createPatient('exact');
      const id = String(p.id);
      const read = await ctx.send({ method: 'GET', path: `/patients/${id}`, key: ctx.keys.main });
      ctx.expect(objOf(read).id === id, { expected: `id exactly "${id}"`, actual: got(read), exchange: read });
      const appt = await createAppointment(ctx, id);
      ctx.expect(objOf(appt).patient_id === id, { expected: `appointment patient_id exactly "${id}"`, actual: got(appt), exchange: appt });
    },
  },
  {
    name: 'patient_list_items_without_detail_fields',
    area: 'patients',
    rule: 'PAT-012',
    async run(ctx) {
      // Detail-only fields: in Patient but not in PatientListItem (read from the spec).
      const detail = Object.keys((ctx.contract.resolve('#/components/schemas/Patient') as { properties: object }).properties);
      const item = Object.keys((ctx.contract.resolve('#/components/schemas/PatientListItem') as { properties: object }).properties);
      const only = detail.filter((f) => !item.includes(f));
      await ctx.fixtures.patient();
      const ex = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { limit: 20 } });
      for (const p of listOf(ex)) {
        const present = only.filter((f) => f in p);
        ctx.expect(!present.length, { expected: `list items without ${only.join(', ')}`, actual: `${String(p.id)} carries ${present.join(', ')}`, exchange: ex });
      }
      const p = await ctx.fixtures.patient();
      const one = await ctx.send({ method: 'GET', path: `/patients/${String(p.id)}`, key: ctx.keys.main });
      ctx.expect('consent' in objOf(one), { expected: 'get-by-id carries consent', actual: got(one), exchange: one });
    },
  },
  {
    name: 'name_only_patient_consent_false',
    area: 'patients',
    rule: 'PAT-015',
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.createPatient('consent');
      ctx.expect(p.consent === false, { expected: 'consent false for a patient created with only a name', actual: JSON.stringify(p) });
    },
  },
  {
    name: 'name_built_from_first_and_last',
    area: 'patients',
    rule: 'PAT-003',
    needs: { write: true },
    async run(ctx) {
      const ex = await ctx.send({ method: 'POST', path: '/patients', key: ctx.keys.main, json: { first_name: 'Ada', last_name: 'Conformance', external_id: ctx.externalId('names') } });
      const name = String(objOf(ex).name ?? '');
      ctx.expect(ex.response.status === 201 && name.includes('Ada') && name.includes('Conformance'), { expected: '201 with a name built from first_name and last_name', actual: got(ex), exchange: ex });
    },
  },
];
