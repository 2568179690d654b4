// The appointment checks' shared helpers (checks/apt/): a date's day, the ISO 8601 date-time form, a PATCH, and
// what a create requires.
import type { CheckContext } from '../../run/model.ts';
import type { Exchange } from '../../../judge/define.ts';
import { objOf, type Obj } from './common.ts';

export const day = (d: Date) => d.toISOString().slice(0, 10);

/** ISO 8601's date-time, extended form: seconds, fraction and offset optional (an offset may also read +0200 or +02). */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}([.,]\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;

/**
 * A PATCH of an appointment. One that moves it sends start_at and duration_minutes together, the second as the
 * appointment has it: "Which PATCH appointment fields may be omitted: not shown", and a server may require both
 * (spec/readings.yaml, time-change-together), so that only what the check is about can be wrong.
 */
export async function patchAppointment(ctx: CheckContext, id: unknown, fields: Obj): Promise<Exchange> {
  const path = `/appointments/${String(id)}`;
  let json = fields;
  if ('start_at' in fields !== 'duration_minutes' in fields) {
    const current = objOf(await ctx.send({ method: 'GET', path, key: ctx.keys.main }));
    const missing = 'start_at' in fields ? 'duration_minutes' : 'start_at';
    if (current[missing] !== undefined) json = { ...fields, [missing]: current[missing] };
  }
  return ctx.send({ method: 'PATCH', path, key: ctx.keys.main, json });
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
