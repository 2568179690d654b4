// APT: appointments, their writes: list parameters, create with every field, required fields and defaults, PATCH,
// repeat_rule, status changes and the lifecycle.
import type { CheckContext, CheckDef } from '../../run/model.ts';
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
  made,
  SETUP,
} from '../support/common.ts';
import { createdOk, instantOf, pageAndLimit, metaOf, sameField, getAppointment, lifecycle, everyTransition } from '../support/resources.ts';
import { check } from '../support/define.ts';
import { patchAppointment, appointmentCreate } from '../support/appointment-fields.ts';

export async function appointments_list_parameters(ctx: CheckContext): Promise<void> {
  const items = await pageAndLimit(ctx, '/appointments');
  for (const a of items)
    ctx.expect(typeof a.id === 'string' && typeof a.patient_id === 'string' && typeof a.start_at === 'string', {
      expected: 'each item an appointment { id, patient_id, start_at, ... }',
      actual: json(a).slice(0, 200),
      says: [
        'plus filters by a single date, a start date and an end date (all YYYY-MM-DD) | {data: [Appointment], meta}',
        'id | UUID string',
        'patient_id | string matching ^\\d+$',
        'start_at | ISO 8601 datetime',
      ],
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
    says: [
      'plus filters by a single date, a start date and an end date (all YYYY-MM-DD) | {data: [Appointment], meta}',
      'list endpoints accept external_id=<value>; on a hit the normal list shape is returned with a one-item data array',
    ],
  });
}

export async function appointment_create_all_fields(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const providers = await ctx.fixtures.providers();
  const prv = providers.find((x) => x.id !== ctx.keys.mainProvider) ?? providers[0];
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
    // A status every reading's create takes (SCHEDULED): which statuses a create may set is not shown (spec/readings.yaml,
    // status-transitions-checked); another one on create is the kit's reading, appointment_status_any_transition's (APT-026).
    status: 'SCHEDULED',
    // repeat_rule's input shape is not shown: the kit's (APT-024) is appointment_repeat_rule_input's, so none is sent here.
    external_id: ctx.externalId('all-fields'),
  };
  const ex = await ctx.send({ method: 'POST', path: '/appointments', key: ctx.keys.main, json: sent });
  const d = objOf(ex);
  if (
    !ctx.expect(createdOk(ex), {
      expected: '2xx { data: Appointment } for a body with every create field but repeat_rule',
      actual: got(ex),
      exchange: ex,
      says: 'POST | /appointments | appointments:write | JSON: patient_id, appointment_type, visit_type, start_at, duration_minutes, provider_id, notes, status, repeat_rule, external_id | {data: Appointment}',
    })
  )
    return;
  const differs = Object.entries(sent)
    .filter(([k, v]) => (k === 'start_at' ? instantOf(String(d[k])) !== instantOf(String(v)) : !sameField(k, d[k], v)))
    .map(([k]) => k);
  ctx.expect(!differs.length, {
    expected: `data carries every field as sent (${Object.keys(sent).join(', ')})`,
    actual: `differs: ${differs.join(', ')} — ${got(ex)}`,
    exchange: ex,
    says: 'POST | /appointments | appointments:write | JSON: patient_id, appointment_type, visit_type, start_at, duration_minutes, provider_id, notes, status, repeat_rule, external_id | {data: Appointment}',
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
      says: 'provider_id | string, min length 1 | optional on create',
    })
  )
    return;
  const patch = await patchAppointment(ctx, objOf(a).id, { provider_id: to.id });
  ctx.expect(patch.response.status === 200 && objOf(patch).provider_id === to.id, {
    expected: `200 with provider_id ${String(to.id)} after PATCH { provider_id }`,
    actual: got(patch),
    exchange: patch,
    says: 'JSON: patient_id, provider_id (reassign)',
  });
  const read = await getAppointment(ctx, objOf(a).id);
  ctx.expect(objOf(read).provider_id === to.id, {
    expected: `GET answers provider_id ${String(to.id)} (reassigned)`,
    actual: got(read),
    exchange: read,
    says: ['JSON: patient_id, provider_id (reassign)', '/appointments/{appointmentId} | appointments:read | none | {data: Appointment}'],
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
    says: [
      'Which appointment create fields are mandatory: not shown.',
      'kit: patient_id, start_at and duration_minutes are required; visit_type defaults to In-Person, status to SCHEDULED',
    ],
  });
  for (const field of Object.keys(minimal)) {
    const rest = Object.fromEntries(Object.entries(minimal).filter(([k]) => k !== field));
    const ex = await ctx.send({
      method: 'POST',
      path: '/appointments',
      key: ctx.keys.main,
      json: { ...rest, external_id: ctx.externalId('missing') },
    });
    ctx.expect(isValidationError(ex), {
      expected: `400 { error, details } for a create without ${field}`,
      actual: got(ex),
      exchange: ex,
      says: [
        'Which appointment create fields are mandatory: not shown.',
        'kit: patient_id, start_at and duration_minutes are required; a create without one is refused 400',
      ],
    });
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
      says: [
        'output carries frequency (string), interval (integer), end_date (date YYYY-MM-DD)',
        'Input fields of repeat_rule on create: not shown.',
        'kit: repeat_rule input is {frequency (required), interval (integer >= 1, default 1), end_date (date, optional)}',
      ],
    });
  }
  for (const bad of [{ interval: 2 }, { frequency: 'weekly', interval: 0 }, { frequency: 'weekly', end_date: 'soon' }]) {
    const ex = await createAppointment(ctx, String(p.id), { repeat_rule: bad });
    ctx.expect(isValidationError(ex), {
      expected: `400 { error, details } for repeat_rule ${json(bad)}`,
      actual: got(ex),
      exchange: ex,
      says: [
        'Input fields of repeat_rule on create: not shown.',
        'kit: a repeat_rule without frequency, with interval 0 or with an end_date not YYYY-MM-DD is refused 400',
      ],
    });
  }
}

