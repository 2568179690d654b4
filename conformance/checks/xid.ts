// XID: external identifiers. Immutability, duplicates (409 with existing), lookups on hit and miss, upload form fields.
import type { CheckContext, CheckDef } from '../run/model.ts';
import type { Exchange } from '../../judge/define.ts';
import {
  body,
  objOf,
  got,
  createAppointment,
  uploadDocument,
  listOf,
  type Obj,
  isValidationError,
  is2xx,
  made,
  SETUP,
  sameId,
  dataOf,
  byExternalId,
  readableError,
} from './support/common.ts';
import { createdOk, metaOf } from './support/resources.ts';
import { check } from './support/define.ts';
import { idText } from '../run/fixtures.ts';

/** `words`: what the 409 rests on, the caller's (the document's for XID-006, the kit's for its one namespace). */
function conflict(ctx: CheckContext, ex: Exchange, first: Exchange, what: string, words: string | string[]) {
  const b = body(ex);
  const existing = b.existing as { id?: unknown; external_id?: unknown } | undefined;
  const orig = objOf(first);
  ctx.expect(ex.response.status === 409, {
    expected: `409 for a second ${what} with the same external_id`,
    actual: got(ex),
    exchange: ex,
    says: words,
  });
  // A body that is not JSON is error_body_shape's finding (GEN-005): existing can only be read from a JSON one.
  if (ex.response.status !== 409 || !readableError(ex)) return;
  ctx.expect(!!existing && existing.id === orig.id && existing.external_id === orig.external_id, {
    expected: `409 body { error, existing: { id: ${JSON.stringify(orig.id)}, external_id: ${JSON.stringify(orig.external_id)} } }`,
    actual: got(ex),
    exchange: ex,
    says: words,
  });
}

export async function duplicate_external_id_conflict(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.createPatient('dup');
  const firstP = await ctx.send({ method: 'GET', path: `/patients/${String(p.id)}`, key: ctx.keys.main });
  conflict(
    ctx,
    await ctx.send({
      method: 'POST',
      path: '/patients',
      key: ctx.keys.main,
      json: { name: 'Conformance dup', external_id: p.external_id },
    }),
    firstP,
    'patient',
    '| Duplicate on create | 409 with body { error, existing: { id, external_id } } |',
  );
  const a = await createAppointment(ctx, String(p.id));
  conflict(ctx, await createAppointment(ctx, String(p.id), { external_id: objOf(a).external_id }), a, 'appointment', [
    '| Duplicate on create | 409 with body { error, existing: { id, external_id } } |',
    'A 409 on create occurs when external_id is already in use.',
  ]);
  const d = await uploadDocument(ctx, String(p.id));
  conflict(
    ctx,
    await uploadDocument(ctx, String(p.id), String(objOf(d).external_id)),
    d,
    'document',
    '| Duplicate on create | 409 with body { error, existing: { id, external_id } } |',
  );
}

/** The kit's reading of "unique per organization" (XID-016): one namespace for patients, appointments and documents. */
export async function external_id_one_namespace(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.createPatient('namespace');
  const pid = String(p.id);
  const patientFirst = await ctx.send({ method: 'GET', path: `/patients/${pid}`, key: ctx.keys.main });
  conflict(
    ctx,
    await createAppointment(ctx, pid, { external_id: p.external_id }),
    patientFirst,
    'appointment (the external_id a patient holds)',
    'kit: one external_id namespace per organization across patients, appointments and documents (XID-016)',
  );
  conflict(
    ctx,
    await uploadDocument(ctx, pid, String(p.external_id)),
    patientFirst,
    'document (the external_id a patient holds)',
    'kit: one external_id namespace per organization across patients, appointments and documents (XID-016)',
  );
  const a = await createAppointment(ctx, pid);
  if (!createdOk(a)) return ctx.skip(`could not create an appointment to collide with: ${got(a)}`);
  conflict(
    ctx,
    await ctx.send({
      method: 'POST',
      path: '/patients',
      key: ctx.keys.main,
      json: { name: 'Conformance namespace', external_id: objOf(a).external_id },
    }),
    a,
    'patient (the external_id an appointment holds)',
    'kit: one external_id namespace per organization across patients, appointments and documents (XID-016)',
  );
}

