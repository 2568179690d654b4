// NOTE: clinical notes. List items, detail include, export formats and layouts, session notes, filters.
import { isDeepStrictEqual } from 'node:util';
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../../judge/define.ts';
import { readCsv } from '../data/csv.ts';
import type { CheckContext, CheckDef } from '../run/model.ts';
import { listOf, got, body, type Obj, createAppointment, farFuture, objOf, json } from './support/common.ts';
import { notesPage } from './support/regeneration.ts';
import { pathIdForm, UUID } from './support/operations.ts';
import { pageAndLimit } from './support/resources.ts';
import { check } from './support/define.ts';
import { cellHolds, exportFields, exportsByFormat, itemMismatch, ndjsonLines } from './support/note-export.ts';
import { sameFormat } from '../../judge/responses.ts';

const ids = (ex: Exchange) => listOf(ex).map((n) => String(n.id));

const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

export async function notes_list_filters(ctx: CheckContext): Promise<void> {
  if (ctx.profile === 'documented')
    return ctx.skip("the filters' parameter names are the kit's assumption (NOTE-024): runs with --profile all");
  const all = await notesPage(ctx, {});
  const notes = listOf(all);
  const note = notes.find((n) => typeof n.template_id === 'string' && typeof n.note_type === 'string') ?? notes[0];
  if (!note) return ctx.skip('the organization has no notes to filter');
  // Exact filters: every item has the value, and the note it came from is among them.
  for (const field of ['patient_id', 'session_id', 'template_id', 'note_type'] as const) {
    const value = note[field];
    if (typeof value !== 'string') continue;
    const ex = await notesPage(ctx, { [field]: value });
    const off = listOf(ex).filter((n) => n[field] !== value);
    ctx.expect(ex.response.status === 200 && !off.length && ids(ex).includes(String(note.id)), {
      expected: `200 with only notes of ${field} ${value}, note ${String(note.id)} among them`,
      actual: off.length ? `${off.length} other note(s), e.g. ${json(off[0]).slice(0, 200)}` : got(ex),
      exchange: ex,
      says: 'filters by patient id, session id, template id, authoring clinician (member of the organization), note type, created-on-or-after date and created-on-or-before date (ISO 8601)',
    });
  }
  // Authoring clinician (not a field of the list item): each note belongs to exactly one provider's list.
  const providers = await ctx.fixtures.providers();
  const owner = new Map<string, string>();
  for (const prv of providers) {
    const ex = await notesPage(ctx, { provider_id: String(prv.id) });
    if (
      !ctx.expect(ex.response.status === 200, {
        expected: `200 for provider_id ${String(prv.id)}`,
        actual: got(ex),
        exchange: ex,
        says: 'filters by patient id, session id, template id, authoring clinician (member of the organization), note type, created-on-or-after date and created-on-or-before date (ISO 8601)',
      })
    )
      continue;
    for (const id of ids(ex)) {
      ctx.expect(!owner.has(id), {
        expected: `note ${id} authored by one clinician only`,
        actual: `listed for ${owner.get(id)} and ${String(prv.id)}`,
        exchange: ex,
        says: 'filters by patient id, session id, template id, authoring clinician (member of the organization), note type, created-on-or-after date and created-on-or-before date (ISO 8601)',
      });
      owner.set(id, String(prv.id));
    }
  }
  const meta = body(all).meta as { total_pages?: number } | undefined;
  // Every note has its clinician among them when both lists are whole (the providers' first page is not full).
  if (meta?.total_pages === 1 && providers.length && providers.length < 20) {
    const orphans = notes.filter((n) => !owner.has(String(n.id)));
    ctx.expect(!orphans.length, {
      expected: "every note in the list of its authoring clinician's filter",
      actual: `not in any: ${orphans.map((n) => String(n.id)).join(', ')}`,
      says: 'filters by patient id, session id, template id, authoring clinician (member of the organization), note type, created-on-or-after date and created-on-or-before date (ISO 8601)',
    });
  }
  // Creation dates: on or after / on or before the note's own day keeps it, and nothing outside the bound.
  const day = String(note.created_at).slice(0, 10);
  const after = await notesPage(ctx, { created_after: day });
  const before = await notesPage(ctx, { created_before: day });
  const early = listOf(after).filter((n) => Date.parse(String(n.created_at)) < Date.parse(`${day}T00:00:00.000Z`));
  const late = listOf(before).filter((n) => Date.parse(String(n.created_at)) > Date.parse(`${day}T23:59:59.999Z`));
  ctx.expect(after.response.status === 200 && !early.length && ids(after).includes(String(note.id)), {
    expected: `200 with notes created on or after ${day}, note ${String(note.id)} (${String(note.created_at)}) among them`,
    actual: early.length ? `created earlier: ${early.map((n) => String(n.created_at)).join(', ')}` : got(after),
    exchange: after,
    says: 'filters by patient id, session id, template id, authoring clinician (member of the organization), note type, created-on-or-after date and created-on-or-before date (ISO 8601)',
  });
  ctx.expect(before.response.status === 200 && !late.length && ids(before).includes(String(note.id)), {
    expected: `200 with notes created on or before ${day}, note ${String(note.id)} (${String(note.created_at)}) among them`,
    actual: late.length ? `created later: ${late.map((n) => String(n.created_at)).join(', ')}` : got(before),
    exchange: before,
    says: 'filters by patient id, session id, template id, authoring clinician (member of the organization), note type, created-on-or-after date and created-on-or-before date (ISO 8601)',
  });
}

