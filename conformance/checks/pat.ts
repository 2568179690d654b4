// PAT: patients. Fields, create variants, defaults, search and list parameters, each judged on its own patient.
import type { CheckContext, CheckDef } from '../model.ts';
import type { Exchange } from '../http.ts';
import {
  type Obj,
  objOf,
  got,
  isValidationError,
  createAppointment,
  listOf,
  targets,
  gen,
  json,
  is2xx,
  made,
  SETUP,
} from './support/common.ts';
import { postPatient, getPatient, foreignProvider, refused, same, token, pageAndLimit, metaOf, lifecycle } from './support/resources.ts';
import { pathIdForm, DIGITS } from './support/operations.ts';
import { check } from './support/define.ts';

function patchPatient(ctx: CheckContext, id: unknown, fields: Obj): Promise<Exchange> {
  return ctx.send({ method: 'PATCH', path: `/patients/${String(id)}`, key: ctx.keys.main, json: fields });
}

/**
 * A string field of the patient with minLength 1: a one-character value is accepted and kept on create and read
 * back; an empty one is refused with 400 on create and on PATCH.
 */
async function patientNameField(ctx: CheckContext, field: 'first_name' | 'last_name') {
  const ok = await postPatient(ctx, { [field]: 'Q' }, field);
  if (
    !ctx.expect(is2xx(ok) && objOf(ok)[field] === 'Q', {
      expected: `2xx with ${field} "Q" (one character, the only name field)`,
      actual: got(ok),
      exchange: ok,
    })
  )
    return;
  const read = await getPatient(ctx, objOf(ok).id);
  ctx.expect(objOf(read)[field] === 'Q', { expected: `GET answers ${field} "Q"`, actual: got(read), exchange: read });
  const empty = await postPatient(ctx, { name: 'Conformance empty', [field]: '' }, `${field}-empty`);
  ctx.expect(isValidationError(empty), {
    expected: `400 { error, details } for ${field} "" on create`,
    actual: got(empty),
    exchange: empty,
  });
  const patch = await patchPatient(ctx, objOf(ok).id, { [field]: '' });
  ctx.expect(isValidationError(patch), {
    expected: `400 { error, details } for ${field} "" on PATCH`,
    actual: got(patch),
    exchange: patch,
  });
}

export async function patient_id_path_digits(ctx: CheckContext): Promise<void> {
  const patient = await ctx.fixtures.patient();
  await pathIdForm(ctx, {
    param: 'patientId',
    form: DIGITS,
    formName: 'a string of digits',
    id: String(patient.id),
    requests: [
      { method: 'GET', path: (id) => `/patients/${id}` },
      { method: 'GET', path: (id) => `/patients/${id}/documents` },
    ],
  });
}

export async function patient_id_kept_exact(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.createPatient('exact');
  const id = String(p.id);
  const read = await ctx.send({ method: 'GET', path: `/patients/${id}`, key: ctx.keys.main });
  ctx.expect(objOf(read).id === id, { expected: `id exactly "${id}"`, actual: got(read), exchange: read });
  const appt = await createAppointment(ctx, id);
  ctx.expect(objOf(appt).patient_id === id, { expected: `appointment patient_id exactly "${id}"`, actual: got(appt), exchange: appt });
}

export async function patient_list_items_without_detail_fields(ctx: CheckContext): Promise<void> {
  // Detail-only fields: in Patient but not in PatientListItem (read from the spec).
  const detail = Object.keys((ctx.contract.resolve('#/components/schemas/Patient') as { properties: object }).properties);
  const item = Object.keys((ctx.contract.resolve('#/components/schemas/PatientListItem') as { properties: object }).properties);
  const only = detail.filter((f) => !item.includes(f));
  await ctx.fixtures.patient();
  const ex = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { limit: 20 } });
  for (const p of listOf(ex)) {
    const present = only.filter((f) => f in p);
    ctx.expect(!present.length, {
      expected: `list items without ${only.join(', ')}`,
      actual: `${String(p.id)} carries ${present.join(', ')}`,
      exchange: ex,
    });
  }
  const p = await ctx.fixtures.patient();
  const one = await ctx.send({ method: 'GET', path: `/patients/${String(p.id)}`, key: ctx.keys.main });
  ctx.expect('consent' in objOf(one), { expected: 'get-by-id carries consent', actual: got(one), exchange: one });
}

export async function name_only_patient_consent_false(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.createPatient('consent');
  ctx.expect(p.consent === false, { expected: 'consent false for a patient created with only a name', actual: JSON.stringify(p) });
}

