// Field rules of patients and appointments, lookups on lists, the upload form fields: one check per rule.
// Every check sends the field at its documented edge (accepted and kept exactly) and just past it (400), and the
// list checks read page, limit and the lookups back from meta. What a check creates carries the run prefix.
import type { CheckContext, CheckDef } from '../model.ts';
import type { Exchange } from '../http.ts';
import { body, createAppointment, enumOf, farFuture, got, isValidationError, listOf, objOf, uploadDocument, type Obj } from './util.ts';

const DIGITS = /^\d+$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const json = (v: unknown) => JSON.stringify(v);
/**
 * Does `back` (from the server) hold what was sent? Objects key by key in any order, with extra keys allowed only
 * when null (an unset optional field); everything else by value.
 */
function same(back: unknown, sent: unknown): boolean {
  if (sent && typeof sent === 'object' && !Array.isArray(sent)) {
    if (!back || typeof back !== 'object' || Array.isArray(back)) return false;
    const b = back as Obj;
    const s = sent as Obj;
    return Object.keys(s).every((k) => same(b[k], s[k])) && Object.keys(b).every((k) => k in s || b[k] === null);
  }
  if (Array.isArray(sent)) return Array.isArray(back) && back.length === sent.length && sent.every((v, i) => same(back[i], v));
  return back === sent;
}
const metaOf = (ex: Exchange) => body(ex).meta as { page?: unknown; limit?: unknown; total_pages?: unknown } | undefined;
/** A token no seeded or other record can hold. */
const token = (ctx: CheckContext) => `crc${ctx.runId}${Math.random().toString(36).slice(2, 8)}`;

function postPatient(ctx: CheckContext, fields: Obj, label = 'fields'): Promise<Exchange> {
  return ctx.send({ method: 'POST', path: '/patients', key: ctx.keys.main, json: { external_id: ctx.externalId(label), ...fields } });
}

function getPatient(ctx: CheckContext, id: unknown): Promise<Exchange> {
  return ctx.send({ method: 'GET', path: `/patients/${String(id)}`, key: ctx.keys.main });
}

function patchPatient(ctx: CheckContext, id: unknown, fields: Obj): Promise<Exchange> {
  return ctx.send({ method: 'PATCH', path: `/patients/${String(id)}`, key: ctx.keys.main, json: fields });
}

function getAppointment(ctx: CheckContext, id: unknown): Promise<Exchange> {
  return ctx.send({ method: 'GET', path: `/appointments/${String(id)}`, key: ctx.keys.main });
}

function patchAppointment(ctx: CheckContext, id: unknown, fields: Obj): Promise<Exchange> {
  return ctx.send({ method: 'PATCH', path: `/appointments/${String(id)}`, key: ctx.keys.main, json: fields });
}

/** 2xx `{ data }` for a create; the documented profile does not insist on 201 (APT-028 is an assumption). */
/** The create body's required fields and defaults, as the spec gives them. */
function appointmentCreate(ctx: CheckContext): { required: string[]; defaults: Obj } {
  const schema = ctx.contract.resolve('#/components/schemas/AppointmentCreate') as { required?: string[]; properties?: Record<string, { default?: unknown }> };
  const defaults = Object.fromEntries(Object.entries(schema.properties ?? {}).flatMap(([k, v]) => ('default' in v ? [[k, v.default]] : [])));
  return { required: schema.required ?? [], defaults };
}

const createdOk = (ex: Exchange) => ex.response.status >= 200 && ex.response.status < 300 && typeof objOf(ex).id === 'string';

/**
 * A string field of the patient with minLength 1: a one-character value is accepted and kept on create and read
 * back; an empty one is refused with 400 on create and on PATCH.
 */
async function patientNameField(ctx: CheckContext, field: 'first_name' | 'last_name') {
  const ok = await postPatient(ctx, { [field]: 'Q' }, field);
  if (!ctx.expect(ok.response.status === 201 && objOf(ok)[field] === 'Q', { expected: `201 with ${field} "Q" (one character, the only name field)`, actual: got(ok), exchange: ok })) return;
  const read = await getPatient(ctx, objOf(ok).id);
  ctx.expect(objOf(read)[field] === 'Q', { expected: `GET answers ${field} "Q"`, actual: got(read), exchange: read });
  const empty = await postPatient(ctx, { name: 'Conformance empty', [field]: '' }, `${field}-empty`);
  ctx.expect(isValidationError(empty), { expected: `400 { error, details } for ${field} "" on create`, actual: got(empty), exchange: empty });
  const patch = await patchPatient(ctx, objOf(ok).id, { [field]: '' });
  ctx.expect(isValidationError(patch), { expected: `400 { error, details } for ${field} "" on PATCH`, actual: got(patch), exchange: patch });
}

