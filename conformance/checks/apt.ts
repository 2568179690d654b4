// APT: appointments. Fields, create defaults and required fields, PATCH, filters and the lifecycle.
import type { CheckContext, CheckDef } from '../model.ts';
import type { Exchange } from '../http.ts';
import {
  type Obj,
  createAppointment,
  got,
  objOf,
  listOf,
  isValidationError,
  farFuture,
  enumOf,
  json,
  is2xx,
  made,
  SETUP,
} from './support/common.ts';
import { own, pathIdForm, UUID, DIGITS } from './support/operations.ts';
import {
  foreignProvider,
  refused,
  createdOk,
  pageAndLimit,
  metaOf,
  same,
  getAppointment,
  lifecycle,
  everyTransition,
} from './support/resources.ts';
import { check } from './support/define.ts';

const day = (d: Date) => d.toISOString().slice(0, 10);

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function patchAppointment(ctx: CheckContext, id: unknown, fields: Obj): Promise<Exchange> {
  return ctx.send({ method: 'PATCH', path: `/appointments/${String(id)}`, key: ctx.keys.main, json: fields });
}

/** The create body's required fields and defaults, as the spec gives them. */
function appointmentCreate(ctx: CheckContext): { required: string[]; defaults: Obj } {
  const schema = ctx.contract.resolve('#/components/schemas/AppointmentCreate') as {
    required?: string[];
    properties?: Record<string, { default?: unknown }>;
  };
  const defaults = Object.fromEntries(
    Object.entries(schema.properties ?? {}).flatMap(([k, v]) => ('default' in v ? [[k, v.default]] : [])),
  );
  return { required: schema.required ?? [], defaults };
}

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
    });
  }
  const bad = await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { date: 'not-a-date' } });
  ctx.expect(bad.response.status === 400, { expected: '400 for date=not-a-date', actual: got(bad), exchange: bad });
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
  });
  const list = await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { limit: 20 } });
  ctx.expect(!/"patient_id"\s*:\s*\d/.test(list.response.text), {
    expected: 'every listed patient_id a JSON string',
    actual: list.response.text.slice(0, 300),
    exchange: list,
  });
  for (const x of listOf(list))
    ctx.expect(typeof x.patient_id === 'string' && DIGITS.test(x.patient_id), {
      expected: 'patient_id a string of digits',
      actual: json(x.patient_id),
      exchange: list,
    });
  for (const bad of [Number(pid.slice(0, 15)), `P${pid}`, `${pid.slice(0, 5)}-${pid.slice(5)}`]) {
    const ex = await createAppointment(ctx, bad as unknown as string);
    ctx.expect(isValidationError(ex), {
      expected: `400 { error, details } for patient_id ${json(bad)} (not a string of digits)`,
      actual: got(ex),
      exchange: ex,
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
  });
  const prv = (await ctx.fixtures.providers()).find((x) => typeof x.id === 'string');
  if (prv) {
    const given = await createAppointment(ctx, String(p.id), { provider_id: prv.id });
    ctx.expect(createdOk(given) && objOf(given).provider_id === prv.id, {
      expected: `2xx with provider_id "${String(prv.id)}" as sent`,
      actual: got(given),
      exchange: given,
    });
  }
  const empty = await createAppointment(ctx, String(p.id), { provider_id: '' });
  ctx.expect(isValidationError(empty), { expected: '400 { error, details } for provider_id ""', actual: got(empty), exchange: empty });
}