/**
 * "Unique per organization": the external_id a patient of this organization holds is free in another one. Both
 * creates must succeed; the 409 inside one organization is XID-006's to judge.
 */
export async function external_id_unique_per_organization(ctx: CheckContext): Promise<void> {
  const other = ctx.keys.otherOrg!;
  ctx.cleanup.deleteWith(other);
  const ext = ctx.externalId('per-org');
  const mine = made(
    await ctx.send({ method: 'POST', path: '/patients', key: ctx.keys.main, json: { name: 'Conformance per-org', external_id: ext } }),
    'a patient of the run (POST /patients)',
    SETUP.patient,
  );
  // Two keys are two organizations only if the other cannot read this one's patient; if it can, that is GEN-001's.
  const seen = await ctx.send({ method: 'GET', path: `/patients/${String(mine.id)}`, key: other });
  if (is2xx(seen))
    return ctx.block(
      `--other-org-key to be another organization's key (it read patient ${String(mine.id)}: ${got(seen).slice(0, 80)})`,
      'GEN-001',
    );
  const theirs = await ctx.send({ method: 'POST', path: '/patients', key: other, json: { name: 'Conformance per-org', external_id: ext } });
  ctx.expect(is2xx(theirs) && objOf(theirs).external_id === ext && !sameId(objOf(theirs).id, mine.id), {
    expected: `2xx with a patient of its own for another organization's create with external_id ${ext}, which patient ${mine.id} holds in this organization (unique per organization, not across)`,
    actual: got(theirs),
    exchange: theirs,
    says: ['| Uniqueness | unique per organization |', 'All data is scoped to the organization that owns the API key.'],
  });
}

export async function external_id_immutable_on_patch(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.createPatient('immutable');
  const a = made(await createAppointment(ctx, String(p.id)), 'an appointment of the run (POST /appointments)', SETUP.appointment);
  // Each PATCH carries a field it may change beside external_id: whether a body holding nothing else (nothing left to
  // update once external_id is ignored) is taken is not shown, so the PATCH is an ordinary one.
  for (const [path, original, other] of [
    [`/patients/${String(p.id)}`, p.external_id, { phone: '+1 202 555 0144' }],
    [`/appointments/${String(a.id)}`, a.external_id, { notes: 'external_id sent on PATCH' }],
  ] as const) {
    const ex = await ctx.send({
      method: 'PATCH',
      path,
      key: ctx.keys.main,
      json: { ...other, external_id: ctx.externalId('changed') },
    });
    ctx.expect(ex.response.status === 200, {
      expected: `200 for PATCH ${path} with external_id (silently ignored)`,
      actual: got(ex),
      exchange: ex,
      says: 'immutable once set; sent on PATCH it is silently ignored',
    });
    // The PATCH's own answer carries the resource: it must not show the new value either.
    if (dataOf(ex) !== undefined)
      ctx.expect(objOf(ex).external_id === original, {
        expected: `the PATCH answer with external_id still ${JSON.stringify(original)}`,
        actual: got(ex),
        exchange: ex,
        says: 'immutable once set; sent on PATCH it is silently ignored',
      });
    const after = await ctx.send({ method: 'GET', path, key: ctx.keys.main });
    ctx.expect(objOf(after).external_id === original, {
      expected: `external_id still ${JSON.stringify(original)}`,
      actual: got(after),
      exchange: after,
      says: 'immutable once set; sent on PATCH it is silently ignored',
    });
  }
}