/** GET <path>?page=1&limit=2 and page 2: meta echoes both, at most 2 items, no item on both pages. */
async function pageAndLimit(ctx: CheckContext, path: string): Promise<Obj[]> {
  const one = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query: { page: 1, limit: 2 } });
  const m1 = metaOf(one);
  const items = listOf(one);
  ctx.expect(one.response.status === 200 && Array.isArray(body(one).data) && items.length <= 2 && m1?.page === 1 && m1?.limit === 2 && Number.isInteger(m1?.total_pages), {
    expected: `200 { data: [at most 2 items], meta: { page: 1, limit: 2, total_pages } } for GET ${path}?page=1&limit=2`,
    actual: got(one),
    exchange: one,
  });
  if (!Number.isInteger(m1?.total_pages) || (m1!.total_pages as number) < 2) return items;
  const two = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query: { page: 2, limit: 2 } });
  const m2 = metaOf(two);
  const again = listOf(two).filter((x) => items.some((y) => y.id === x.id));
  ctx.expect(two.response.status === 200 && m2?.page === 2 && m2?.limit === 2 && listOf(two).length > 0 && !again.length, {
    expected: `200 with meta { page: 2, limit: 2 } and items other than page 1's for GET ${path}?page=2&limit=2`,
    actual: `${got(two)}${again.length ? ` (repeats ${again.map((x) => String(x.id)).join(', ')})` : ''}`,
    exchange: two,
  });
  return items;
}

/** An Eulerian circuit of the complete directed graph on `nodes` from `start`: every ordered pair once. */
function everyTransition(nodes: string[], start: string): string[] {
  const out = new Map(nodes.map((n) => [n, nodes.filter((m) => m !== n)]));
  const stack = [start];
  const circuit: string[] = [];
  while (stack.length) {
    const v = stack.at(-1)!;
    const next = out.get(v)!.pop();
    if (next !== undefined) stack.push(next);
    else circuit.push(stack.pop()!);
  }
  return circuit.reverse();
}