export async function name_built_from_first_and_last(ctx: CheckContext): Promise<void> {
  const ex = await ctx.send({
    method: 'POST',
    path: '/patients',
    key: ctx.keys.main,
    json: { first_name: 'Ada', last_name: 'Conformance', external_id: ctx.externalId('names') },
  });
  const name = String(objOf(ex).name ?? '');
  ctx.expect(is2xx(ex) && name.includes('Ada') && name.includes('Conformance'), {
    expected: '2xx with a name built from first_name and last_name',
    actual: got(ex),
    exchange: ex,
  });
}

export async function patient_provider_defaults_to_key_owner(ctx: CheckContext): Promise<void> {
  if (!ctx.keys.mainProvider) return ctx.skip('the provider that owns the key is unknown (the mock key list names none)');
  const p = await ctx.fixtures.createPatient('provider-default');
  ctx.expect(p.provider_id === ctx.keys.mainProvider, {
    expected: `provider_id ${ctx.keys.mainProvider} (the key's provider) when none is sent`,
    actual: JSON.stringify(p.provider_id),
  });
}

export async function patient_foreign_provider_refused(ctx: CheckContext): Promise<void> {
  const foreign = await foreignProvider(ctx);
  const create = await ctx.send({
    method: 'POST',
    path: '/patients',
    key: ctx.keys.main,
    json: { name: 'Conformance foreign provider', external_id: ctx.externalId('foreign-prv'), provider_id: foreign.id },
  });
  ctx.expect(refused(create), {
    expected: `a 4xx refusal for POST /patients with ${foreign.from} as provider_id`,
    actual: got(create),
    exchange: create,
  });
  const p = await ctx.fixtures.patient();
  const patch = await ctx.send({
    method: 'PATCH',
    path: `/patients/${String(p.id)}`,
    key: ctx.keys.main,
    json: { provider_id: foreign.id },
  });
  ctx.expect(refused(patch), {
    expected: `a 4xx refusal for PATCH /patients/{id} with ${foreign.from} as provider_id`,
    actual: got(patch),
    exchange: patch,
  });
}

export function patient_first_name_min_length(ctx: CheckContext): Promise<void> {
  return patientNameField(ctx, 'first_name');
}

export function patient_last_name_min_length(ctx: CheckContext): Promise<void> {
  return patientNameField(ctx, 'last_name');
}

export async function patient_date_of_birth_format(ctx: CheckContext): Promise<void> {
  const dob = '1984-02-29';
  const ok = await postPatient(ctx, { name: 'Conformance dob', date_of_birth: dob }, 'dob');
  if (
    !ctx.expect(is2xx(ok) && objOf(ok).date_of_birth === dob, {
      expected: `2xx with date_of_birth exactly "${dob}"`,
      actual: got(ok),
      exchange: ok,
    })
  )
    return;
  const read = await getPatient(ctx, objOf(ok).id);
  ctx.expect(objOf(read).date_of_birth === dob, {
    expected: `GET answers date_of_birth exactly "${dob}"`,
    actual: got(read),
    exchange: read,
  });
  for (const bad of ['29/02/1984', '1984-02-29T00:00:00Z', '19840229']) {
    const ex = await postPatient(ctx, { name: 'Conformance bad dob', date_of_birth: bad }, 'dob-bad');
    ctx.expect(isValidationError(ex), {
      expected: `400 { error, details } for date_of_birth "${bad}" (not YYYY-MM-DD)`,
      actual: got(ex),
      exchange: ex,
    });
  }
}

export async function patient_address_object(ctx: CheckContext): Promise<void> {
  const list = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { limit: 100 } });
  for (const p of listOf(list).filter((x) => x.address !== undefined && x.address !== null))
    ctx.expect(typeof p.address === 'object' && !Array.isArray(p.address), {
      expected: 'every listed address a JSON object (or null)',
      actual: `${String(p.id)}: ${json(p.address)}`,
      exchange: list,
    });
  const flat = await postPatient(
    ctx,
    { name: 'Conformance flat address', address: '1 Conformance Way, Arlington VA 22202' },
    'address-flat',
  );
  ctx.expect(isValidationError(flat), {
    expected: '400 { error, details } for an address sent as a plain string',
    actual: got(flat),
    exchange: flat,
  });
  // The address's own fields are the kit's assumption (a common postal layout): the round trip runs with --profile all.
  if (ctx.profile !== 'all') return;
  const address = { line1: '1 Conformance Way', line2: 'Suite 2', city: 'Arlington', state: 'VA', postal_code: '22202', country: 'US' };
  const ok = await postPatient(ctx, { name: 'Conformance address', address }, 'address');
  if (
    !ctx.expect(is2xx(ok) && same(objOf(ok).address, address), {
      expected: `2xx with address ${json(address)}`,
      actual: got(ok),
      exchange: ok,
    })
  )
    return;
  const read = await getPatient(ctx, objOf(ok).id);
  ctx.expect(same(objOf(read).address, address), {
    expected: `GET answers the address object ${json(address)}`,
    actual: got(read),
    exchange: read,
  });
}