export async function notes_filter_parameter_names(ctx: CheckContext): Promise<void> {
  const notes = listOf(await notesPage(ctx, {}));
  const note = notes.find((n) => typeof n.template_id === 'string' && typeof n.note_type === 'string');
  if (!note) return ctx.skip('the organization lists no note with a template and a note type to filter on');
  const id = String(note.id);
  const at = String(note.created_at);
  const day = at.slice(0, 10);
  // Each name, with a value the note has (kept) and one nothing has (empty): an ignored parameter keeps all.
  const cases: Array<[string, string, boolean]> = [
    ['patient_id', String(note.patient_id), true],
    ['patient_id', '9'.repeat(19), false],
    ['session_id', String(note.session_id), true],
    ['session_id', randomUUID(), false],
    ['template_id', String(note.template_id), true],
    ['template_id', randomUUID(), false],
    ['provider_id', randomUUID(), false],
    ['note_type', String(note.note_type), true],
    ['note_type', `crc${ctx.runId}none`, false],
    // Date-times are inclusive to the millisecond; a date covers its whole day.
    ['created_after', at, true],
    ['created_after', shift(at, 1), false],
    ['created_after', day, true],
    ['created_before', at, true],
    ['created_before', shift(at, -1), false],
    ['created_before', day, true],
  ];
  for (const [name, value, kept] of cases) {
    const ex = await notesPage(ctx, { [name]: value });
    ctx.expect(ex.response.status === 200 && ids(ex).includes(id) === kept, {
      expected: `200 ${kept ? 'with' : 'without'} note ${id} (created ${at}) for ${name}=${value}`,
      actual: got(ex),
      exchange: ex,
      says: [
        'Names of the notes list filter query parameters: not shown.',
        'kit: the filters are patient_id, session_id, template_id, provider_id, note_type, created_after and created_before; dates inclusive, a date its whole day',
      ],
    });
  }
  const none = await notesPage(ctx, { created_before: '1900-01-01' });
  ctx.expect(none.response.status === 200 && listOf(none).length === 0, {
    expected: '200 with no notes for created_before=1900-01-01',
    actual: got(none),
    exchange: none,
    says: [
      'created-on-or-before date (ISO 8601)',
      'kit: the filters are patient_id, session_id, template_id, provider_id, note_type, created_after and created_before',
    ],
  });
}

