// Notes: `include` on the detail (default both, empty omits both), list items without detail-only fields,
// the export in each format, the session's notes, providers by id.
import type { CheckDef } from '../model.ts';
import { body, got, listOf, objOf } from './util.ts';

export const noteChecks: CheckDef[] = [
  {
    name: 'note_include_parameter',
    area: 'notes',
    rule: 'NOTE-017',
    covers: ['NOTE-007', 'NOTE-008', 'NOTE-018', 'NOTE-019'],
    async run(ctx) {
      const note = await ctx.fixtures.firstNote();
      const path = `/notes/${String(note.id)}`;
      for (const [include, want] of [[undefined, ['transcript', 'patient']], ['', []], ['transcript', ['transcript']], ['patient', ['patient']], ['transcript,patient', ['transcript', 'patient']]] as const) {
        const ex = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query: include === undefined ? {} : { include } });
        const d = objOf(ex);
        const has = ['transcript', 'patient'].filter((k) => k in d && d[k] !== null);
        ctx.expect(ex.response.status === 200 && has.join() === [...want].join() && typeof d.content === 'string', {
          expected: `include=${include ?? '(absent)'}: embeds [${want.join(', ')}], body and codes always`,
          actual: `${ex.response.status} embeds [${has.join(', ')}]`,
          exchange: ex,
        });
      }
    },
  },
  {
    name: 'note_list_items_without_detail_fields',
    area: 'notes',
    rule: 'NOTE-001',
    async run(ctx) {
      const detail = Object.keys((ctx.contract.resolve('#/components/schemas/NoteDetail') as { properties: object }).properties);
      const item = Object.keys((ctx.contract.resolve('#/components/schemas/NoteListItem') as { properties: object }).properties);
      const only = detail.filter((f) => !item.includes(f));
      const ex = await ctx.send({ method: 'GET', path: '/notes', key: ctx.keys.main });
      for (const n of listOf(ex)) {
        const present = only.filter((f) => f in n);
        ctx.expect(!present.length, { expected: `list items without ${only.join(', ')}`, actual: `${String(n.id)} carries ${present.join(', ')}`, exchange: ex });
      }
    },
  },
  {
    name: 'notes_export_formats',
    area: 'notes',
    rule: 'NOTE-020',
    async run(ctx) {
      const op = ctx.contract.byId('exportNotes');
      const formats = ((ctx.contract.queryParam(op, 'format')?.schema as { enum?: string[] })?.enum ?? []).slice();
      const media = Object.keys(((op.responses.get('200')?.node.content ?? {}) as object));
      for (const format of formats) {
        const ex = await ctx.send({ method: 'GET', path: '/notes/export', key: ctx.keys.main, query: { format } });
        const expectedMedia = media.find((m) => m.includes(format === 'ndjson' ? 'ndjson' : format));
        ctx.expect(ex.response.status === 200 && ex.response.mediaType === expectedMedia, { expected: `200 ${expectedMedia} for format=${format}`, actual: `${ex.response.status} ${ex.response.mediaType}`, exchange: ex });
        let rows = -1;
        try {
          if (format === 'json') rows = (body(ex).data as unknown[]).length;
          else if (format === 'ndjson') rows = ex.response.text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown).length;
          else rows = Math.max(0, ex.response.text.split('\n').filter(Boolean).length - 1);
        } catch {
          rows = -1;
        }
        ctx.expect(rows >= 0, { expected: `a parseable ${format} export`, actual: ex.response.text.slice(0, 200), exchange: ex });
      }
    },
  },
  {
    name: 'session_notes',
    area: 'notes',
    rule: 'NOTE-021',
    covers: ['NOTE-022'],
    async run(ctx) {
      const note = await ctx.fixtures.firstNote();
      const ex = await ctx.send({ method: 'GET', path: `/sessions/${String(note.session_id)}/notes`, key: ctx.keys.main });
      const d = objOf(ex);
      const notes = Array.isArray(d.notes) ? (d.notes as Array<Record<string, unknown>>) : [];
      ctx.expect(ex.response.status === 200 && notes.some((n) => n.id === note.id), { expected: `200 { data: { session, patient, notes } } including note ${String(note.id)}`, actual: got(ex), exchange: ex });
      const miss = await ctx.send({ method: 'GET', path: `/sessions/${crypto.randomUUID()}/notes`, key: ctx.keys.main });
      ctx.expect(miss.response.status === 404, { expected: '404 for a session the organization does not own', actual: got(miss), exchange: miss });
    },
  },
  {
    name: 'provider_by_id',
    area: 'providers',
    rule: 'PRV-008',
    async run(ctx) {
      for (const p of (await ctx.fixtures.providers()).slice(0, 3)) {
        const ex = await ctx.send({ method: 'GET', path: `/providers/${String(p.id)}`, key: ctx.keys.main });
        ctx.expect(ex.response.status === 200 && objOf(ex).id === p.id, { expected: `200 with provider ${String(p.id)}`, actual: got(ex), exchange: ex });
      }
      const miss = await ctx.send({ method: 'GET', path: `/providers/${crypto.randomUUID()}`, key: ctx.keys.main });
      ctx.expect(miss.response.status === 404, { expected: '404 for an unknown provider', actual: got(miss), exchange: miss });
    },
  },
];
