// PAT: patients, lists and writes: list parameters, search, the create variants, PATCH, the lifecycle and every
// valid body accepted.
import type { CheckContext, CheckDef } from '../../run/model.ts';
import { type Obj, objOf, got, isValidationError, listOf, targets, gen, json, is2xx, made, SETUP } from '../support/common.ts';
import { postPatient, getPatient, sameField, token, pageAndLimit, metaOf, lifecycle } from '../support/resources.ts';
import { check } from '../support/define.ts';
import { patchPatient } from '../support/patient-fields.ts';

export async function patients_list_parameters(ctx: CheckContext): Promise<void> {
  const items = await pageAndLimit(ctx, '/patients');
  for (const p of items)
    ctx.expect(typeof p.id === 'string' && typeof p.name === 'string', {
      expected: 'each item a patient { id, name, ... }',
      actual: json(p).slice(0, 200),
      says: ['query page, limit, external_id, and a free-text search | {data: [Patient], meta}', 'name | string | display name'],
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
      says: [
        'query page, limit, external_id, and a free-text search | {data: [Patient], meta}',
        'list endpoints accept external_id=<value>; on a hit the normal list shape is returned with a one-item data array',
      ],
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
      says: 'The search parameter matches name, first name, last name, MRN, email or date of birth',
    });
  }
  const miss = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { search: `none${token(ctx)}` } });
  ctx.expect(miss.response.status === 200 && listOf(miss).length === 0, {
    expected: '200 with no patients for a search nothing matches',
    actual: got(miss),
    exchange: miss,
    says: 'The search parameter matches name, first name, last name, MRN, email or date of birth',
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
      says: [
        'display name; when omitted on create, built from first_name and/or last_name',
        'kit: the three create variants are the bodies that carry name, first_name or last_name',
      ],
    });
  }
  const none = await postPatient(ctx, { email: 'no-name@example.org', phone: '+1-555-0100' }, 'variant-none');
  ctx.expect(isValidationError(none), {
    expected: '400 { error, details } for a create body with none of name, first_name, last_name',
    actual: got(none),
    exchange: none,
    says: [
      'Patient create body variants: the three accepted variants and the rule that separates them: not shown.',
      'kit: a create body without name, first_name and last_name is in no variant, refused 400',
    ],
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
    phone: '+1 202 555 0142',
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
      .filter(([k, v]) => !sameField(k, objOf(ex)[k], v))
      .map(([k]) => k);
    ctx.expect(ex.response.status === 200 && !off.length, {
      expected: `200 with ${json(group)} applied for a PATCH of only those fields`,
      actual: `${off.length ? `differs: ${off.join(', ')} — ` : ''}${got(ex)}`,
      exchange: ex,
      says: ['PATCH patient body fields: not shown.', 'kit: PATCH takes the create fields, each optional'],
    });
  }
  const ext = await patchPatient(ctx, p.id, { external_id: ctx.externalId('ignored') });
  ctx.expect(ext.response.status === 200 && objOf(ext).external_id === p.external_id, {
    expected: `200 with external_id still ${json(p.external_id)} for PATCH { external_id }`,
    actual: got(ext),
    exchange: ext,
    says: 'immutable once set; sent on PATCH it is silently ignored',
  });
  const read = await getPatient(ctx, p.id);
  const lost = Object.entries(fields)
    .filter(([k, v]) => !sameField(k, objOf(read)[k], v))
    .map(([k]) => k);
  ctx.expect(!lost.length, {
    expected: `GET keeps every patched field (${Object.keys(fields).join(', ')})`,
    actual: `differs: ${lost.join(', ')} — ${got(read)}`,
    exchange: read,
    says: ['PATCH patient body fields: not shown.', 'kit: PATCH takes the create fields, each optional'],
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
    says: [
      'The search parameter matches name, first name, last name, MRN, email or date of birth',
      'its query parameter name: not shown.',
      'kit: the search query parameter is named search',
    ],
  });
  // A list read by the search parameter keeps the list shape, and finds a listed patient by its name.
  const listed = listOf(await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { limit: 1 } }))[0];
  if (typeof listed?.name !== 'string') return;
  const byName = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { search: listed.name, limit: 100 } });
  ctx.expect(byName.response.status === 200 && !!metaOf(byName) && listOf(byName).some((x) => x.id === listed.id), {
    expected: `200 { data, meta } including ${String(listed.id)} for search=${listed.name}`,
    actual: got(byName),
    exchange: byName,
    says: [
      'The search parameter matches name, first name, last name, MRN, email or date of birth',
      'kit: the search query parameter is named search',
    ],
  });
}

export async function patient_lifecycle(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.createPatient('lifecycle');
  await lifecycle(ctx, p, '/patients', '/patients', { phone: '+1 202 555 0142' });
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
        says: [
          'JSON body, fields per the Patient table',
          '201 {data: Patient}',
          'PATCH | /patients/{patientId} | patients:write | JSON body | {data: Patient}',
          'POST | /appointments | appointments:write | JSON: patient_id',
          'PATCH | /appointments/{appointmentId} | appointments:write | JSON: patient_id, provider_id (reassign)',
        ],
      });
    }
  }
}

export const checks: CheckDef[] = [
  check(patients_list_parameters, { rule: 'PAT-019' }),
  check(patient_search_fields, { rule: 'PAT-020', needs: { write: true } }),
  check(patient_create_name_variants, { rule: 'PAT-026', provenance: 'assumed', needs: { write: true } }),
  check(patient_patch_fields_optional, { rule: 'PAT-027', provenance: 'assumed', needs: { write: true } }),
  check(patient_search_parameter_named_search, { rule: 'PAT-029', provenance: 'assumed', needs: { write: true } }),
  check(patient_lifecycle, { rule: 'PAT-024', covers: ['PAT-023'], needs: { write: true } }),
  check(valid_bodies_accepted, { rule: 'PAT-021', needs: { write: true } }),
];