/**
 * The export in each layout, json (also the default), ndjson and csv, read against the list items and NoteExport. Its
 * steps are declared inside it: their demands are the check's own (the `kit:` readings of an assumed rule are made in
 * the check's body, demands.test.ts).
 */
export async function notes_export_layouts(ctx: CheckContext): Promise<void> {
  const { fields, itemFields, extra } = exportFields(ctx);
  const { plain, asJson, nd, csv } = await exportsByFormat(ctx);
  // json, also by default: { data: [NoteExport] }.
  const data = Array.isArray(body(asJson).data) ? (body(asJson).data as Obj[]) : undefined;
  ctx.expect(asJson.response.status === 200 && asJson.response.mediaType === 'application/json' && !!data, {
    expected: '200 application/json { data: [NoteExport] } for format=json',
    actual: got(asJson),
    exchange: asJson,
    says: [
      'Further parameters and response layout of /notes/export: not shown.',
      'kit: json answers application/json {data: [NoteExport]}',
    ],
  });
  ctx.expect(plain.response.status === 200 && plain.response.mediaType === 'application/json' && Array.isArray(body(plain).data), {
    expected: '200 application/json { data: [...] } without format (json is the default)',
    actual: `${plain.response.status} ${plain.response.mediaType} ${plain.response.text.slice(0, 200)}`,
    exchange: plain,
    says: ['Further parameters and response layout of /notes/export: not shown.', 'kit: format defaults to json'],
  });
  if (!data) return;
  const byId = new Map(data.map((n) => [String(n.id), n]));
  await jsonNotes(data);
  ndjsonNotes(data);
  csvNotes(data);

  /** json: each exported note is its list item plus the body and codes, and a NoteExport. */
  async function jsonNotes(notes: Obj[]): Promise<void> {
    for (const item of listOf(await notesPage(ctx, {}))) {
      const n = byId.get(String(item.id));
      if (!n || n.updated_at !== item.updated_at) continue;
      const { ok, actual } = itemMismatch(n, item, itemFields, extra);
      ctx.expect(ok, {
        expected: `export of note ${String(item.id)}: its list item's fields (same values), plus ${extra.join(', ')}, nothing else`,
        actual,
        exchange: asJson,
        says: [
          'Further parameters and response layout of /notes/export: not shown.',
          'kit: a NoteExport is the note list item plus content, problems, procedures, icd10_codes and cpt_codes',
        ],
      });
    }
    for (const n of notes.slice(0, 50)) {
      const errors = ctx.schemas.validate('#/components/schemas/NoteExport', n);
      ctx.expect(!errors.length, {
        expected: 'each json item a NoteExport',
        actual: `${errors.join('; ')} in ${json(n).slice(0, 200)}`,
        exchange: asJson,
        says: [
          'Further parameters and response layout of /notes/export: not shown.',
          'kit: a NoteExport is the note list item plus content, problems, procedures, icd10_codes and cpt_codes',
        ],
      });
    }
  }

  /** ndjson: one NoteExport object per line, the json export's notes. */
  function ndjsonNotes(notes: Obj[]): void {
    const lines = ndjsonLines(nd.response.text);
    ctx.expect(
      nd.response.status === 200 &&
        nd.response.mediaType === 'application/x-ndjson' &&
        !!lines &&
        lines.every((l) => l && typeof l === 'object' && !Array.isArray(l)),
      {
        expected: '200 application/x-ndjson, one JSON object per line',
        actual: `${nd.response.status} ${nd.response.mediaType} ${nd.response.text.slice(0, 200)}`,
        exchange: nd,
        says: [
          'Further parameters and response layout of /notes/export: not shown.',
          'kit: ndjson is application/x-ndjson, one NoteExport a line',
        ],
      },
    );
    if (!lines) return;
    const missing = lines.filter((l) => !byId.has(String(l.id)));
    ctx.expect(lines.length === notes.length && !missing.length, {
      expected: `the json export's ${notes.length} notes, one a line`,
      actual: `${lines.length} lines${missing.length ? `, unknown ids ${missing.map((l) => String(l.id)).join(', ')}` : ''}`,
      exchange: nd,
      says: [
        'Further parameters and response layout of /notes/export: not shown.',
        'kit: ndjson is application/x-ndjson, one NoteExport a line',
      ],
    });
    for (const l of lines.slice(0, 50)) {
      const errors = ctx.schemas.validate('#/components/schemas/NoteExport', l);
      ctx.expect(!errors.length, {
        expected: 'each ndjson line a NoteExport',
        actual: `${errors.join('; ')} in ${json(l).slice(0, 200)}`,
        exchange: nd,
        says: [
          'Further parameters and response layout of /notes/export: not shown.',
          'kit: ndjson is application/x-ndjson, one NoteExport a line',
        ],
      });
    }
  }

  /** csv: a header naming every NoteExport field in schema order, then one note a row. */
  function csvNotes(notes: Obj[]): void {
    const [header, ...records] = readCsv(csv.response.text);
    ctx.expect(csv.response.status === 200 && csv.response.mediaType === 'text/csv' && isDeepStrictEqual(header, fields), {
      expected: `200 text/csv with the header ${fields.join(',')}`,
      actual: `${csv.response.status} ${csv.response.mediaType} header ${json(header)}`,
      exchange: csv,
      says: [
        'Further parameters and response layout of /notes/export: not shown.',
        'kit: csv is text/csv, a header naming every NoteExport field in schema order',
      ],
    });
    if (!isDeepStrictEqual(header, fields)) return;
    ctx.expect(records.length === notes.length, {
      expected: `one row per note (${notes.length})`,
      actual: `${records.length} rows`,
      exchange: csv,
      says: ['Further parameters and response layout of /notes/export: not shown.', 'kit: csv has one note a row'],
    });
    for (const r of records.slice(0, 50)) {
      const n = byId.get(r[0] ?? '');
      // A note the parallel checks regenerated between the two exports is compared on its id only.
      if (!n || r[fields.indexOf('updated_at')] !== n.updated_at) continue;
      const wrong = fields.filter((f, i) => !cellHolds(r[i], n[f]));
      ctx.expect(!wrong.length && r.length === fields.length, {
        expected: `row of note ${String(n.id)}: each cell the json export's value (arrays and objects JSON-encoded)`,
        actual: wrong.length ? wrong.map((f) => `${f}: ${json(r[fields.indexOf(f)]).slice(0, 80)}`).join('; ') : `${r.length} cells`,
        exchange: csv,
        says: [
          'Further parameters and response layout of /notes/export: not shown.',
          'kit: each csv cell holds the json value, arrays and objects JSON-encoded',
        ],
      });
    }
  }
}