export async function external_id_lookup_hit(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const a = objOf(await createAppointment(ctx, String(p.id)));
  const d = objOf(await uploadDocument(ctx, String(p.id)));
  for (const [path, item] of [
    ['/patients', p],
    ['/appointments', a],
    [`/patients/${String(p.id)}/documents`, d],
  ] as const) {
    // page=2&limit=1 shows the lookup bypasses pagination where the list has it; the documents list documents no
    // page or limit (nor meta), and a server may refuse a query parameter it does not take.
    const list = ctx.contract.match('GET', path);
    const paged = !!list && !!ctx.contract.queryParam(list, 'page') && !!ctx.contract.queryParam(list, 'limit');
    const ex = await ctx.send({
      method: 'GET',
      path,
      key: ctx.keys.main,
      query: { external_id: String(item.external_id), ...(paged ? { page: 2, limit: 1 } : {}) },
    });
    const data = listOf(ex);
    ctx.expect(ex.response.status === 200 && data.length === 1 && sameId(data[0]?.id, item.id), {
      expected: `200 with exactly the item ${String(item.id)}${paged ? ' (pagination bypassed, even with page=2&limit=1)' : ''}`,
      actual: got(ex),
      exchange: ex,
      says: 'on a hit the normal list shape is returned with a one-item data array and pagination is bypassed',
    });
  }
}

export async function external_id_lookup_miss(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  for (const path of ['/patients', '/appointments', `/patients/${String(p.id)}/documents`]) {
    const ex = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query: { external_id: `${ctx.prefix}no-such-id` } });
    ctx.expect(ex.response.status === 404, {
      expected: '404 for an external_id that matches nothing',
      actual: got(ex),
      exchange: ex,
      says: ['on a miss the response is 404', 'also external_id or npi lookup with no match'],
    });
  }
}

export async function external_id_query_parameter(ctx: CheckContext): Promise<void> {
  // Two of each where possible (the run's own and a listed one), so the lookup must pick the right one.
  const p = await ctx.fixtures.patient();
  const pid = String(p.id);
  const a = await createAppointment(ctx, pid);
  const d1 = await uploadDocument(ctx, pid);
  const d2 = await uploadDocument(ctx, pid);
  for (const ex of [a, d1, d2])
    if (
      !ctx.expect(createdOk(ex), {
        expected: '2xx for a create to look up',
        actual: got(ex),
        exchange: ex,
        says: 'Patients, appointments and documents accept an optional external_id on creation.',
      })
    )
      return;
  const listed = async (path: string, not: unknown) => {
    const ex = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query: { limit: 100 } });
    return listOf(ex)
      .filter((x) => typeof x.external_id === 'string' && x.id !== not)
      .slice(0, 1);
  };
  const cases: Array<[string, Obj[]]> = [
    ['/patients', [p, ...(await listed('/patients', p.id))]],
    ['/appointments', [objOf(a), ...(await listed('/appointments', objOf(a).id))]],
    [`/patients/${pid}/documents`, [objOf(d1), objOf(d2)]],
  ];
  for (const [path, items] of cases)
    for (const item of items) {
      const ex = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query: { external_id: String(item.external_id) } });
      const data = listOf(ex);
      ctx.expect(ex.response.status === 200 && data.length === 1 && data[0]?.id === item.id && data[0]?.external_id === item.external_id, {
        expected: `200 with exactly ${String(item.id)} for GET ${path}?external_id=${String(item.external_id)}`,
        actual: got(ex),
        exchange: ex,
        says: [
          'list endpoints accept external_id=<value>',
          'lookup path is /patients/{patientId}/documents?external_id=<value>',
          'a one-item data array',
        ],
      });
    }
}

export async function upload_form_patient_id_field(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const pid = String(p.id);
  const ext = ctx.externalId('form-patient');
  const up = await uploadDocument(ctx, pid, ext, { fields: { external_id: ext, patient_id: pid } });
  if (
    !ctx.expect(is2xx(up) && idText(objOf(up).id) !== undefined, {
      expected: `2xx with the document for an upload whose form carries file, external_id and patient_id ${pid}`,
      actual: got(up),
      exchange: up,
      says: 'on upload, external_id is a form field next to file (the guide also mentions a patient_id form field alongside them)',
    })
  )
    return;
  const look = await ctx.send({ method: 'GET', path: `/patients/${pid}/documents`, key: ctx.keys.main, query: { external_id: ext } });
  ctx.expect(look.response.status === 200 && byExternalId(look, ext)?.id === objOf(up).id, {
    expected: `the document ${String(objOf(up).id)} listed under patient ${pid}`,
    actual: got(look),
    exchange: look,
    says: [
      'on upload, external_id is a form field next to file (the guide also mentions a patient_id form field alongside them)',
      'lookup path is /patients/{patientId}/documents?external_id=<value>',
    ],
  });
}