export async function appointment_start_at_date_time(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const utc = farFuture();
  const offset = utc.replace(/\.\d+Z$/, '+02:00');
  for (const sent of [utc, offset]) {
    const a = await createAppointment(ctx, String(p.id), { start_at: sent });
    const back = objOf(a).start_at;
    ctx.expect(createdOk(a) && typeof back === 'string' && ISO_DATE_TIME.test(back) && Date.parse(back) === Date.parse(sent), {
      expected: `2xx with start_at an ISO 8601 date-time of the instant ${new Date(Date.parse(sent)).toISOString()} (sent ${sent})`,
      actual: got(a),
      exchange: a,
    });
  }
  for (const bad of [utc.slice(0, 10), 'next tuesday 10am', String(Date.parse(utc))]) {
    const ex = await createAppointment(ctx, String(p.id), { start_at: bad });
    ctx.expect(isValidationError(ex), {
      expected: `400 { error, details } for start_at ${json(bad)} (not a date-time)`,
      actual: got(ex),
      exchange: ex,
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
  });
  for (const bad of [0, 30.5, '30']) {
    const ex = await createAppointment(ctx, String(p.id), { duration_minutes: bad });
    ctx.expect(isValidationError(ex), {
      expected: `400 { error, details } for duration_minutes ${json(bad)}`,
      actual: got(ex),
      exchange: ex,
    });
  }
  if (!createdOk(one)) return;
  const patch = await patchAppointment(ctx, objOf(one).id, { duration_minutes: 45 });
  ctx.expect(patch.response.status === 200 && objOf(patch).duration_minutes === 45, {
    expected: '200 with duration_minutes 45 after PATCH',
    actual: got(patch),
    exchange: patch,
  });
  for (const bad of [0]) {
    const ex = await patchAppointment(ctx, objOf(one).id, { duration_minutes: bad });
    ctx.expect(isValidationError(ex), {
      expected: `400 { error, details } for PATCH duration_minutes ${json(bad)}`,
      actual: got(ex),
      exchange: ex,
    });
  }
}

export async function appointments_list_parameters(ctx: CheckContext): Promise<void> {
  const items = await pageAndLimit(ctx, '/appointments');
  for (const a of items)
    ctx.expect(typeof a.id === 'string' && typeof a.patient_id === 'string' && typeof a.start_at === 'string', {
      expected: 'each item an appointment { id, patient_id, start_at, ... }',
      actual: json(a).slice(0, 200),
    });
  let withExt = items.find((x) => typeof x.external_id === 'string');
  if (!withExt) {
    const more = await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { limit: 100 } });
    withExt = listOf(more).find((x) => typeof x.external_id === 'string');
  }
  if (!withExt) return;
  const ex = await ctx.send({
    method: 'GET',
    path: '/appointments',
    key: ctx.keys.main,
    query: { external_id: String(withExt.external_id) },
  });
  ctx.expect(ex.response.status === 200 && listOf(ex).length === 1 && listOf(ex)[0]?.id === withExt.id && !!metaOf(ex), {
    expected: `200 { data: [appointment ${String(withExt.id)}], meta } for external_id ${String(withExt.external_id)}`,
    actual: got(ex),
    exchange: ex,
  });
}

export async function appointment_create_all_fields(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const providers = await ctx.fixtures.providers();
  const prv = providers.find((x) => x.id !== ctx.keys.mainProvider) ?? providers[0];
  const statuses = enumOf(ctx, 'AppointmentStatus');
  const visits = enumOf(ctx, 'VisitType');
  const { defaults } = appointmentCreate(ctx);
  const sent: Obj = {
    patient_id: String(p.id),
    appointment_type: 'Follow-up',
    // Not the defaults, so the values must come from the body.
    visit_type: visits.find((v) => v !== defaults.visit_type) ?? visits[0],
    start_at: farFuture(),
    duration_minutes: 45,
    ...(prv ? { provider_id: prv.id } : {}),
    notes: 'Conformance: every create field',
    status: statuses.find((s) => s !== defaults.status) ?? statuses[0],
    // repeat_rule's input shape is the kit's assumption (APT-024): sent with --profile all only.
    ...(ctx.profile === 'all' ? { repeat_rule: { frequency: 'weekly', interval: 2, end_date: '2099-12-31' } } : {}),
    external_id: ctx.externalId('all-fields'),
  };
  const ex = await ctx.send({ method: 'POST', path: '/appointments', key: ctx.keys.main, json: sent });
  const d = objOf(ex);
  if (
    !ctx.expect(createdOk(ex), { expected: '2xx { data: Appointment } for a body with every create field', actual: got(ex), exchange: ex })
  )
    return;
  const differs = Object.entries(sent)
    .filter(([k, v]) => (k === 'start_at' ? Date.parse(String(d[k])) !== Date.parse(String(v)) : !same(d[k], v)))
    .map(([k]) => k);
  ctx.expect(!differs.length, {
    expected: `data carries every field as sent (${Object.keys(sent).join(', ')})`,
    actual: `differs: ${differs.join(', ')} — ${got(ex)}`,
    exchange: ex,
  });
}