export async function free_text_enumerations(ctx: CheckContext): Promise<void> {
  // note_type: a value no enum would hold is a filter like any other (200, nothing matches).
  const kind = `crc ${ctx.runId} free-text note type`;
  const ex = await notesPage(ctx, { note_type: kind });
  ctx.expect(ex.response.status === 200 && listOf(ex).length === 0, {
    expected: `200 with no notes for note_type=${kind}`,
    actual: got(ex),
    exchange: ex,
    says: [
      'Allowed values of role, note_type, file_type, frequency, and specialty: not shown.',
      'kit: note_type is free text, filtered by note_type (NOTE-024): a value no note has matches nothing',
    ],
  });
  // frequency: a free-text recurrence is accepted and kept.
  const p = await ctx.fixtures.patient();
  const frequency = `every third Tuesday ${ctx.runId}`;
  const a = await createAppointment(ctx, String(p.id), { start_at: farFuture(), repeat_rule: { frequency } });
  const back = objOf(a).repeat_rule as Obj | undefined;
  ctx.expect(a.response.status >= 200 && a.response.status < 300 && back?.frequency === frequency, {
    expected: `2xx with repeat_rule.frequency ${json(frequency)} kept`,
    actual: got(a),
    exchange: a,
    says: [
      'Allowed values of role, note_type, file_type, frequency, and specialty: not shown.',
      'output carries frequency (string)',
      'kit: frequency is free text, kept as sent',
    ],
  });
  // role and specialty: whatever the providers carry is text.
  for (const prv of await ctx.fixtures.providers())
    for (const f of ['role', 'specialty'])
      if (prv[f] !== undefined && prv[f] !== null)
        ctx.expect(typeof prv[f] === 'string', {
          expected: `provider ${f} free text`,
          actual: json(prv[f]),
          says: [
            '| role | string |',
            '| specialty | string |',
            'Allowed values of role, note_type, file_type, frequency, and specialty: not shown.',
          ],
        });
}