export async function appointment_patch_fields_optional(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const other = await ctx.fixtures.createPatient('appt-patch-patient');
  const a = await createAppointment(ctx, String(p.id));
  if (
    !ctx.expect(createdOk(a), {
      expected: '2xx for an appointment to patch',
      actual: got(a),
      exchange: a,
      says: 'POST | /appointments | appointments:write | JSON: patient_id, appointment_type, visit_type, start_at, duration_minutes, provider_id, notes, status, repeat_rule, external_id | {data: Appointment}',
    })
  )
    return;
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
      .filter(([k, v]) => (k === 'start_at' ? instantOf(String(objOf(ex)[k])) !== instantOf(String(v)) : !sameField(k, objOf(ex)[k], v)))
      .map(([k]) => k);
    ctx.expect(ex.response.status === 200 && !off.length, {
      expected: `200 with ${json(group)} applied for a PATCH of only those fields`,
      actual: `${off.length ? `differs: ${off.join(', ')} — ` : ''}${got(ex)}`,
      exchange: ex,
      says: ['Which PATCH appointment fields may be omitted: not shown.', 'kit: every PATCH field may be omitted'],
    });
  }
  const empty = await patchAppointment(ctx, id, {});
  ctx.expect(isValidationError(empty), {
    expected: '400 { error, details } for PATCH with an empty body {}',
    actual: got(empty),
    exchange: empty,
    says: ['Which PATCH appointment fields may be omitted: not shown.', 'kit: a PATCH body holds at least one field; {} is refused 400'],
  });
}

export async function appointment_status_any_transition(ctx: CheckContext): Promise<void> {
  const statuses = enumOf(ctx, 'AppointmentStatus');
  if (statuses.length < 2) return ctx.skip('the spec lists fewer than 2 appointment statuses');
  const p = await ctx.fixtures.patient();
  const start = statuses[0]!;
  const a = await createAppointment(ctx, String(p.id), { status: start });
  if (
    !ctx.expect(createdOk(a) && objOf(a).status === start, {
      expected: `2xx with status ${start}`,
      actual: got(a),
      exchange: a,
      says: ['Transitions: not shown.', 'kit: any status may be set on create'],
    })
  )
    return;
  const walk = everyTransition(statuses, start);
  for (let i = 1; i < walk.length; i++) {
    const ex = await patchAppointment(ctx, objOf(a).id, { status: walk[i] });
    if (
      !ctx.expect(ex.response.status === 200 && objOf(ex).status === walk[i], {
        expected: `200 with status ${walk[i]} for ${walk[i - 1]} → ${walk[i]}`,
        actual: got(ex),
        exchange: ex,
        says: ['Transitions: not shown.', 'kit: any status may change to any other'],
      })
    )
      return;
  }
  // And a create may set a status other than the default one.
  const { defaults } = appointmentCreate(ctx);
  const other = statuses.find((s) => s !== defaults.status);
  if (!other) return;
  const b = await createAppointment(ctx, String(p.id), { status: other });
  ctx.expect(createdOk(b) && objOf(b).status === other, {
    expected: `2xx with status ${other} for a create that sends it`,
    actual: got(b),
    exchange: b,
    says: ['Transitions: not shown.', 'kit: any status may be set on create'],
  });
}

export async function appointment_create_201(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const a = await createAppointment(ctx, String(p.id));
  ctx.expect(a.response.status === 201 && typeof objOf(a).id === 'string', {
    expected: '201 { data: Appointment } for a valid POST /appointments',
    actual: got(a),
    exchange: a,
    says: ['Per-endpoint assignment of status codes beyond those above: not shown.', 'kit: every create answers 201'],
  });
}

export async function appointment_lifecycle(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const a = await createAppointment(ctx, String(p.id));
  await lifecycle(ctx, made(a, 'a new appointment (POST /appointments)', SETUP.appointment), '/appointments', '/appointments', {
    notes: 'Updated by the conformance suite',
    // Moved as a whole: a server may require start_at with duration_minutes (patchAppointment says why).
    start_at: farFuture(),
    duration_minutes: 45,
  });
}

export const checks: CheckDef[] = [
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