export async function patient_mrn_optional(ctx: CheckContext): Promise<void> {
  const none = (v: unknown) => v === undefined || v === null || v === '';
  for (const [label, extra] of [
    ['omitted', {}],
    ['null', { mrn: null }],
    ['empty', { mrn: '' }],
  ] as const) {
    const ex = await postPatient(ctx, { name: `Conformance mrn ${label}`, ...extra }, `mrn-${label}`);
    ctx.expect(is2xx(ex) && none(objOf(ex).mrn), {
      expected: `2xx with no mrn (absent, null or "") for mrn ${label}`,
      actual: got(ex),
      exchange: ex,
    });
  }
  // And one that has an mrn keeps it (so "none" above is not just a field the server drops).
  const mrn = `MRN-${token(ctx)}`.slice(0, 64);
  const has = await postPatient(ctx, { name: 'Conformance mrn given', mrn }, 'mrn-given');
  ctx.expect(is2xx(has) && objOf(has).mrn === mrn, { expected: `2xx with mrn "${mrn}"`, actual: got(has), exchange: has });
}

export async function patient_provider_id_string(ctx: CheckContext): Promise<void> {
  const prv = (await ctx.fixtures.providers()).find((x) => typeof x.id === 'string');
  if (!prv) return ctx.skip('the organization lists no provider');
  const ok = await postPatient(ctx, { name: 'Conformance provider', provider_id: prv.id }, 'provider');
  ctx.expect(is2xx(ok) && objOf(ok).provider_id === prv.id, {
    expected: `2xx with provider_id "${String(prv.id)}"`,
    actual: got(ok),
    exchange: ok,
  });
  const empty = await postPatient(ctx, { name: 'Conformance empty provider', provider_id: '' }, 'provider-empty');
  ctx.expect(isValidationError(empty), { expected: '400 { error, details } for provider_id ""', actual: got(empty), exchange: empty });
  if (is2xx(ok)) {
    const patch = await patchPatient(ctx, objOf(ok).id, { provider_id: '' });
    ctx.expect(isValidationError(patch), {
      expected: '400 { error, details } for PATCH provider_id ""',
      actual: got(patch),
      exchange: patch,
    });
  }
  const list = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { limit: 20 } });
  for (const p of listOf(list))
    ctx.expect(typeof p.provider_id === 'string' && p.provider_id.length > 0, {
      expected: 'every listed patient has a non-empty provider_id string',
      actual: `${String(p.id)}: ${json(p.provider_id)}`,
      exchange: list,
    });
}

export async function patients_list_parameters(ctx: CheckContext): Promise<void> {
  const items = await pageAndLimit(ctx, '/patients');
  for (const p of items)
    ctx.expect(typeof p.id === 'string' && typeof p.name === 'string', {
      expected: 'each item a patient { id, name, ... }',
      actual: json(p).slice(0, 200),
    });
  let withExt = items.find((x) => typeof x.external_id === 'string');
  if (!withExt) {
    const more = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { limit: 100 } });
    withExt = listOf(more).find((x) => typeof x.external_id === 'string');
  }
  if (withExt && typeof withExt.external_id === 'string') {
    const ex = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { external_id: withExt.external_id } });
    ctx.expect(ex.response.status === 200 && listOf(ex).length === 1 && listOf(ex)[0]?.id === withExt.id && !!metaOf(ex), {
      expected: `200 { data: [patient ${String(withExt.id)}], meta } for external_id ${withExt.external_id}`,
      actual: got(ex),
      exchange: ex,
    });
  }
  // The search parameter's name is the kit's assumption (PAT-029): only with --profile all.
  if (ctx.profile === 'all' && typeof items[0]?.name === 'string') {
    const ex = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { search: items[0].name, limit: 100 } });
    ctx.expect(ex.response.status === 200 && !!metaOf(ex) && listOf(ex).some((x) => x.id === items[0]!.id), {
      expected: `200 { data, meta } including ${String(items[0].id)} for search=${items[0].name}`,
      actual: got(ex),
      exchange: ex,
    });
  }
}