export async function note_and_session_id_path_uuid(ctx: CheckContext): Promise<void> {
  const note = await ctx.fixtures.firstNote();
  await pathIdForm(ctx, {
    param: 'noteId',
    form: UUID,
    formName: 'a UUID',
    id: String(note.id),
    requests: [{ method: 'GET', path: (id) => `/notes/${id}` }],
  });
  await pathIdForm(ctx, {
    param: 'sessionId',
    form: UUID,
    formName: 'a UUID',
    id: String(note.session_id),
    requests: [{ method: 'GET', path: (id) => `/sessions/${id}/notes` }],
  });
}

export async function note_include_parameter(ctx: CheckContext): Promise<void> {
  const note = await ctx.fixtures.firstNote();
  const path = `/notes/${String(note.id)}`;
  for (const [include, want] of [
    [undefined, ['transcript', 'patient']],
    ['', []],
    ['transcript', ['transcript']],
    ['patient', ['patient']],
    ['transcript,patient', ['transcript', 'patient']],
  ] as const) {
    const ex = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query: include === undefined ? {} : { include } });
    const d = objOf(ex);
    const has = ['transcript', 'patient'].filter((k) => k in d && d[k] !== null);
    ctx.expect(ex.response.status === 200 && has.join() === [...want].join() && typeof d.content === 'string', {
      expected: `include=${include ?? '(absent)'}: embeds [${want.join(', ')}], body and codes always`,
      actual: `${ex.response.status} embeds [${has.join(', ')}]`,
      exchange: ex,
      says: [
        'query include: comma-separated list of transcript, patient; default both; an empty value omits both; note body and codes are always returned',
        'content | string (note body)',
      ],
    });
  }
}

export async function note_list_items_without_detail_fields(ctx: CheckContext): Promise<void> {
  const detail = Object.keys((ctx.contract.resolve('#/components/schemas/NoteDetail') as { properties: object }).properties);
  const item = Object.keys((ctx.contract.resolve('#/components/schemas/NoteListItem') as { properties: object }).properties);
  const only = detail.filter((f) => !item.includes(f));
  const ex = await ctx.send({ method: 'GET', path: '/notes', key: ctx.keys.main });
  for (const n of listOf(ex)) {
    const present = only.filter((f) => f in n);
    ctx.expect(!present.length, {
      expected: `list items without ${only.join(', ')}`,
      actual: `${String(n.id)} carries ${present.join(', ')}`,
      exchange: ex,
      says: [
        'List item fields: id (UUID), patient_id, session_id, note_type, specialty, template_id, template_name, created_at, updated_at (ISO 8601).',
        'Detail adds:',
      ],
    });
  }
}

