// The patient checks' shared helpers (checks/pat/): a PATCH, and the one-character and empty name fields.
import type { CheckContext } from '../../run/model.ts';
import type { Exchange } from '../../../judge/define.ts';
import { type Obj, objOf, got, isValidationError, is2xx } from './common.ts';
import { postPatient, getPatient } from './resources.ts';

export function patchPatient(ctx: CheckContext, id: unknown, fields: Obj): Promise<Exchange> {
  return ctx.send({ method: 'PATCH', path: `/patients/${String(id)}`, key: ctx.keys.main, json: fields });
}

/**
 * A string field of the patient with minLength 1: a one-character value is accepted and kept on create and read
 * back; an empty one is refused with 400 on create and on PATCH. `says` is the field's row of the Patient table.
 */
export async function patientNameField(ctx: CheckContext, field: 'first_name' | 'last_name', o: { says: string }) {
  const ok = await postPatient(ctx, { [field]: 'Q' }, field);
  if (
    !ctx.expect(is2xx(ok) && objOf(ok)[field] === 'Q', {
      expected: `2xx with ${field} "Q" (one character, the only name field)`,
      actual: got(ok),
      exchange: ok,
      says: [o.says, 'when omitted on create, built from first_name and/or last_name'],
    })
  )
    return;
  const read = await getPatient(ctx, objOf(ok).id);
  ctx.expect(objOf(read)[field] === 'Q', {
    expected: `GET answers ${field} "Q"`,
    actual: got(read),
    exchange: read,
    says: [o.says, '/patients/{patientId} | patients:read | none | {data: Patient}'],
  });
  const empty = await postPatient(ctx, { name: 'Conformance empty', [field]: '' }, `${field}-empty`);
  ctx.expect(isValidationError(empty), {
    expected: `400 { error, details } for ${field} "" on create`,
    actual: got(empty),
    exchange: empty,
    says: [o.says, 'validation failure, including unknown extra fields'],
  });
  const patch = await patchPatient(ctx, objOf(ok).id, { [field]: '' });
  ctx.expect(isValidationError(patch), {
    expected: `400 { error, details } for ${field} "" on PATCH`,
    actual: got(patch),
    exchange: patch,
    says: [o.says, 'validation failure, including unknown extra fields'],
  });
}