export async function patient_search_fields(ctx: CheckContext): Promise<void> {
  if (ctx.profile === 'documented')
    return ctx.skip("the search parameter's name (search) is the kit's assumption (PAT-029): runs with --profile all");
  const t = token(ctx);
  const day = 1 + Math.floor(Math.random() * 28);
  const month = 1 + Math.floor(Math.random() * 12);
  const fields = {
    first_name: `Fn${t}`,
    last_name: `Ln${t}`,
    mrn: `MRN-${t}`.slice(0, 64),
    email: `${t}@example.org`,
    date_of_birth: `1901-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
  };
  const ex = await postPatient(ctx, fields, 'search');
  const p = made(ex, 'a patient to search for (POST /patients)', SETUP.patient);
  const needles: Array<[string, string]> = [
    ['name', String(p.name)],
    ['first name', fields.first_name],
    ['last name', fields.last_name],
    ['MRN', fields.mrn],
    ['email', fields.email],
    ['date of birth', fields.date_of_birth],
  ];
  for (const [what, needle] of needles) {
    const r = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { search: needle, limit: 100 } });
    ctx.expect(r.response.status === 200 && listOf(r).some((x) => x.id === p.id), {
      expected: `patient ${String(p.id)} found by its ${what} (search=${needle})`,
      actual: got(r),
      exchange: r,
    });
  }
  const miss = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { search: `none${token(ctx)}` } });
  ctx.expect(miss.response.status === 200 && listOf(miss).length === 0, {
    expected: '200 with no patients for a search nothing matches',
    actual: got(miss),
    exchange: miss,
  });
}

export async function patient_create_name_variants(ctx: CheckContext): Promise<void> {
  for (const variant of [{ name: 'Conformance Variant' }, { first_name: 'Variant' }, { last_name: 'Variant' }]) {
    const ex = await postPatient(ctx, variant, 'variant');
    const field = Object.keys(variant)[0]!;
    ctx.expect(is2xx(ex) && typeof objOf(ex).name === 'string' && String(objOf(ex).name).includes('Variant'), {
      expected: `2xx for a create body with only ${field} among the name fields`,
      actual: got(ex),
      exchange: ex,
    });
  }
  const none = await postPatient(ctx, { email: 'no-name@example.org', phone: '+1-555-0100' }, 'variant-none');
  ctx.expect(isValidationError(none), {
    expected: '400 { error, details } for a create body with none of name, first_name, last_name',
    actual: got(none),
    exchange: none,
  });
}

export async function patient_patch_fields_optional(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.createPatient('patch-fields');
  const providers = await ctx.fixtures.providers();
  const provider = providers.find((x) => x.id !== p.provider_id) ?? providers[0];
  // Disjoint groups of fields, one PATCH each: every field is sent once and left out of the other PATCHes.
  // first/last before name, so the name sent later stays.
  const fields: Obj = {
    first_name: 'Patty',
    last_name: 'Patched',
    name: 'Conformance Patched',
    date_of_birth: '1970-01-02',
    gender: 'female',
    phone: '+1-555-0142',
    email: 'patched@example.org',
    address: { line1: '2 Patch Lane', city: 'Madison', state: 'WI', postal_code: '53703', country: 'US' },
    mrn: `MRN-${token(ctx)}`.slice(0, 64),
    ...(provider ? { provider_id: provider.id } : {}),
  };
  const entries = Object.entries(fields);
  for (let i = 0; i < entries.length; i += 3) {
    const group = Object.fromEntries(entries.slice(i, i + 3));
    const ex = await patchPatient(ctx, p.id, group);
    const off = Object.entries(group)
      .filter(([k, v]) => !same(objOf(ex)[k], v))
      .map(([k]) => k);
    ctx.expect(ex.response.status === 200 && !off.length, {
      expected: `200 with ${json(group)} applied for a PATCH of only those fields`,
      actual: `${off.length ? `differs: ${off.join(', ')} — ` : ''}${got(ex)}`,
      exchange: ex,
    });
  }
  const ext = await patchPatient(ctx, p.id, { external_id: ctx.externalId('ignored') });
  ctx.expect(ext.response.status === 200 && objOf(ext).external_id === p.external_id, {
    expected: `200 with external_id still ${json(p.external_id)} for PATCH { external_id }`,
    actual: got(ext),
    exchange: ext,
  });
  const read = await getPatient(ctx, p.id);
  const lost = Object.entries(fields)
    .filter(([k, v]) => !same(objOf(read)[k], v))
    .map(([k]) => k);
  ctx.expect(!lost.length, {
    expected: `GET keeps every patched field (${Object.keys(fields).join(', ')})`,
    actual: `differs: ${lost.join(', ')} — ${got(read)}`,
    exchange: read,
  });
}

export async function patient_search_parameter_named_search(ctx: CheckContext): Promise<void> {
  const last = `Sx${token(ctx)}`;
  const ex = await postPatient(ctx, { first_name: 'Searched', last_name: last }, 'search-name');
  made(ex, 'a patient to search for (POST /patients)', SETUP.patient);
  const r = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { search: last } });
  const ids = listOf(r).map((x) => x.id);
  ctx.expect(r.response.status === 200 && ids.length === 1 && ids[0] === objOf(ex).id, {
    expected: `200 with exactly patient ${String(objOf(ex).id)} for search=${last}`,
    actual: `${r.response.status} ids [${ids.map(String).join(', ')}]`,
    exchange: r,
  });
}

export async function patient_lifecycle(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.createPatient('lifecycle');
  await lifecycle(ctx, p, '/patients', '/patients', { phone: '+1-555-0142' });
}

export async function valid_bodies_accepted(ctx: CheckContext): Promise<void> {
  for (const t of await targets(ctx)) {
    for (const v of gen(ctx).valid(t.op.jsonBodyPointer!, t.bind, () =>
      t.op.method === 'POST' ? { external_id: ctx.externalId('pos') } : {},
    )) {
      if (v.assumed && ctx.profile === 'documented') continue;
      // PATCH bodies leave external_id out: sending one is the immutability check's business.
      const json = t.op.method === 'PATCH' ? Object.fromEntries(Object.entries(v.body).filter(([k]) => k !== 'external_id')) : v.body;
      const ex = await ctx.send({ method: t.op.method, path: t.path, key: ctx.keys.main, json });
      // The patient create's 201 is this rule's; the other operations are judged by their own status checks.
      const createsPatient = t.op.method === 'POST' && t.op.template === '/patients';
      ctx.expect(createsPatient ? ex.response.status === 201 : is2xx(ex), {
        message: `${t.op.method} ${t.op.template} with ${v.label}`,
        expected: createsPatient ? '201' : '2xx',
        actual: got(ex),
        exchange: ex,
      });
    }
  }
}

export const checks: CheckDef[] = [
  check(patient_id_path_digits, { rule: 'PAT-025' }),
  check(patient_id_kept_exact, { rule: 'PAT-001', needs: { write: true } }),
  check(patient_list_items_without_detail_fields, { rule: 'PAT-012', covers: ['PAT-014'] }),
  check(name_only_patient_consent_false, { rule: 'PAT-015', needs: { write: true } }),
  check(name_built_from_first_and_last, { rule: 'PAT-003', needs: { write: true } }),
  check(patient_provider_defaults_to_key_owner, { rule: 'PAT-017', needs: { write: true, mock: true } }),
  check(patient_foreign_provider_refused, { rule: 'PAT-018', needs: { write: true } }),
  check(patient_first_name_min_length, { rule: 'PAT-004', needs: { write: true } }),
  check(patient_last_name_min_length, { rule: 'PAT-005', needs: { write: true } }),
  check(patient_date_of_birth_format, { rule: 'PAT-006', needs: { write: true } }),
  check(patient_address_object, { rule: 'PAT-008', needs: { write: true } }),
  check(patient_mrn_optional, { rule: 'PAT-010', needs: { write: true } }),
  check(patient_provider_id_string, { rule: 'PAT-016', needs: { write: true } }),
  check(patients_list_parameters, { rule: 'PAT-019' }),
  check(patient_search_fields, { rule: 'PAT-020', needs: { write: true } }),
  check(patient_create_name_variants, { rule: 'PAT-026', provenance: 'assumed', needs: { write: true } }),
  check(patient_patch_fields_optional, { rule: 'PAT-027', provenance: 'assumed', needs: { write: true } }),
  check(patient_search_parameter_named_search, { rule: 'PAT-029', provenance: 'assumed', needs: { write: true } }),
  check(patient_lifecycle, { rule: 'PAT-024', covers: ['PAT-023'], needs: { write: true } }),
  check(valid_bodies_accepted, { rule: 'PAT-021', needs: { write: true } }),
];