export async function notes_export_formats(ctx: CheckContext): Promise<void> {
  const op = ctx.contract.byId('exportNotes');
  const formats = ((ctx.contract.queryParam(op, 'format')?.schema as { enum?: string[] })?.enum ?? []).slice();
  const media = Object.keys((op.responses.get('200')?.node.content ?? {}) as object);
  for (const format of formats) {
    const ex = await ctx.send({ method: 'GET', path: '/notes/export', key: ctx.keys.main, query: { format } });
    const expectedMedia = media.find((m) => m.includes(format === 'ndjson' ? 'ndjson' : format)) ?? '';
    // The document names the formats, not their media types (the contract's are the kit's): another name of one passes.
    ctx.expect(ex.response.status === 200 && sameFormat(expectedMedia, ex.response.mediaType), {
      expected: `200 ${expectedMedia} (or another name of the ${format} format) for format=${format}`,
      actual: `${ex.response.status} ${ex.response.mediaType}`,
      exchange: ex,
      says: 'query format = json, csv or ndjson | bulk dump of notes',
    });
    let rows = -1;
    try {
      // The layout is not shown either: the contract's { data: [...] } or a bare array of notes.
      if (format === 'json') rows = (Array.isArray(ex.response.json) ? ex.response.json : (body(ex).data as unknown[])).length;
      else if (format === 'ndjson')
        rows = ex.response.text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as unknown).length;
      else rows = Math.max(0, ex.response.text.split('\n').filter(Boolean).length - 1);
    } catch {
      rows = -1;
    }
    ctx.expect(rows >= 0, {
      expected: `a parseable ${format} export`,
      actual: ex.response.text.slice(0, 200),
      exchange: ex,
      says: [
        'query format = json, csv or ndjson | bulk dump of notes',
        'Further parameters and response layout of /notes/export: not shown.',
      ],
    });
  }
}

export async function session_notes(ctx: CheckContext): Promise<void> {
  const note = await ctx.fixtures.firstNote();
  const ex = await ctx.send({ method: 'GET', path: `/sessions/${String(note.session_id)}/notes`, key: ctx.keys.main });
  const d = objOf(ex);
  const notes = Array.isArray(d.notes) ? (d.notes as Array<Record<string, unknown>>) : [];
  ctx.expect(ex.response.status === 200 && notes.some((n) => n.id === note.id), {
    expected: `200 { data: { session, patient, notes } } including note ${String(note.id)}`,
    actual: got(ex),
    exchange: ex,
    says: '/sessions/{sessionId}/notes | notes:read | none | {data: {session, patient, notes: [Note detail]}}',
  });
  const miss = await ctx.send({ method: 'GET', path: `/sessions/${crypto.randomUUID()}/notes`, key: ctx.keys.main });
  ctx.expect(miss.response.status === 404, {
    expected: '404 for a session the organization does not own',
    actual: got(miss),
    exchange: miss,
    says: '404 when the session is not owned by the organization',
  });
}

export async function notes_list_parameters(ctx: CheckContext): Promise<void> {
  const items = await pageAndLimit(ctx, '/notes');
  for (const n of items)
    ctx.expect(typeof n.id === 'string' && typeof n.session_id === 'string', {
      expected: 'each item a note list item { id, session_id, ... }',
      actual: json(n).slice(0, 200),
      says: ['{data: [Note list item], meta}', 'List item fields: id (UUID), patient_id, session_id'],
    });
}

export const checks: CheckDef[] = [
  check(notes_list_filters, { rule: 'NOTE-015' }),
  check(notes_filter_parameter_names, { rule: 'NOTE-024', provenance: 'assumed' }),
  check(notes_export_layouts, { rule: 'NOTE-025', provenance: 'assumed' }),
  check(free_text_enumerations, { rule: 'NOTE-028', provenance: 'assumed', needs: { write: true } }),
  check(note_and_session_id_path_uuid, { rule: 'NOTE-023' }),
  check(note_include_parameter, { rule: 'NOTE-017', covers: ['NOTE-007', 'NOTE-008', 'NOTE-018', 'NOTE-019'] }),
  check(note_list_items_without_detail_fields, { rule: 'NOTE-001' }),
  check(notes_export_formats, { rule: 'NOTE-020' }),
  check(session_notes, { rule: 'NOTE-021', covers: ['NOTE-022'] }),
  check(notes_list_parameters, { rule: 'NOTE-014' }),
];
