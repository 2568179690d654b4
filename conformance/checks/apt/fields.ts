// APT: appointments, their fields: the date filters, the path id's form, the provider and patient fields, start_at
// and duration_minutes.
import type { CheckContext, CheckDef } from '../../run/model.ts';
import { createAppointment, got, objOf, listOf, isValidationError, farFuture, json, is2xx, made, SETUP } from '../support/common.ts';
import { own, pathIdForm, UUID, DIGITS } from '../support/operations.ts';
import { foreignProvider, instantOf, refused, createdOk } from '../support/resources.ts';
import { check } from '../support/define.ts';
import { day, ISO_DATE_TIME, patchAppointment } from '../support/appointment-fields.ts';

export async function appointment_date_filters(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  // A random day between 2090 and 2099, so runs (and other data) do not share it.
  const base = Date.UTC(2090, 0, 1) + Math.floor(Math.random() * 3000) * 86_400_000;
  const days = [0, 1, 2].map((i) => new Date(base + i * 86_400_000 + 10 * 3_600_000));
  const ids: string[] = [];
  for (const d of days) {
    const a = await createAppointment(ctx, String(p.id), { start_at: d.toISOString() });
    ids.push(made(a, 'an appointment on a far-future day (POST /appointments)', SETUP.appointment).id);
  }
  const [d1, d2, d3] = days.map(day) as [string, string, string];
  const [a1, a2, a3] = ids as [string, string, string];
  // [query, this run's appointments that must be listed, the ones that must not, the range every item keeps to]
  const cases: Array<[Record<string, string>, string[], string[], (date: string) => boolean]> = [
    [{ date: d2 }, [a2], [a1, a3], (x) => x === d2],
    [{ start_date: d2, end_date: d3 }, [a2, a3], [a1], (x) => x >= d2 && x <= d3],
    [{ start_date: d1, end_date: d2 }, [a1, a2], [a3], (x) => x >= d1 && x <= d2],
    [{ start_date: d3 }, [a3], [a1, a2], (x) => x >= d3],
    // end_date alone reaches every older appointment: only what must be absent, and the range, are known.
    [{ end_date: d1 }, [], [a2, a3], (x) => x <= d1],
  ];
  for (const [query, want, never, inRange] of cases) {
    const ex = await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { ...query, limit: 100 } });
    const items = listOf(ex);
    const ours = items
      .filter((a) => ids.includes(String(a.id)))
      .map((a) => String(a.id))
      .sort();
    const outside = items.filter((a) => !inRange(String(a.start_at ?? '').slice(0, 10)));
    const q = new URLSearchParams(query).toString();
    const ok = want.every((id) => ours.includes(id)) && !never.some((id) => ours.includes(id));
    ctx.expect(ex.response.status === 200 && ok && !outside.length, {
      expected: `200 listing [${want.join(', ')}] and not [${never.join(', ')}] of this run's appointments for ${q}, and nothing outside the range`,
      actual: `${ex.response.status}: this run's [${ours.join(', ')}]${outside.length ? `; outside: ${outside.map((a) => String(a.start_at)).join(', ')}` : ''}`,
      exchange: ex,
      says: [
        'plus filters by a single date, a start date and an end date (all YYYY-MM-DD)',
        'kit: the filters are date, start_date and end_date, inclusive, on the day of start_at',
      ],
    });
  }
  const bad = await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { date: 'not-a-date' } });
  ctx.expect(bad.response.status === 400, {
    expected: '400 for date=not-a-date',
    actual: got(bad),
    exchange: bad,
    says: ['(all YYYY-MM-DD)', 'kit: a date filter that is not YYYY-MM-DD is refused 400'],
  });
}

export async function appointment_id_path_uuid(ctx: CheckContext): Promise<void> {
  let appointment = listOf(await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { limit: 1 } }))[0];
  if (!appointment && !ctx.readOnly) appointment = (await own(ctx)).appointment;
  if (!appointment) return ctx.skip('the organization has no appointments to read');
  await pathIdForm(ctx, {
    param: 'appointmentId',
    form: UUID,
    formName: 'a UUID',
    id: String(appointment.id),
    requests: [{ method: 'GET', path: (id) => `/appointments/${id}` }],
  });
}