export async function appointment_patch_reassigns_provider(ctx: CheckContext): Promise<void> {
  const providers = (await ctx.fixtures.providers()).filter((x) => typeof x.id === 'string');
  if (providers.length < 2) return ctx.skip(`the organization lists ${providers.length} provider(s): reassigning needs 2`);
  const p = await ctx.fixtures.patient();
  const [from, to] = providers as [Obj, Obj];
  const a = await createAppointment(ctx, String(p.id), { provider_id: from.id });
  if (
    !ctx.expect(createdOk(a) && objOf(a).provider_id === from.id, {
      expected: `2xx with provider_id ${String(from.id)}`,
      actual: got(a),
      exchange: a,
    })
  )
    return;
  const patch = await patchAppointment(ctx, objOf(a).id, { provider_id: to.id });
  ctx.expect(patch.response.status === 200 && objOf(patch).provider_id === to.id, {
    expected: `200 with provider_id ${String(to.id)} after PATCH { provider_id }`,
    actual: got(patch),
    exchange: patch,
  });
  const read = await getAppointment(ctx, objOf(a).id);
  ctx.expect(objOf(read).provider_id === to.id, {
    expected: `GET answers provider_id ${String(to.id)} (reassigned)`,
    actual: got(read),
    exchange: read,
  });
}

export async function appointment_create_required_and_defaults(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const { required, defaults } = appointmentCreate(ctx);
  const values: Obj = { patient_id: String(p.id), start_at: farFuture(), duration_minutes: 30 };
  const minimal = Object.fromEntries(required.map((k) => [k, values[k]]));
  const ok = await ctx.send({
    method: 'POST',
    path: '/appointments',
    key: ctx.keys.main,
    json: { ...minimal, external_id: ctx.externalId('minimal') },
  });
  const off = Object.entries(defaults)
    .filter(([k, v]) => objOf(ok)[k] !== v)
    .map(([k]) => k);
  ctx.expect(createdOk(ok) && !off.length, {
    expected: `2xx with the defaults ${json(defaults)} for a body of ${required.join(', ')} only`,
    actual: got(ok),
    exchange: ok,
  });
  for (const field of Object.keys(minimal)) {
    const rest = Object.fromEntries(Object.entries(minimal).filter(([k]) => k !== field));
    const ex = await ctx.send({
      method: 'POST',
      path: '/appointments',
      key: ctx.keys.main,
      json: { ...rest, external_id: ctx.externalId('missing') },
    });
    ctx.expect(isValidationError(ex), { expected: `400 { error, details } for a create without ${field}`, actual: got(ex), exchange: ex });
  }
}

export async function appointment_repeat_rule_input(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const cases: Array<[Obj, Obj]> = [
    [{ frequency: 'weekly' }, { frequency: 'weekly', interval: 1 }],
    [
      { frequency: 'daily', interval: 3, end_date: '2099-12-31' },
      { frequency: 'daily', interval: 3, end_date: '2099-12-31' },
    ],
  ];
  for (const [rule, want] of cases) {
    const a = await createAppointment(ctx, String(p.id), { repeat_rule: rule, start_at: farFuture() });
    const back = (objOf(a).repeat_rule ?? {}) as Obj;
    const off = Object.entries(want)
      .filter(([k, v]) => back[k] !== v)
      .map(([k]) => k);
    ctx.expect(createdOk(a) && !off.length, {
      expected: `2xx with repeat_rule ${json(want)} for repeat_rule ${json(rule)}`,
      actual: got(a),
      exchange: a,
    });
  }
  for (const bad of [{ interval: 2 }, { frequency: 'weekly', interval: 0 }, { frequency: 'weekly', end_date: 'soon' }]) {
    const ex = await createAppointment(ctx, String(p.id), { repeat_rule: bad });
    ctx.expect(isValidationError(ex), { expected: `400 { error, details } for repeat_rule ${json(bad)}`, actual: got(ex), exchange: ex });
  }
}