export async function lookup_hit_meta_first_page(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const a = await createAppointment(ctx, String(p.id));
  if (
    !ctx.expect(createdOk(a), {
      expected: '2xx for an appointment to look up',
      actual: got(a),
      exchange: a,
      says: 'Patients, appointments and documents accept an optional external_id on creation.',
    })
  )
    return;
  const providers = await ctx.fixtures.providers();
  const npi = providers.find((x) => typeof x.npi === 'string')?.npi;
  const lookups: Array<[string, Record<string, string>]> = [
    ['/patients', { external_id: String(p.external_id) }],
    ['/appointments', { external_id: String(objOf(a).external_id) }],
  ];
  if (typeof npi === 'string') lookups.push(['/providers', { npi }]);
  for (const [path, q] of lookups) {
    const op = ctx.contract.find((o) => o.method === 'GET' && o.template === path)[0]!;
    const dflt = (ctx.contract.deref(ctx.contract.queryParam(op, 'limit')?.schema) as { default?: number } | undefined)?.default;
    for (const [query, limit] of [
      [{ ...q, page: 3, limit: 7 }, 7],
      [q, dflt],
    ] as const) {
      const ex = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query });
      const m = metaOf(ex);
      ctx.expect(ex.response.status === 200 && listOf(ex).length === 1 && m?.page === 1 && m?.limit === limit && m?.total_pages === 1, {
        expected: `200 with one item and meta { page: 1, limit: ${String(limit)}, total_pages: 1 } for GET ${path}?${new URLSearchParams(query as Record<string, string>).toString()}`,
        actual: got(ex),
        exchange: ex,
        says: 'kit: a bypassed page reports meta { page: 1, limit: the requested or default limit, total_pages: 1 } (XID-014)',
      });
    }
  }
}

export async function upload_patient_id_mismatch_400(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const other = await ctx.fixtures.createPatient('other-patient');
  const ext = ctx.externalId('form-mismatch');
  const up = await uploadDocument(ctx, String(p.id), ext, { fields: { external_id: ext, patient_id: String(other.id) } });
  ctx.expect(isValidationError(up), {
    expected: `400 { error, details } for an upload to patient ${String(p.id)} whose form says patient_id ${String(other.id)}`,
    actual: got(up),
    exchange: up,
    says: "kit: a patient_id form field names the path's patient; another value is refused 400 (XID-015)",
  });
  for (const pid of [String(p.id), String(other.id)]) {
    const look = await ctx.send({ method: 'GET', path: `/patients/${pid}/documents`, key: ctx.keys.main, query: { external_id: ext } });
    ctx.expect(look.response.status === 404, {
      expected: `no document stored under patient ${pid} (lookup 404)`,
      actual: got(look),
      exchange: look,
      says: "kit: a refused upload stores nothing (XID-015); the lookup's miss is 404 (on a miss the response is 404)",
    });
  }
}

export const checks: CheckDef[] = [
  check(duplicate_external_id_conflict, { rule: 'XID-006', covers: ['APT-021'], needs: { write: true } }),
  check(external_id_unique_per_organization, { rule: 'XID-003', needs: { keys: ['otherOrg'], write: true } }),
  check(external_id_immutable_on_patch, { rule: 'XID-005', covers: ['XID-004'], needs: { write: true } }),
  check(external_id_one_namespace, { rule: 'XID-016', provenance: 'assumed', needs: { write: true } }),
  check(external_id_lookup_hit, { rule: 'XID-008', covers: ['XID-009', 'XID-012'], needs: { write: true } }),
  check(external_id_lookup_miss, { rule: 'XID-010', covers: ['ERR-005'] }),
  check(external_id_query_parameter, { rule: 'XID-007', covers: ['XID-011', 'DOC-021'], needs: { write: true } }),
  check(upload_form_patient_id_field, { rule: 'XID-013', needs: { write: true } }),
  check(lookup_hit_meta_first_page, { rule: 'XID-014', provenance: 'assumed', needs: { write: true } }),
  check(upload_patient_id_mismatch_400, { rule: 'XID-015', provenance: 'assumed', needs: { write: true } }),
];
