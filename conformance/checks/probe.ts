// Touches every readable operation once with the full-access key, so that the response checks (status,
// content type, schema, rate-limit headers, no 5xx) see each operation even when --only picks `responses`.
import type { CheckDef } from '../model.ts';
import { fillPath, got, dataOf } from './util.ts';

export const probeChecks: CheckDef[] = [
  {
    name: 'success_wrapped_in_data',
    area: 'responses',
    rule: 'GEN-003',
    async run(ctx) {
      const patient = await ctx.fixtures.patient();
      const note = (await ctx.fixtures.notes())[0];
      const provider = (await ctx.fixtures.providers())[0];
      const values = { patientId: String(patient.id), noteId: note?.id as string, sessionId: note?.session_id as string, providerId: provider?.id as string };
      for (const op of ctx.contract.operations) {
        if (op.method !== 'GET' || op.operationId === 'exportNotes') continue;
        if (/\{(appointmentId|documentId)\}/.test(op.template)) continue;
        if (!note && /\{(noteId|sessionId)\}/.test(op.template)) continue; // no notes to read on this target
        const ex = await ctx.send({ method: 'GET', path: fillPath(op, values), key: ctx.keys.main });
        ctx.expect(ex.response.status === 200 && dataOf(ex) !== undefined, { expected: `200 { data: ... } for GET ${op.template}`, actual: got(ex), exchange: ex });
      }
    },
  },
];