export async function appointment_patch_fields_optional(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const other = await ctx.fixtures.createPatient('appt-patch-patient');
  const a = await createAppointment(ctx, String(p.id));
  if (!ctx.expect(createdOk(a), { expected: '2xx for an appointment to patch', actual: got(a), exchange: a })) return;
  const providers = await ctx.fixtures.providers();
  const prv = providers.find((x) => x.id !== objOf(a).provider_id) ?? providers[0];
  const fields: Obj = {
    patient_id: String(other.id),
    appointment_type: 'Patched type',
    visit_type: 'Both',
    start_at: farFuture(),
    duration_minutes: 50,
    notes: 'Conformance: patched alone',
    status: 'COMPLETED',
    ...(prv ? { provider_id: prv.id } : {}),
  };
  const id = objOf(a).id;
  // Disjoint groups of fields, one PATCH each: every field is sent once and left out of the other PATCHes.
  const entries = Object.entries(fields);
  for (let i = 0; i < entries.length; i += 3) {
    const group = Object.fromEntries(entries.slice(i, i + 3));
    const ex = await patchAppointment(ctx, id, group);
    const off = Object.entries(group)
      .filter(([k, v]) => (k === 'start_at' ? Date.parse(String(objOf(ex)[k])) !== Date.parse(String(v)) : !same(objOf(ex)[k], v)))
      .map(([k]) => k);
    ctx.expect(ex.response.status === 200 && !off.length, {
      expected: `200 with ${json(group)} applied for a PATCH of only those fields`,
      actual: `${off.length ? `differs: ${off.join(', ')} — ` : ''}${got(ex)}`,
      exchange: ex,
    });
  }
  const empty = await patchAppointment(ctx, id, {});
  ctx.expect(isValidationError(empty), {
    expected: '400 { error, details } for PATCH with an empty body {}',
    actual: got(empty),
    exchange: empty,
  });
}

export async function appointment_status_any_transition(ctx: CheckContext): Promise<void> {
  const statuses = enumOf(ctx, 'AppointmentStatus');
  if (statuses.length < 2) return ctx.skip('the spec lists fewer than 2 appointment statuses');
  const p = await ctx.fixtures.patient();
  const start = statuses[0]!;
  const a = await createAppointment(ctx, String(p.id), { status: start });
  if (!ctx.expect(createdOk(a) && objOf(a).status === start, { expected: `2xx with status ${start}`, actual: got(a), exchange: a })) return;
  const walk = everyTransition(statuses, start);
  for (let i = 1; i < walk.length; i++) {
    const ex = await patchAppointment(ctx, objOf(a).id, { status: walk[i] });
    if (
      !ctx.expect(ex.response.status === 200 && objOf(ex).status === walk[i], {
        expected: `200 with status ${walk[i]} for ${walk[i - 1]} → ${walk[i]}`,
        actual: got(ex),
        exchange: ex,
      })
    )
      return;
  }
}

export async function appointment_create_201(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const a = await createAppointment(ctx, String(p.id));
  ctx.expect(a.response.status === 201 && typeof objOf(a).id === 'string', {
    expected: '201 { data: Appointment } for a valid POST /appointments',
    actual: got(a),
    exchange: a,
  });
}

export async function appointment_lifecycle(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const a = await createAppointment(ctx, String(p.id));
  await lifecycle(ctx, made(a, 'a new appointment (POST /appointments)', SETUP.appointment), '/appointments', '/appointments', {
    notes: 'Updated by the conformance suite',
    duration_minutes: 45,
  });
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
  check(appointments_list_parameters, { rule: 'APT-014' }),
  check(appointment_create_all_fields, { rule: 'APT-016', needs: { write: true } }),
  check(appointment_patch_reassigns_provider, { rule: 'APT-019', needs: { write: true } }),
  check(appointment_create_required_and_defaults, { rule: 'APT-023', provenance: 'assumed', needs: { write: true } }),
  check(appointment_repeat_rule_input, { rule: 'APT-024', provenance: 'assumed', needs: { write: true } }),
  check(appointment_patch_fields_optional, { rule: 'APT-025', provenance: 'assumed', covers: ['APT-018'], needs: { write: true } }),
  check(appointment_status_any_transition, { rule: 'APT-026', provenance: 'assumed', needs: { write: true } }),
  check(appointment_create_201, { rule: 'APT-028', provenance: 'assumed', needs: { write: true } }),
  check(appointment_lifecycle, { rule: 'APT-020', needs: { write: true } }),
];