export async function appointment_provider_defaults_to_key_owner(ctx: CheckContext): Promise<void> {
  if (!ctx.keys.mainProvider) return ctx.skip('the provider that owns the key is unknown (the mock key list names none)');
  const p = await ctx.fixtures.patient();
  const a = await createAppointment(ctx, String(p.id));
  ctx.expect(is2xx(a) && objOf(a).provider_id === ctx.keys.mainProvider, {
    expected: `2xx with provider_id ${ctx.keys.mainProvider} (the key's provider) when none is sent`,
    actual: got(a),
    exchange: a,
    says: 'optional on create; defaults to the provider that owns the API key',
  });
}

export async function appointment_foreign_provider_refused(ctx: CheckContext): Promise<void> {
  const foreign = await foreignProvider(ctx);
  const p = await ctx.fixtures.patient();
  const create = await createAppointment(ctx, String(p.id), { provider_id: foreign.id });
  ctx.expect(refused(create), {
    expected: `a 4xx refusal for POST /appointments with ${foreign.from} as provider_id`,
    actual: got(create),
    exchange: create,
    says: 'optional on create; defaults to the provider that owns the API key; must be a provider of the organization',
  });
  const mine = await createAppointment(ctx, String(p.id));
  made(mine, 'an appointment of the run (POST /appointments)', SETUP.appointment);
  const patch = await ctx.send({
    method: 'PATCH',
    path: `/appointments/${String(objOf(mine).id)}`,
    key: ctx.keys.main,
    json: { provider_id: foreign.id },
  });
  ctx.expect(refused(patch), {
    expected: `a 4xx refusal for PATCH /appointments/{id} with ${foreign.from} as provider_id`,
    actual: got(patch),
    exchange: patch,
    says: [
      'optional on create; defaults to the provider that owns the API key; must be a provider of the organization',
      'provider_id (reassign)',
    ],
  });
}

export async function appointment_patient_id_digit_string(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const pid = String(p.id);
  const a = await createAppointment(ctx, pid);
  ctx.expect(createdOk(a) && objOf(a).patient_id === pid && !/"patient_id"\s*:\s*\d/.test(a.response.text), {
    expected: `2xx with "patient_id": "${pid}" (a JSON string of digits)`,
    actual: got(a),
    exchange: a,
    says: 'patient_id | string matching ^\\d+$',
  });
  const list = await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { limit: 20 } });
  ctx.expect(!/"patient_id"\s*:\s*\d/.test(list.response.text), {
    expected: 'every listed patient_id a JSON string',
    actual: list.response.text.slice(0, 300),
    exchange: list,
    says: 'patient_id | string matching ^\\d+$',
  });
  for (const x of listOf(list))
    ctx.expect(typeof x.patient_id === 'string' && DIGITS.test(x.patient_id), {
      expected: 'patient_id a string of digits',
      actual: json(x.patient_id),
      exchange: list,
      says: 'patient_id | string matching ^\\d+$',
    });
  // A JSON number is the same digits to a lenient parser (it coerces): judged only with --profile all.
  const bads = [`P${pid}`, `${pid.slice(0, 5)}-${pid.slice(5)}`, ...(ctx.profile === 'all' ? [Number(pid.slice(0, 15))] : [])];
  for (const bad of bads) {
    const ex = await createAppointment(ctx, bad as unknown as string);
    ctx.expect(isValidationError(ex), {
      expected: `400 { error, details } for patient_id ${json(bad)} (not a string of digits)`,
      actual: got(ex),
      exchange: ex,
      says: ['patient_id | string matching ^\\d+$', 'validation failure, including unknown extra fields'],
    });
  }
}

export async function appointment_provider_id_optional(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const none = await createAppointment(ctx, String(p.id));
  ctx.expect(createdOk(none) && typeof objOf(none).provider_id === 'string' && String(objOf(none).provider_id).length > 0, {
    expected: '2xx with a non-empty provider_id string for a create without provider_id',
    actual: got(none),
    exchange: none,
    says: 'provider_id | string, min length 1 | optional on create',
  });
  const prv = (await ctx.fixtures.providers()).find((x) => typeof x.id === 'string');
  if (prv) {
    const given = await createAppointment(ctx, String(p.id), { provider_id: prv.id });
    ctx.expect(createdOk(given) && objOf(given).provider_id === prv.id, {
      expected: `2xx with provider_id "${String(prv.id)}" as sent`,
      actual: got(given),
      exchange: given,
      says: 'provider_id | string, min length 1 | optional on create',
    });
  }
  const empty = await createAppointment(ctx, String(p.id), { provider_id: '' });
  ctx.expect(isValidationError(empty), {
    expected: '400 { error, details } for provider_id ""',
    actual: got(empty),
    exchange: empty,
    says: ['provider_id | string, min length 1 | optional on create', 'validation failure, including unknown extra fields'],
  });
}