export const resourceFieldChecks: CheckDef[] = [
  {
    name: 'one_key_covers_every_provider',
    area: 'patients',
    rule: 'GEN-002',
    needs: { write: true },
    async run(ctx) {
      const providers = (await ctx.fixtures.providers()).filter((p) => typeof p.id === 'string');
      if (providers.length < 2) return ctx.skip(`the organization lists ${providers.length} provider(s): at least 2 are needed to assign records to different providers`);
      // The key owner's provider last (when known), so the others are tried first.
      const order = [...providers.filter((p) => p.id !== ctx.keys.mainProvider), ...providers.filter((p) => p.id === ctx.keys.mainProvider)].slice(0, 10);
      for (const prv of order) {
        const pid = String(prv.id);
        const p = await postPatient(ctx, { name: 'Conformance provider record', provider_id: pid }, 'per-provider');
        if (!ctx.expect(p.response.status === 201 && objOf(p).provider_id === pid, { expected: `201 with provider_id ${pid}`, actual: got(p), exchange: p })) continue;
        const read = await getPatient(ctx, objOf(p).id);
        ctx.expect(read.response.status === 200 && objOf(read).provider_id === pid, {
          expected: `the same key reads patient ${String(objOf(p).id)} of provider ${pid}, with that provider_id`,
          actual: got(read),
          exchange: read,
        });
        if (prv !== order[0]) continue;
        // And an appointment of that provider (not the key's).
        const a = await createAppointment(ctx, String(objOf(p).id), { provider_id: pid, start_at: farFuture() });
        if (!ctx.expect(createdOk(a) && objOf(a).provider_id === pid, { expected: `2xx with an appointment of provider ${pid}`, actual: got(a), exchange: a })) continue;
        const ra = await getAppointment(ctx, objOf(a).id);
        ctx.expect(ra.response.status === 200 && objOf(ra).provider_id === pid, { expected: `the same key reads the appointment of provider ${pid}`, actual: got(ra), exchange: ra });
      }
    },
  },
  {
    name: 'page_past_end_empty',
    area: 'pagination',
    rule: 'PAG-008',
    provenance: 'assumed',
    async run(ctx) {
      const lists = ctx.contract.find((op) => op.method === 'GET' && !op.template.includes('{') && !!ctx.contract.queryParam(op, 'page'));
      for (const op of lists) {
        const first = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { page: 1, limit: 100 } });
        const total = metaOf(first)?.total_pages;
        if (!ctx.expect(Number.isInteger(total) && (total as number) >= 1, { expected: `meta.total_pages an integer ≥ 1 for GET ${op.template}`, actual: got(first), exchange: first })) continue;
        // Well past the end, so records other checks create meanwhile cannot reach it.
        const page = (total as number) + 5;
        const past = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { page, limit: 100 } });
        const m = metaOf(past);
        ctx.expect(past.response.status === 200 && same(body(past).data, []) && m?.page === page && m?.limit === 100 && Number.isInteger(m?.total_pages) && (m!.total_pages as number) >= 1, {
          expected: `200 { data: [], meta: { page: ${page}, limit: 100, total_pages ≥ 1 } } for GET ${op.template}?page=${page} (total_pages ${String(total)})`,
          actual: got(past),
          exchange: past,
        });
      }
      // Empty lists: a patient search, an appointment day and a note type that match nothing.
      for (const [path, query] of [['/patients', { search: token(ctx) }], ['/appointments', { date: '1901-01-01' }], ['/notes', { note_type: token(ctx) }]] as const) {
        const ex = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query });
        const m = metaOf(ex);
        ctx.expect(ex.response.status === 200 && same(body(ex).data, []) && m?.page === 1 && m?.total_pages === 1, {
          expected: `200 { data: [], meta: { page: 1, total_pages: 1 } } for the empty list GET ${path}?${new URLSearchParams(query).toString()}`,
          actual: got(ex),
          exchange: ex,
        });
      }
    },
  },
  {
    name: 'external_id_query_parameter',
    area: 'lookups',
    rule: 'XID-007',
    needs: { write: true },
    async run(ctx) {
      // Two of each where possible (the run's own and a listed one), so the lookup must pick the right one.
      const p = await ctx.fixtures.patient();
      const pid = String(p.id);
      const a = await createAppointment(ctx, pid);
      const d1 = await uploadDocument(ctx, pid);
      const d2 = await uploadDocument(ctx, pid);
      for (const ex of [a, d1, d2]) if (!ctx.expect(createdOk(ex), { expected: '2xx for a create to look up', actual: got(ex), exchange: ex })) return;
      const listed = async (path: string, not: unknown) => {
        const ex = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query: { limit: 100 } });
        return listOf(ex).filter((x) => typeof x.external_id === 'string' && x.id !== not).slice(0, 1);
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
          });
        }
    },
  },
  {
    name: 'upload_form_patient_id_field',
    area: 'documents',
    rule: 'XID-013',
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const pid = String(p.id);
      const ext = ctx.externalId('form-patient');
      const up = await uploadDocument(ctx, pid, ext, { fields: { external_id: ext, patient_id: pid } });
      if (!ctx.expect(up.response.status === 201 && typeof objOf(up).id === 'string', { expected: `201 for an upload whose form carries file, external_id and patient_id ${pid}`, actual: got(up), exchange: up })) return;
      const look = await ctx.send({ method: 'GET', path: `/patients/${pid}/documents`, key: ctx.keys.main, query: { external_id: ext } });
      ctx.expect(look.response.status === 200 && listOf(look)[0]?.id === objOf(up).id, { expected: `the document ${String(objOf(up).id)} listed under patient ${pid}`, actual: got(look), exchange: look });
    },
  },
  {
    name: 'lookup_hit_meta_first_page',
    area: 'lookups',
    rule: 'XID-014',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const a = await createAppointment(ctx, String(p.id));
      if (!ctx.expect(createdOk(a), { expected: '2xx for an appointment to look up', actual: got(a), exchange: a })) return;
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
        for (const [query, limit] of [[{ ...q, page: 3, limit: 7 }, 7], [q, dflt]] as const) {
          const ex = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query });
          const m = metaOf(ex);
          ctx.expect(ex.response.status === 200 && listOf(ex).length === 1 && m?.page === 1 && m?.limit === limit && m?.total_pages === 1, {
            expected: `200 with one item and meta { page: 1, limit: ${String(limit)}, total_pages: 1 } for GET ${path}?${new URLSearchParams(query as Record<string, string>).toString()}`,
            actual: got(ex),
            exchange: ex,
          });
        }
      }
    },
  },
  {
    name: 'upload_patient_id_mismatch_400',
    area: 'documents',
    rule: 'XID-015',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const other = await ctx.fixtures.createPatient('other-patient');
      const ext = ctx.externalId('form-mismatch');
      const up = await uploadDocument(ctx, String(p.id), ext, { fields: { external_id: ext, patient_id: String(other.id) } });
      ctx.expect(isValidationError(up), { expected: `400 { error, details } for an upload to patient ${String(p.id)} whose form says patient_id ${String(other.id)}`, actual: got(up), exchange: up });
      for (const pid of [String(p.id), String(other.id)]) {
        const look = await ctx.send({ method: 'GET', path: `/patients/${pid}/documents`, key: ctx.keys.main, query: { external_id: ext } });
        ctx.expect(look.response.status === 404, { expected: `no document stored under patient ${pid} (lookup 404)`, actual: got(look), exchange: look });
      }
    },
  },
  {
    name: 'patient_first_name_min_length',
    area: 'patients',
    rule: 'PAT-004',
    needs: { write: true },
    run: (ctx) => patientNameField(ctx, 'first_name'),
  },
  {
    name: 'patient_last_name_min_length',
    area: 'patients',
    rule: 'PAT-005',
    needs: { write: true },
    run: (ctx) => patientNameField(ctx, 'last_name'),
  },
  {
    name: 'patient_date_of_birth_format',
    area: 'patients',
    rule: 'PAT-006',
    needs: { write: true },
    async run(ctx) {
      const dob = '1984-02-29';
      const ok = await postPatient(ctx, { name: 'Conformance dob', date_of_birth: dob }, 'dob');
      if (!ctx.expect(ok.response.status === 201 && objOf(ok).date_of_birth === dob, { expected: `201 with date_of_birth exactly "${dob}"`, actual: got(ok), exchange: ok })) return;
      const read = await getPatient(ctx, objOf(ok).id);
      ctx.expect(objOf(read).date_of_birth === dob, { expected: `GET answers date_of_birth exactly "${dob}"`, actual: got(read), exchange: read });
      for (const bad of ['29/02/1984', '1984-02-29T00:00:00Z', '19840229']) {
        const ex = await postPatient(ctx, { name: 'Conformance bad dob', date_of_birth: bad }, 'dob-bad');
        ctx.expect(isValidationError(ex), { expected: `400 { error, details } for date_of_birth "${bad}" (not YYYY-MM-DD)`, actual: got(ex), exchange: ex });
      }
    },
  },
  {
    name: 'patient_address_object',
    area: 'patients',
    rule: 'PAT-008',
    needs: { write: true },
    async run(ctx) {
      const list = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { limit: 100 } });
      for (const p of listOf(list).filter((x) => x.address !== undefined && x.address !== null))
        ctx.expect(typeof p.address === 'object' && !Array.isArray(p.address), { expected: 'every listed address a JSON object (or null)', actual: `${String(p.id)}: ${json(p.address)}`, exchange: list });
      const flat = await postPatient(ctx, { name: 'Conformance flat address', address: '1 Conformance Way, Arlington VA 22202' }, 'address-flat');
      ctx.expect(isValidationError(flat), { expected: '400 { error, details } for an address sent as a plain string', actual: got(flat), exchange: flat });
      // The address's own fields are the kit's assumption (a common postal layout): the round trip runs with --profile all.
      if (ctx.profile !== 'all') return;
      const address = { line1: '1 Conformance Way', line2: 'Suite 2', city: 'Arlington', state: 'VA', postal_code: '22202', country: 'US' };
      const ok = await postPatient(ctx, { name: 'Conformance address', address }, 'address');
      if (!ctx.expect(ok.response.status === 201 && same(objOf(ok).address, address), { expected: `201 with address ${json(address)}`, actual: got(ok), exchange: ok })) return;
      const read = await getPatient(ctx, objOf(ok).id);
      ctx.expect(same(objOf(read).address, address), { expected: `GET answers the address object ${json(address)}`, actual: got(read), exchange: read });
    },
  },
  {
    name: 'patient_mrn_optional',
    area: 'patients',
    rule: 'PAT-010',
    needs: { write: true },
    async run(ctx) {
      const none = (v: unknown) => v === undefined || v === null || v === '';
      for (const [label, extra] of [['omitted', {}], ['null', { mrn: null }], ['empty', { mrn: '' }]] as const) {
        const ex = await postPatient(ctx, { name: `Conformance mrn ${label}`, ...extra }, `mrn-${label}`);
        ctx.expect(ex.response.status === 201 && none(objOf(ex).mrn), { expected: `201 with no mrn (absent, null or "") for mrn ${label}`, actual: got(ex), exchange: ex });
      }
      // And one that has an mrn keeps it (so "none" above is not just a field the server drops).
      const mrn = `MRN-${token(ctx)}`.slice(0, 64);
      const has = await postPatient(ctx, { name: 'Conformance mrn given', mrn }, 'mrn-given');
      ctx.expect(has.response.status === 201 && objOf(has).mrn === mrn, { expected: `201 with mrn "${mrn}"`, actual: got(has), exchange: has });
    },
  },
  {
    name: 'patient_provider_id_string',
    area: 'patients',
    rule: 'PAT-016',
    needs: { write: true },
    async run(ctx) {
      const prv = (await ctx.fixtures.providers()).find((x) => typeof x.id === 'string');
      if (!prv) return ctx.skip('the organization lists no provider');
      const ok = await postPatient(ctx, { name: 'Conformance provider', provider_id: prv.id }, 'provider');
      ctx.expect(ok.response.status === 201 && objOf(ok).provider_id === prv.id, { expected: `201 with provider_id "${String(prv.id)}"`, actual: got(ok), exchange: ok });
      const empty = await postPatient(ctx, { name: 'Conformance empty provider', provider_id: '' }, 'provider-empty');
      ctx.expect(isValidationError(empty), { expected: '400 { error, details } for provider_id ""', actual: got(empty), exchange: empty });
      if (ok.response.status === 201) {
        const patch = await patchPatient(ctx, objOf(ok).id, { provider_id: '' });
        ctx.expect(isValidationError(patch), { expected: '400 { error, details } for PATCH provider_id ""', actual: got(patch), exchange: patch });
      }
      const list = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { limit: 20 } });
      for (const p of listOf(list))
        ctx.expect(typeof p.provider_id === 'string' && p.provider_id.length > 0, { expected: 'every listed patient has a non-empty provider_id string', actual: `${String(p.id)}: ${json(p.provider_id)}`, exchange: list });
    },
  },
  {
    name: 'patients_list_parameters',
    area: 'patients',
    rule: 'PAT-019',
    async run(ctx) {
      const items = await pageAndLimit(ctx, '/patients');
      for (const p of items) ctx.expect(typeof p.id === 'string' && typeof p.name === 'string', { expected: 'each item a patient { id, name, ... }', actual: json(p).slice(0, 200) });
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
    },
  },
  {
    name: 'patient_search_fields',
    area: 'patients',
    rule: 'PAT-020',
    needs: { write: true },
    async run(ctx) {
      if (ctx.profile === 'documented') return ctx.skip("the search parameter's name (search) is the kit's assumption (PAT-029): runs with --profile all");
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
      if (!ctx.expect(ex.response.status === 201, { expected: '201 for a patient to search for', actual: got(ex), exchange: ex })) return;
      const p = objOf(ex);
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
        ctx.expect(r.response.status === 200 && listOf(r).some((x) => x.id === p.id), { expected: `patient ${String(p.id)} found by its ${what} (search=${needle})`, actual: got(r), exchange: r });
      }
      const miss = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { search: `none${token(ctx)}` } });
      ctx.expect(miss.response.status === 200 && listOf(miss).length === 0, { expected: '200 with no patients for a search nothing matches', actual: got(miss), exchange: miss });
    },
  },
  {
    name: 'patient_create_name_variants',
    area: 'patients',
    rule: 'PAT-026',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      for (const variant of [{ name: 'Conformance Variant' }, { first_name: 'Variant' }, { last_name: 'Variant' }]) {
        const ex = await postPatient(ctx, variant, 'variant');
        const field = Object.keys(variant)[0]!;
        ctx.expect(ex.response.status === 201 && typeof objOf(ex).name === 'string' && String(objOf(ex).name).includes('Variant'), {
          expected: `201 for a create body with only ${field} among the name fields`,
          actual: got(ex),
          exchange: ex,
        });
      }
      const none = await postPatient(ctx, { email: 'no-name@example.org', phone: '+1-555-0100' }, 'variant-none');
      ctx.expect(isValidationError(none), { expected: '400 { error, details } for a create body with none of name, first_name, last_name', actual: got(none), exchange: none });
    },
  },
  {
    name: 'patient_patch_fields_optional',
    area: 'patients',
    rule: 'PAT-027',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
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
        const off = Object.entries(group).filter(([k, v]) => !same(objOf(ex)[k], v)).map(([k]) => k);
        ctx.expect(ex.response.status === 200 && !off.length, { expected: `200 with ${json(group)} applied for a PATCH of only those fields`, actual: `${off.length ? `differs: ${off.join(', ')} — ` : ''}${got(ex)}`, exchange: ex });
      }
      const ext = await patchPatient(ctx, p.id, { external_id: ctx.externalId('ignored') });
      ctx.expect(ext.response.status === 200 && objOf(ext).external_id === p.external_id, { expected: `200 with external_id still ${json(p.external_id)} for PATCH { external_id }`, actual: got(ext), exchange: ext });
      const read = await getPatient(ctx, p.id);
      const lost = Object.entries(fields).filter(([k, v]) => !same(objOf(read)[k], v)).map(([k]) => k);
      ctx.expect(!lost.length, { expected: `GET keeps every patched field (${Object.keys(fields).join(', ')})`, actual: `differs: ${lost.join(', ')} — ${got(read)}`, exchange: read });
    },
  },
  {
    name: 'patient_search_parameter_named_search',
    area: 'patients',
    rule: 'PAT-029',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      const last = `Sx${token(ctx)}`;
      const ex = await postPatient(ctx, { first_name: 'Searched', last_name: last }, 'search-name');
      if (!ctx.expect(ex.response.status === 201, { expected: '201 for a patient to search for', actual: got(ex), exchange: ex })) return;
      const r = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { search: last } });
      const ids = listOf(r).map((x) => x.id);
      ctx.expect(r.response.status === 200 && ids.length === 1 && ids[0] === objOf(ex).id, {
        expected: `200 with exactly patient ${String(objOf(ex).id)} for search=${last}`,
        actual: `${r.response.status} ids [${ids.map(String).join(', ')}]`,
        exchange: r,
      });
    },
  },
  {
    name: 'appointment_patient_id_digit_string',
    area: 'appointments',
    rule: 'APT-002',
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const pid = String(p.id);
      const a = await createAppointment(ctx, pid);
      ctx.expect(createdOk(a) && objOf(a).patient_id === pid && !/"patient_id"\s*:\s*\d/.test(a.response.text), {
        expected: `2xx with "patient_id": "${pid}" (a JSON string of digits)`,
        actual: got(a),
        exchange: a,
      });
      const list = await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { limit: 20 } });
      ctx.expect(!/"patient_id"\s*:\s*\d/.test(list.response.text), { expected: 'every listed patient_id a JSON string', actual: list.response.text.slice(0, 300), exchange: list });
      for (const x of listOf(list)) ctx.expect(typeof x.patient_id === 'string' && DIGITS.test(x.patient_id), { expected: 'patient_id a string of digits', actual: json(x.patient_id), exchange: list });
      for (const bad of [Number(pid.slice(0, 15)), `P${pid}`, `${pid.slice(0, 5)}-${pid.slice(5)}`]) {
        const ex = await createAppointment(ctx, bad as unknown as string);
        ctx.expect(isValidationError(ex), { expected: `400 { error, details } for patient_id ${json(bad)} (not a string of digits)`, actual: got(ex), exchange: ex });
      }
    },
  },
  {
    name: 'appointment_provider_id_optional',
    area: 'appointments',
    rule: 'APT-004',
    needs: { write: true },
    async run(ctx) {
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
        ctx.expect(createdOk(given) && objOf(given).provider_id === prv.id, { expected: `2xx with provider_id "${String(prv.id)}" as sent`, actual: got(given), exchange: given });
      }
      const empty = await createAppointment(ctx, String(p.id), { provider_id: '' });
      ctx.expect(isValidationError(empty), { expected: '400 { error, details } for provider_id ""', actual: got(empty), exchange: empty });
    },
  },
  {
    name: 'appointment_start_at_date_time',
    area: 'appointments',
    rule: 'APT-009',
    needs: { write: true },
    async run(ctx) {
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
        ctx.expect(isValidationError(ex), { expected: `400 { error, details } for start_at ${json(bad)} (not a date-time)`, actual: got(ex), exchange: ex });
      }
    },
  },
  {
    name: 'appointment_duration_minutes_integer',
    area: 'appointments',
    rule: 'APT-010',
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const one = await createAppointment(ctx, String(p.id), { duration_minutes: 1 });
      ctx.expect(createdOk(one) && objOf(one).duration_minutes === 1, { expected: '2xx with duration_minutes 1 (the minimum)', actual: got(one), exchange: one });
      for (const bad of [0, 30.5, '30']) {
        const ex = await createAppointment(ctx, String(p.id), { duration_minutes: bad });
        ctx.expect(isValidationError(ex), { expected: `400 { error, details } for duration_minutes ${json(bad)}`, actual: got(ex), exchange: ex });
      }
      if (!createdOk(one)) return;
      const patch = await patchAppointment(ctx, objOf(one).id, { duration_minutes: 45 });
      ctx.expect(patch.response.status === 200 && objOf(patch).duration_minutes === 45, { expected: '200 with duration_minutes 45 after PATCH', actual: got(patch), exchange: patch });
      for (const bad of [0]) {
        const ex = await patchAppointment(ctx, objOf(one).id, { duration_minutes: bad });
        ctx.expect(isValidationError(ex), { expected: `400 { error, details } for PATCH duration_minutes ${json(bad)}`, actual: got(ex), exchange: ex });
      }
    },
  },
  {
    name: 'appointments_list_parameters',
    area: 'appointments',
    rule: 'APT-014',
    async run(ctx) {
      const items = await pageAndLimit(ctx, '/appointments');
      for (const a of items)
        ctx.expect(typeof a.id === 'string' && typeof a.patient_id === 'string' && typeof a.start_at === 'string', { expected: 'each item an appointment { id, patient_id, start_at, ... }', actual: json(a).slice(0, 200) });
      let withExt = items.find((x) => typeof x.external_id === 'string');
      if (!withExt) {
        const more = await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { limit: 100 } });
        withExt = listOf(more).find((x) => typeof x.external_id === 'string');
      }
      if (!withExt) return;
      const ex = await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { external_id: String(withExt.external_id) } });
      ctx.expect(ex.response.status === 200 && listOf(ex).length === 1 && listOf(ex)[0]?.id === withExt.id && !!metaOf(ex), {
        expected: `200 { data: [appointment ${String(withExt.id)}], meta } for external_id ${String(withExt.external_id)}`,
        actual: got(ex),
        exchange: ex,
      });
    },
  },
  {
    name: 'appointment_create_all_fields',
    area: 'appointments',
    rule: 'APT-016',
    needs: { write: true },
    async run(ctx) {
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
      if (!ctx.expect(createdOk(ex), { expected: '2xx { data: Appointment } for a body with every create field', actual: got(ex), exchange: ex })) return;
      const differs = Object.entries(sent).filter(([k, v]) => (k === 'start_at' ? Date.parse(String(d[k])) !== Date.parse(String(v)) : !same(d[k], v))).map(([k]) => k);
      ctx.expect(!differs.length, { expected: `data carries every field as sent (${Object.keys(sent).join(', ')})`, actual: `differs: ${differs.join(', ')} — ${got(ex)}`, exchange: ex });
    },
  },
  {
    name: 'appointment_patch_reassigns_provider',
    area: 'appointments',
    rule: 'APT-019',
    needs: { write: true },
    async run(ctx) {
      const providers = (await ctx.fixtures.providers()).filter((x) => typeof x.id === 'string');
      if (providers.length < 2) return ctx.skip(`the organization lists ${providers.length} provider(s): reassigning needs 2`);
      const p = await ctx.fixtures.patient();
      const [from, to] = providers as [Obj, Obj];
      const a = await createAppointment(ctx, String(p.id), { provider_id: from.id });
      if (!ctx.expect(createdOk(a) && objOf(a).provider_id === from.id, { expected: `2xx with provider_id ${String(from.id)}`, actual: got(a), exchange: a })) return;
      const patch = await patchAppointment(ctx, objOf(a).id, { provider_id: to.id });
      ctx.expect(patch.response.status === 200 && objOf(patch).provider_id === to.id, { expected: `200 with provider_id ${String(to.id)} after PATCH { provider_id }`, actual: got(patch), exchange: patch });
      const read = await getAppointment(ctx, objOf(a).id);
      ctx.expect(objOf(read).provider_id === to.id, { expected: `GET answers provider_id ${String(to.id)} (reassigned)`, actual: got(read), exchange: read });
    },
  },
  {
    name: 'appointment_create_required_and_defaults',
    area: 'appointments',
    rule: 'APT-023',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const { required, defaults } = appointmentCreate(ctx);
      const values: Obj = { patient_id: String(p.id), start_at: farFuture(), duration_minutes: 30 };
      const minimal = Object.fromEntries(required.map((k) => [k, values[k]]));
      const ok = await ctx.send({ method: 'POST', path: '/appointments', key: ctx.keys.main, json: { ...minimal, external_id: ctx.externalId('minimal') } });
      const off = Object.entries(defaults).filter(([k, v]) => objOf(ok)[k] !== v).map(([k]) => k);
      ctx.expect(createdOk(ok) && !off.length, {
        expected: `2xx with the defaults ${json(defaults)} for a body of ${required.join(', ')} only`,
        actual: got(ok),
        exchange: ok,
      });
      for (const field of Object.keys(minimal)) {
        const rest = Object.fromEntries(Object.entries(minimal).filter(([k]) => k !== field));
        const ex = await ctx.send({ method: 'POST', path: '/appointments', key: ctx.keys.main, json: { ...rest, external_id: ctx.externalId('missing') } });
        ctx.expect(isValidationError(ex), { expected: `400 { error, details } for a create without ${field}`, actual: got(ex), exchange: ex });
      }
    },
  },
  {
    name: 'appointment_repeat_rule_input',
    area: 'appointments',
    rule: 'APT-024',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const cases: Array<[Obj, Obj]> = [
        [{ frequency: 'weekly' }, { frequency: 'weekly', interval: 1 }],
        [{ frequency: 'daily', interval: 3, end_date: '2099-12-31' }, { frequency: 'daily', interval: 3, end_date: '2099-12-31' }],
      ];
      for (const [rule, want] of cases) {
        const a = await createAppointment(ctx, String(p.id), { repeat_rule: rule, start_at: farFuture() });
        const back = (objOf(a).repeat_rule ?? {}) as Obj;
        const off = Object.entries(want).filter(([k, v]) => back[k] !== v).map(([k]) => k);
        ctx.expect(createdOk(a) && !off.length, { expected: `2xx with repeat_rule ${json(want)} for repeat_rule ${json(rule)}`, actual: got(a), exchange: a });
      }
      for (const bad of [{ interval: 2 }, { frequency: 'weekly', interval: 0 }, { frequency: 'weekly', end_date: 'soon' }]) {
        const ex = await createAppointment(ctx, String(p.id), { repeat_rule: bad });
        ctx.expect(isValidationError(ex), { expected: `400 { error, details } for repeat_rule ${json(bad)}`, actual: got(ex), exchange: ex });
      }
    },
  },
  {
    name: 'appointment_patch_fields_optional',
    area: 'appointments',
    rule: 'APT-025',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
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
        ctx.expect(ex.response.status === 200 && !off.length, { expected: `200 with ${json(group)} applied for a PATCH of only those fields`, actual: `${off.length ? `differs: ${off.join(', ')} — ` : ''}${got(ex)}`, exchange: ex });
      }
      const empty = await patchAppointment(ctx, id, {});
      ctx.expect(isValidationError(empty), { expected: '400 { error, details } for PATCH with an empty body {}', actual: got(empty), exchange: empty });
    },
  },
  {
    name: 'appointment_status_any_transition',
    area: 'appointments',
    rule: 'APT-026',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      const statuses = enumOf(ctx, 'AppointmentStatus');
      if (statuses.length < 2) return ctx.skip('the spec lists fewer than 2 appointment statuses');
      const p = await ctx.fixtures.patient();
      const start = statuses[0]!;
      const a = await createAppointment(ctx, String(p.id), { status: start });
      if (!ctx.expect(createdOk(a) && objOf(a).status === start, { expected: `2xx with status ${start}`, actual: got(a), exchange: a })) return;
      const walk = everyTransition(statuses, start);
      for (let i = 1; i < walk.length; i++) {
        const ex = await patchAppointment(ctx, objOf(a).id, { status: walk[i] });
        if (!ctx.expect(ex.response.status === 200 && objOf(ex).status === walk[i], { expected: `200 with status ${walk[i]} for ${walk[i - 1]} → ${walk[i]}`, actual: got(ex), exchange: ex })) return;
      }
    },
  },
  {
    name: 'appointment_create_201',
    area: 'appointments',
    rule: 'APT-028',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const a = await createAppointment(ctx, String(p.id));
      ctx.expect(a.response.status === 201 && typeof objOf(a).id === 'string', { expected: '201 { data: Appointment } for a valid POST /appointments', actual: got(a), exchange: a });
    },
  },
  {
    name: 'providers_list_parameters',
    area: 'providers',
    rule: 'PRV-005',
    async run(ctx) {
      const items = await pageAndLimit(ctx, '/providers');
      for (const x of items) ctx.expect(typeof x.id === 'string' && typeof x.name === 'string', { expected: 'each item a provider { id, name, ... }', actual: json(x).slice(0, 200) });
      const all = await ctx.fixtures.providers();
      const target = all.find((x) => typeof x.npi === 'string' && x.id !== all[0]?.id) ?? all.find((x) => typeof x.npi === 'string');
      if (!target) return;
      const ex = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main, query: { npi: String(target.npi) } });
      ctx.expect(ex.response.status === 200 && listOf(ex).length === 1 && listOf(ex)[0]?.id === target.id && !!metaOf(ex), {
        expected: `200 { data: [provider ${String(target.id)}], meta } for npi=${String(target.npi)}`,
        actual: got(ex),
        exchange: ex,
      });
    },
  },
  {
    name: 'notes_list_parameters',
    area: 'notes',
    rule: 'NOTE-014',
    async run(ctx) {
      const items = await pageAndLimit(ctx, '/notes');
      for (const n of items) ctx.expect(typeof n.id === 'string' && typeof n.session_id === 'string', { expected: 'each item a note list item { id, session_id, ... }', actual: json(n).slice(0, 200) });
    },
  },
];
