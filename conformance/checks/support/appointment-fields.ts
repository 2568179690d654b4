// The appointment checks' shared helpers (checks/apt/): a date's day, the ISO 8601 date-time form, a PATCH, and
// what a create requires.
import type { CheckContext } from '../../model.ts';
import type { Exchange } from '../../http.ts';
import type { Obj } from './common.ts';

export const day = (d: Date) => d.toISOString().slice(0, 10);

export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export function patchAppointment(ctx: CheckContext, id: unknown, fields: Obj): Promise<Exchange> {
  return ctx.send({ method: 'PATCH', path: `/appointments/${String(id)}`, key: ctx.keys.main, json: fields });
}

/** The create body's required fields and defaults, as the spec gives them. */
export function appointmentCreate(ctx: CheckContext): { required: string[]; defaults: Obj } {
  const schema = ctx.contract.resolve('#/components/schemas/AppointmentCreate') as {
    required?: string[];
    properties?: Record<string, { default?: unknown }>;
  };
  const defaults = Object.fromEntries(
    Object.entries(schema.properties ?? {}).flatMap(([k, v]) => ('default' in v ? [[k, v.default]] : [])),
  );
  return { required: schema.required ?? [], defaults };
}