export async function appointment_start_at_date_time(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const utc = farFuture();
  const offset = utc.replace(/\.\d+Z$/, '+02:00');
  for (const sent of [utc, offset]) {
    const a = await createAppointment(ctx, String(p.id), { start_at: sent });
    const back = objOf(a).start_at;
    ctx.expect(createdOk(a) && typeof back === 'string' && ISO_DATE_TIME.test(back) && instantOf(back) === Date.parse(sent), {
      expected: `2xx with start_at an ISO 8601 date-time of the instant ${new Date(Date.parse(sent)).toISOString()} (sent ${sent})`,
      actual: got(a),
      exchange: a,
      says: 'start_at | ISO 8601 datetime',
    });
  }
  // A date alone, or epoch milliseconds, some lenient parsers take as a date-time: judged only with --profile all.
  const bads = ctx.profile === 'all' ? [utc.slice(0, 10), 'next tuesday 10am', String(Date.parse(utc))] : ['next tuesday 10am'];
  for (const bad of bads) {
    const ex = await createAppointment(ctx, String(p.id), { start_at: bad });
    ctx.expect(isValidationError(ex), {
      expected: `400 { error, details } for start_at ${json(bad)} (not a date-time)`,
      actual: got(ex),
      exchange: ex,
      says: ['start_at | ISO 8601 datetime', 'validation failure, including unknown extra fields'],
    });
  }
}

export async function appointment_duration_minutes_integer(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const one = await createAppointment(ctx, String(p.id), { duration_minutes: 1 });
  ctx.expect(createdOk(one) && objOf(one).duration_minutes === 1, {
    expected: '2xx with duration_minutes 1 (the minimum)',
    actual: got(one),
    exchange: one,
    says: 'duration_minutes | integer, >= 1',
  });
  // "30" is an integer to a lenient parser (it coerces numeric strings): judged only with --profile all.
  for (const bad of ctx.profile === 'all' ? [0, 30.5, '30'] : [0, 30.5]) {
    const ex = await createAppointment(ctx, String(p.id), { duration_minutes: bad });
    ctx.expect(isValidationError(ex), {
      expected: `400 { error, details } for duration_minutes ${json(bad)}`,
      actual: got(ex),
      exchange: ex,
      says: ['duration_minutes | integer, >= 1', 'validation failure, including unknown extra fields'],
    });
  }
  if (!createdOk(one)) return;
  const patch = await patchAppointment(ctx, objOf(one).id, { duration_minutes: 45 });
  ctx.expect(patch.response.status === 200 && objOf(patch).duration_minutes === 45, {
    expected: '200 with duration_minutes 45 after PATCH',
    actual: got(patch),
    exchange: patch,
    says: [
      'duration_minutes | integer, >= 1',
      'JSON: patient_id, provider_id (reassign), appointment_type, visit_type, start_at, duration_minutes, notes, status | {data: Appointment}',
    ],
  });
  for (const bad of [0]) {
    const ex = await patchAppointment(ctx, objOf(one).id, { duration_minutes: bad });
    ctx.expect(isValidationError(ex), {
      expected: `400 { error, details } for PATCH duration_minutes ${json(bad)}`,
      actual: got(ex),
      exchange: ex,
      says: ['duration_minutes | integer, >= 1', 'validation failure, including unknown extra fields'],
    });
  }
}

export const checks: CheckDef[] = [
  check(appointment_date_filters, { rule: 'APT-027', provenance: 'assumed', covers: ['APT-015'], needs: { write: true } }),
  check(appointment_id_path_uuid, { rule: 'APT-022' }),
  check(appointment_provider_defaults_to_key_owner, { rule: 'APT-005', needs: { write: true, mock: true } }),
  check(appointment_foreign_provider_refused, { rule: 'APT-006', needs: { write: true } }),
  check(appointment_patient_id_digit_string, { rule: 'APT-002', needs: { write: true } }),
  check(appointment_provider_id_optional, { rule: 'APT-004', needs: { write: true } }),
  check(appointment_start_at_date_time, { rule: 'APT-009', needs: { write: true } }),
  check(appointment_duration_minutes_integer, { rule: 'APT-010', needs: { write: true } }),
];
