// Documents, notes, regeneration and two of the mock's own choices (key prefix, rate limit): rules not covered
// elsewhere, one check per rule.
// Asynchronous work is followed from outside: a document through its external_id lookup until a terminal status,
// a regeneration through its note's updated_at. Every wait is bounded by the run's --timeout (ctx.timeoutMs) or
// less; a check that cannot see the outcome within it is skipped with that reason, never passed. A 202 regeneration
// changes someone's note, so those checks run only with --mock; the ones that watch a note run alone (exclusive),
// each on a ready session with exactly one note, so no other check's regeneration moves what they watch.
import { randomBytes, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { CheckContext, CheckDef } from '../model.ts';
import type { Exchange } from '../http.ts';
import type { Delivery } from '../receiver.ts';
import { MESSAGES } from '../../mock/documents/messages.ts';
import { register, unregister } from './webhooks.ts';
import { parseCsv } from '../../mock/notes/csv-reader.ts';
import { body, createAppointment, enumOf, farFuture, followDocument, got, listOf, objOf, uploadDocument, type Obj } from './util.ts';

const json = (v: unknown) => JSON.stringify(v);

// ----- documents -----

const TERMINAL = new Set(['completed', 'failed']);
/** pending → processing → completed | failed: a status never goes back to a lower rank within one run. */
const RANK: Record<string, number> = { pending: 0, processing: 1, completed: 2, failed: 2 };
/** The source's "text-extraction-started wording" (DOC-026): the exact text is not quoted. */
const STARTED_WORDING = /extraction\b[^.]*\bstart/i;
function lookupDocument(ctx: CheckContext, patientId: string, externalId: string): Promise<Exchange> {
  return ctx.send({ method: 'GET', path: `/patients/${patientId}/documents`, key: ctx.keys.main, query: { external_id: externalId } });
}

interface TrackedUpload {
  externalId: string;
  upload: Exchange;
  /** The status the upload answered. */
  first?: string;
  /** The external_id lookup sent as soon as the upload answered. */
  right: Exchange;
  /** Every status seen afterwards (upload, first lookup, then the polls), consecutive duplicates merged. */
  seen: string[];
  last?: Obj;
  lastExchange?: Exchange;
  /** The document left `pending` without any extract call: its extraction was queued. */
  queued: boolean;
}

/**
 * Three PDF uploads to the run's patient (a text with a token of its own), each looked up as soon as it answered and
 * then followed to a terminal status (at most ctx.timeoutMs): shared by the checks that judge uploads.
 */
function trackedUploads(ctx: CheckContext): Promise<{ patientId: string; token: string; uploads: TrackedUpload[] }> {
  return ctx.fixtures.shared('async-operations-uploads', async () => {
    const p = await ctx.fixtures.patient();
    const patientId = String(p.id);
    const token = `Qz${randomBytes(8).toString('hex')}x`;
    const uploads: TrackedUpload[] = [];
    for (let i = 0; i < 3; i++) {
      const externalId = ctx.externalId('async-doc');
      const upload = await uploadDocument(ctx, patientId, externalId, { text: `Conformance extraction text ${token}` });
      const right = await lookupDocument(ctx, patientId, externalId);
      const first = typeof objOf(upload).status === 'string' ? String(objOf(upload).status) : undefined;
      const rightStatus = listOf(right)[0]?.status;
      const seen: string[] = [];
      for (const s of [first, rightStatus]) if (typeof s === 'string' && seen.at(-1) !== s) seen.push(s);
      uploads.push({ externalId, upload, first, right, seen, queued: false });
    }
    await Promise.all(
      uploads.map(async (u) => {
        if (u.upload.response.status !== 201) return;
        const f = await followDocument(ctx, patientId, u.externalId, ctx.timeoutMs);
        for (const s of f.statuses) if (u.seen.at(-1) !== s) u.seen.push(s);
        u.last = f.last;
        u.lastExchange = f.exchange;
        u.queued = u.seen.some((s) => s !== 'pending');
      }),
    );
    return { patientId, token, uploads };
  });
}

/** The uploads that answered 201; a failure of the rule's check for every other one. */
function created(ctx: CheckContext, uploads: TrackedUpload[]): TrackedUpload[] {
  for (const u of uploads) ctx.expect(u.upload.response.status === 201, { expected: '201 { data, message } for a PDF upload', actual: got(u.upload), exchange: u.upload });
  return uploads.filter((u) => u.upload.response.status === 201);
}

// ----- regeneration -----

interface RegenTarget {
  sessionId: string;
  noteId: string;
  templateId?: string;
}

/**
 * Sessions a watching check may regenerate: ready (the mock's session list), exactly one note (so "the session's
 * note" is that note), and not the session of the first listed note (the other regeneration checks use that one).
 */
async function regenTarget(ctx: CheckContext, index: number, count = 1): Promise<RegenTarget[]> {
  const first = await ctx.fixtures.firstNote();
  const ex = await ctx.send({ method: 'GET', path: '/notes', key: ctx.keys.main, query: { limit: 100 } });
  const sessions = await ctx.mock!.sessions();
  const ready = new Set(sessions.filter((s) => s.ready && (!ctx.keys.mainOrg || s.organization_id === ctx.keys.mainOrg)).map((s) => s.id));
  const bySession = new Map<string, Obj[]>();
  for (const n of listOf(ex)) bySession.set(String(n.session_id), [...(bySession.get(String(n.session_id)) ?? []), n]);
  const targets = [...bySession.entries()]
    .filter(([sid, notes]) => notes.length === 1 && ready.has(sid) && sid !== first.session_id)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([sessionId, [n]]) => ({ sessionId, noteId: String(n!.id), templateId: typeof n!.template_id === 'string' ? n!.template_id : undefined }));
  if (targets.length < count)
    return ctx.skip(`the organization has ${targets.length} ready session(s) with exactly one note besides the first note's session; ${count} needed`);
  return Array.from({ length: count }, (_, i) => targets[(index + i) % targets.length]!);
}

function regenerate(ctx: CheckContext, sessionId: string, opts: { json?: unknown; idempotencyKey?: string; bodyText?: string } = {}): Promise<Exchange> {
  return ctx.send({
    method: 'POST',
    path: `/sessions/${sessionId}/notes/regenerate`,
    key: ctx.keys.main,
    ...(opts.json !== undefined ? { json: opts.json } : {}),
    ...(opts.bodyText !== undefined ? { bodyText: opts.bodyText } : {}),
    ...(opts.idempotencyKey ? { headers: { 'Idempotency-Key': opts.idempotencyKey } } : {}),
  });
}

const accepted = (ex: Exchange, sessionId: string) => ex.response.status === 202 && objOf(ex).session_id === sessionId && objOf(ex).status === 'queued';

function readNote(ctx: CheckContext, noteId: string): Promise<Exchange> {
  return ctx.send({ method: 'GET', path: `/notes/${noteId}`, key: ctx.keys.main, query: { include: '' } });
}

interface Watch {
  moved: boolean;
  /** performance.now() when the request was sent. */
  since: number;
  /** ms from `since` to the read that saw the change (or to the end of the wait). */
  ms: number;
  note: Obj;
  exchange: Exchange;
}

/** Reads the note until its updated_at differs from `before`, for at most `maxMs` from `since` (performance.now()). */
async function watchNote(ctx: CheckContext, noteId: string, before: unknown, since: number, maxMs: number): Promise<Watch> {
  for (let wait = 20; ; wait = Math.min(wait * 1.5, 250)) {
    const exchange = await readNote(ctx, noteId);
    const note = objOf(exchange);
    const ms = performance.now() - since;
    if (exchange.response.status === 200 && typeof note.updated_at === 'string' && note.updated_at !== before) return { moved: true, since, ms, note, exchange };
    if (ms >= maxMs) return { moved: false, since, ms, note, exchange };
    await ctx.sleep(Math.max(1, Math.min(wait, maxMs - ms)));
  }
}

/** The note as it is now (status 200 or the check fails). */
async function noteNow(ctx: CheckContext, noteId: string): Promise<Obj | undefined> {
  const ex = await readNote(ctx, noteId);
  return ctx.expect(ex.response.status === 200 && typeof objOf(ex).updated_at === 'string', { expected: `200 { data: note ${noteId} with updated_at }`, actual: got(ex), exchange: ex }) ? objOf(ex) : undefined;
}

/** How long a first regeneration may take to be seen: the run's --timeout, at most the rule's minute. */
const firstRunBudget = (ctx: CheckContext) => Math.min(ctx.timeoutMs, 60_000);

/**
 * Regenerates and waits until the note moves: the reference run of a watching check. Skipped (not passed) when the
 * run is not seen within the budget, since nothing can then be told about what follows.
 */
async function regenerateAndWait(ctx: CheckContext, t: RegenTarget, opts: { json?: unknown; idempotencyKey?: string }, label: string): Promise<Watch | undefined> {
  const before = await noteNow(ctx, t.noteId);
  if (!before) return undefined;
  const since = performance.now();
  const ex = await regenerate(ctx, t.sessionId, opts);
  if (!ctx.expect(accepted(ex, t.sessionId), { expected: `202 { data: { session_id: "${t.sessionId}", status: "queued" } } for ${label}`, actual: got(ex), exchange: ex })) return undefined;
  const w = await watchNote(ctx, t.noteId, before.updated_at, since, firstRunBudget(ctx));
  if (!w.moved)
    return ctx.skip(`the regeneration of session ${t.sessionId} (${label}) was not seen within ${firstRunBudget(ctx) / 1000} s (--timeout); rerun with a larger --timeout or a smaller --time-scale`);
  return w;
}

/** Waits long enough for a second run to show (three times the reference run, at least 300 ms, at most --timeout). */
const quietMs = (ctx: CheckContext, reference: Watch) => Math.min(ctx.timeoutMs, Math.max(300, 3 * reference.ms));

/** Waits `ms` from `since`, then reads the note once: did its updated_at move from `before` meanwhile? */
async function stillNote(ctx: CheckContext, noteId: string, before: unknown, since: number, ms: number): Promise<Watch> {
  await ctx.sleep(Math.max(0, since + ms - performance.now()));
  const exchange = await readNote(ctx, noteId);
  const note = objOf(exchange);
  return { moved: note.updated_at !== before, since, ms: performance.now() - since, note, exchange };
}

const INVALID_REGENERATE: Array<[string, { json?: unknown; bodyText?: string }]> = [
  ['model "turbo" (not a tier)', { json: { model: 'turbo' } }],
  ['template_id "not-a-uuid"', { json: { template_id: 'not-a-uuid' } }],
  ['a malformed JSON body', { bodyText: '{"model": ' }],
  ['a JSON array body', { json: [{ model: 'fast' }] }],
];

/** The invalid regenerate requests, sent once per run to the first note's session (shared by REGEN-009 and REGEN-020). */
function invalidRegenerations(ctx: CheckContext): Promise<Array<[string, Exchange]>> {
  return ctx.fixtures.shared('async-operations-invalid-regenerate', async () => {
    const note = await ctx.fixtures.firstNote();
    const out: Array<[string, Exchange]> = [];
    for (const [label, opts] of INVALID_REGENERATE) out.push([label, await regenerate(ctx, String(note.session_id), opts)]);
    return out;
  });
}

// ----- notes -----

/** Does a CSV cell hold `value` (null/absent empty, arrays and objects JSON-encoded, the rest as text)? */
function cellHolds(cell: string | undefined, value: unknown): boolean {
  if (value === null || value === undefined) return cell === '';
  if (typeof value === 'object') {
    try {
      return isDeepStrictEqual(JSON.parse(cell ?? ''), value);
    } catch {
      return false;
    }
  }
  return cell === String(value);
}

const notesPage = (ctx: CheckContext, query: Record<string, string | number>) => ctx.send({ method: 'GET', path: '/notes', key: ctx.keys.main, query: { limit: 100, ...query } });
const ids = (ex: Exchange) => listOf(ex).map((n) => String(n.id));
const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

export const asyncOperationChecks: CheckDef[] = [
  // ----- documents -----
  {
    name: 'extracted_text_never_returned',
    area: 'documents',
    rule: 'DOC-009',
    needs: { write: true },
    async run(ctx) {
      const { patientId, token, uploads } = await trackedUploads(ctx);
      const ok = created(ctx, uploads);
      const done = ok.filter((u) => u.last?.status === 'completed');
      if (!done.length) return ctx.skip(`no upload reached completed within ${ctx.timeoutMs / 1000} s (--timeout): no extracted text to look for`);
      const list = await ctx.send({ method: 'GET', path: `/patients/${patientId}/documents`, key: ctx.keys.main });
      const extract = await ctx.send({ method: 'POST', path: `/patients/${patientId}/documents/${String(objOf(done[0]!.upload).id)}/extract`, key: ctx.keys.main });
      const answers = [...ok.flatMap((u) => [u.upload, u.right, ...(u.lastExchange ? [u.lastExchange] : [])]), list, extract];
      for (const ex of answers)
        ctx.expect(!ex.response.text.includes(token), {
          expected: `the document's text (it carries "${token}") in no answer`,
          actual: `${ex.request.method} ${ex.request.path} answered ${got(ex)}`,
          exchange: ex,
        });
      const docs = [...answers.flatMap((ex) => listOf(ex)), ...answers.map((ex) => objOf(ex)).filter((d) => typeof d.id === 'string')];
      for (const d of docs) {
        const textual = Object.keys(d).filter((k) => /text|content|ocr/i.test(k) && k !== 'has_extracted_text' && k !== 'extracted_text_length');
        ctx.expect(!textual.length, { expected: 'only has_extracted_text and extracted_text_length about the text', actual: `document ${String(d.id)} carries ${textual.join(', ')}` });
      }
      for (const u of done)
        ctx.expect(u.last?.has_extracted_text === true && Number.isInteger(u.last.extracted_text_length) && (u.last.extracted_text_length as number) >= token.length, {
          expected: `a completed document with has_extracted_text true and extracted_text_length ≥ ${token.length} (its text carries a ${token.length}-character token)`,
          actual: json(u.last),
          exchange: u.lastExchange,
        });
    },
  },
  {
    name: 'terminal_status_stays',
    area: 'documents',
    rule: 'DOC-012',
    needs: { write: true },
    // With --mock a second upload is made to fail (a fault), so `failed` is watched too.
    exclusive: true,
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const pid = String(p.id);
      const watched: Array<{ externalId: string; terminal: Obj }> = [];
      const follow = async (label: string) => {
        const externalId = ctx.externalId(`terminal-${label}`);
        const up = await uploadDocument(ctx, pid, externalId, { text: 'Conformance terminal status' });
        if (!ctx.expect(up.response.status === 201, { expected: '201 for a PDF upload', actual: got(up), exchange: up })) return;
        const t0 = performance.now();
        const f = await followDocument(ctx, pid, externalId, ctx.timeoutMs);
        if (!f.last || !TERMINAL.has(String(f.last.status))) return;
        watched.push({ externalId, terminal: f.last });
        return performance.now() - t0;
      };
      const took = [await follow('completed')];
      if (ctx.mock) {
        await ctx.mock.fault({ kind: 'extraction-fails', count: 1 });
        try {
          took.push(await follow('failed'));
        } finally {
          await ctx.mock.clearFaults();
        }
      }
      if (!watched.length) return ctx.skip(`no upload reached completed or failed within ${ctx.timeoutMs / 1000} s (--timeout)`);
      // Watch the terminal documents for as long as they took to get there (0.3 s to 2 s), no extract call made.
      const holdMs = Math.min(2000, Math.max(300, ...took.filter((x): x is number => x !== undefined)));
      const end = performance.now() + holdMs;
      do {
        for (const { externalId, terminal: was } of watched) {
          const ex = await lookupDocument(ctx, pid, externalId);
          const d = listOf(ex)[0];
          ctx.expect(!!d && d.status === was.status && d.extraction_error === was.extraction_error && d.has_extracted_text === was.has_extracted_text, {
            expected: `document ${externalId} stays ${String(was.status)} (extraction_error ${json(was.extraction_error)}, has_extracted_text ${json(was.has_extracted_text)}) until a new run is started`,
            actual: d ? `status ${String(d.status)}, extraction_error ${json(d.extraction_error)}, has_extracted_text ${json(d.has_extracted_text)}` : got(ex),
            exchange: ex,
          });
        }
        await ctx.sleep(Math.min(100, holdMs / 5));
      } while (performance.now() < end);
    },
  },
  {
    name: 'queued_upload_answers_pending',
    area: 'documents',
    rule: 'DOC-013',
    needs: { write: true },
    async run(ctx) {
      const { uploads } = await trackedUploads(ctx);
      const queued = created(ctx, uploads).filter((u) => u.queued);
      if (!queued.length) return ctx.skip(`no upload left pending on its own within ${ctx.timeoutMs / 1000} s (--timeout): none was seen to be queued`);
      const pending = queued.filter((u) => u.first === 'pending');
      // "Typically": most queued uploads answer pending (one finished early may answer another status, DOC-014).
      ctx.expect(pending.length * 2 > queued.length, {
        expected: `status pending in the upload answer of most queued uploads (${queued.length} queued)`,
        actual: queued.map((u) => `${u.externalId}: ${String(u.first)}`).join(', '),
        exchange: queued.find((u) => u.first !== 'pending')?.upload,
      });
    },
  },
  {
    name: 'upload_status_is_a_real_state',
    area: 'documents',
    rule: 'DOC-014',
    needs: { write: true },
    async run(ctx) {
      const { uploads } = await trackedUploads(ctx);
      const statuses = enumOf(ctx, 'DocumentStatus');
      for (const u of created(ctx, uploads)) {
        if (!ctx.expect(!!u.first && statuses.includes(u.first), { expected: `an upload status among ${statuses.join(', ')}`, actual: got(u.upload), exchange: u.upload })) continue;
        // Whatever the upload answered was where the extraction stood: nothing seen later is behind it.
        const ranks = u.seen.map((s) => RANK[s] ?? -1);
        const forward = ranks.every((r, i) => r >= 0 && (i === 0 || r >= ranks[i - 1]!)) && u.seen.filter((s) => TERMINAL.has(s)).length <= 1;
        ctx.expect(forward, {
          expected: `the upload's status ${u.first} followed only by later states (pending → processing → completed | failed, no change after a terminal one)`,
          actual: `upload ${u.first}, then ${u.seen.slice(1).join(' → ') || '(no change)'}`,
          exchange: u.right,
        });
      }
    },
  },
  {
    name: 'upload_does_not_wait_for_extraction',
    area: 'documents',
    rule: 'DOC-025',
    needs: { write: true },
    async run(ctx) {
      const { uploads } = await trackedUploads(ctx);
      const ok = created(ctx, uploads);
      if (!ok.length) return;
      for (const u of ok)
        ctx.expect(u.right.response.status === 200 && listOf(u.right)[0]?.id === objOf(u.upload).id, {
          expected: `document ${String(objOf(u.upload).id)} stored (found by its external_id) as soon as the upload answered`,
          actual: got(u.right),
          exchange: u.right,
        });
      const early = ok.filter((u) => !TERMINAL.has(String(u.first)));
      ctx.expect(early.length > 0, {
        expected: 'an upload answered before its extraction finished (status pending or processing), for at least one of the uploads',
        actual: ok.map((u) => `${u.externalId}: ${String(u.first)}`).join(', '),
        exchange: ok[0]!.upload,
      });
    },
  },
  {
    name: 'queued_upload_message_says_started',
    area: 'documents',
    rule: 'DOC-026',
    needs: { write: true },
    async run(ctx) {
      const { uploads } = await trackedUploads(ctx);
      const queued = created(ctx, uploads).filter((u) => u.queued);
      if (!queued.length) return ctx.skip(`no upload left pending on its own within ${ctx.timeoutMs / 1000} s (--timeout): none was seen to be queued`);
      for (const u of queued)
        ctx.expect(typeof body(u.upload).message === 'string' && STARTED_WORDING.test(String(body(u.upload).message)), {
          expected: 'a message saying that text extraction started (the extraction was queued: the document moved on by itself)',
          actual: json(body(u.upload).message),
          exchange: u.upload,
        });
    },
  },
  {
    name: 'extract_endpoint_status_codes',
    area: 'documents',
    rule: 'DOC-031',
    provenance: 'assumed',
    needs: { write: true, mock: true },
    exclusive: true,
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const pid = String(p.id);
      const externalId = ctx.externalId('extract-codes');
      const up = await uploadDocument(ctx, pid, externalId, { text: 'Conformance extract endpoint' });
      if (!ctx.expect(up.response.status === 201, { expected: '201 for a PDF upload', actual: got(up), exchange: up })) return;
      const id = String(objOf(up).id);
      await followDocument(ctx, pid, externalId, ctx.timeoutMs);
      const path = `/patients/${pid}/documents/${id}/extract`;
      const started = await ctx.send({ method: 'POST', path, key: ctx.keys.main });
      ctx.expect(started.response.status === 200 && body(started).success === true && objOf(started).id === id, {
        expected: `200 { data: document ${id}, success: true, message } when a run started`,
        actual: got(started),
        exchange: started,
      });
      await ctx.mock!.fault({ kind: 'extraction-not-queued', count: 1 });
      let refused: Exchange;
      try {
        refused = await ctx.send({ method: 'POST', path, key: ctx.keys.main });
      } finally {
        await ctx.mock!.clearFaults();
      }
      const b = body(refused);
      ctx.expect(
        refused.response.status === 503 && b.success === false && typeof b.error === 'string' && b.error.length > 0 && typeof b.details === 'string' && b.details.length > 0 && objOf(refused).id === id,
        { expected: `503 { data: document ${id}, success: false, message, error, details } when the run could not be started`, actual: got(refused), exchange: refused },
      );
    },
  },
  {
    name: 'upload_message_wordings',
    area: 'documents',
    rule: 'DOC-036',
    provenance: 'assumed',
    needs: { write: true },
    // With --mock an upload whose extraction is not queued (a fault) is made too.
    exclusive: true,
    async run(ctx) {
      const { patientId, uploads } = await trackedUploads(ctx);
      const queued = created(ctx, uploads).filter((u) => u.queued);
      for (const u of queued)
        ctx.expect(body(u.upload).message === MESSAGES.uploadedQueued, { expected: `message ${json(MESSAGES.uploadedQueued)} for a queued upload`, actual: json(body(u.upload).message), exchange: u.upload });
      if (!ctx.mock) {
        if (!queued.length) return ctx.skip(`no upload left pending on its own within ${ctx.timeoutMs / 1000} s (--timeout), and without --mock no upload can be made not to queue`);
        return;
      }
      await ctx.mock.fault({ kind: 'extraction-not-queued', count: 1 });
      let up: Exchange;
      try {
        up = await uploadDocument(ctx, patientId, ctx.externalId('not-queued'), { text: 'Conformance not queued' });
      } finally {
        await ctx.mock.clearFaults();
      }
      ctx.expect(up.response.status === 201 && body(up).message === MESSAGES.uploaded, {
        expected: `201 with message ${json(MESSAGES.uploaded)} for an upload whose extraction was not queued`,
        actual: got(up),
        exchange: up,
      });
    },
  },

  // ----- notes -----
  {
    name: 'notes_list_filters',
    area: 'notes',
    rule: 'NOTE-015',
    async run(ctx) {
      if (ctx.profile === 'documented') return ctx.skip("the filters' parameter names are the kit's assumption (NOTE-024): runs with --profile all");
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
        });
      }
      // Authoring clinician (not a field of the list item): each note belongs to exactly one provider's list.
      const providers = await ctx.fixtures.providers();
      const owner = new Map<string, string>();
      for (const prv of providers) {
        const ex = await notesPage(ctx, { provider_id: String(prv.id) });
        if (!ctx.expect(ex.response.status === 200, { expected: `200 for provider_id ${String(prv.id)}`, actual: got(ex), exchange: ex })) continue;
        for (const id of ids(ex)) {
          ctx.expect(!owner.has(id), { expected: `note ${id} authored by one clinician only`, actual: `listed for ${owner.get(id)} and ${String(prv.id)}`, exchange: ex });
          owner.set(id, String(prv.id));
        }
      }
      const meta = body(all).meta as { total_pages?: number } | undefined;
      // Every note has its clinician among them when both lists are whole (the providers' first page is not full).
      if (meta?.total_pages === 1 && providers.length && providers.length < 20) {
        const orphans = notes.filter((n) => !owner.has(String(n.id)));
        ctx.expect(!orphans.length, { expected: "every note in the list of its authoring clinician's filter", actual: `not in any: ${orphans.map((n) => String(n.id)).join(', ')}` });
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
      });
      ctx.expect(before.response.status === 200 && !late.length && ids(before).includes(String(note.id)), {
        expected: `200 with notes created on or before ${day}, note ${String(note.id)} (${String(note.created_at)}) among them`,
        actual: late.length ? `created later: ${late.map((n) => String(n.created_at)).join(', ')}` : got(before),
        exchange: before,
      });
    },
  },
  {
    name: 'notes_filter_parameter_names',
    area: 'notes',
    rule: 'NOTE-024',
    provenance: 'assumed',
    async run(ctx) {
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
        });
      }
      const none = await notesPage(ctx, { created_before: '1900-01-01' });
      ctx.expect(none.response.status === 200 && listOf(none).length === 0, { expected: '200 with no notes for created_before=1900-01-01', actual: got(none), exchange: none });
    },
  },
  {
    name: 'notes_export_layouts',
    area: 'notes',
    rule: 'NOTE-025',
    provenance: 'assumed',
    async run(ctx) {
      const schema = ctx.contract.resolve('#/components/schemas/NoteExport') as { properties: Obj };
      const fields = Object.keys(schema.properties);
      const itemFields = Object.keys((ctx.contract.resolve('#/components/schemas/NoteListItem') as { properties: Obj }).properties);
      // What an export adds to its list item: the body and codes (the spec's NoteExport fields beyond NoteListItem's).
      const extra = fields.filter((f) => !itemFields.includes(f));
      const get = (format?: string) => ctx.send({ method: 'GET', path: '/notes/export', key: ctx.keys.main, query: format ? { format } : {} });
      const plain = await get();
      const asJson = await get('json');
      const nd = await get('ndjson');
      const csv = await get('csv');
      // json, also by default: { data: [NoteExport] }.
      const data = Array.isArray(body(asJson).data) ? (body(asJson).data as Obj[]) : undefined;
      ctx.expect(asJson.response.status === 200 && asJson.response.mediaType === 'application/json' && !!data, { expected: '200 application/json { data: [NoteExport] } for format=json', actual: got(asJson), exchange: asJson });
      ctx.expect(plain.response.status === 200 && plain.response.mediaType === 'application/json' && Array.isArray(body(plain).data), {
        expected: '200 application/json { data: [...] } without format (json is the default)',
        actual: `${plain.response.status} ${plain.response.mediaType} ${plain.response.text.slice(0, 200)}`,
        exchange: plain,
      });
      if (!data) return;
      const byId = new Map(data.map((n) => [String(n.id), n]));
      // Each exported note is its list item plus the body and codes.
      for (const item of listOf(await notesPage(ctx, {}))) {
        const n = byId.get(String(item.id));
        if (!n || n.updated_at !== item.updated_at) continue;
        const differ = itemFields.filter((f) => !isDeepStrictEqual(n[f] ?? null, item[f] ?? null));
        const beyond = Object.keys(n).filter((k) => !itemFields.includes(k) && !extra.includes(k));
        ctx.expect(!differ.length && !beyond.length && extra.every((k) => k in n), {
          expected: `export of note ${String(item.id)}: its list item's fields (same values), plus ${extra.join(', ')}, nothing else`,
          actual: `${differ.length ? `differs in ${differ.join(', ')}` : ''}${beyond.length ? ` extra ${beyond.join(', ')}` : ''}${extra.every((k) => k in n) ? '' : ' without the body and codes'}`,
          exchange: asJson,
        });
      }
      for (const n of data.slice(0, 50)) {
        const errors = ctx.schemas.validate('#/components/schemas/NoteExport', n);
        ctx.expect(!errors.length, { expected: 'each json item a NoteExport', actual: `${errors.join('; ')} in ${json(n).slice(0, 200)}`, exchange: asJson });
      }
      // ndjson: one NoteExport object per line.
      let lines: Obj[] | undefined;
      try {
        lines = nd.response.text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Obj);
      } catch {
        lines = undefined;
      }
      ctx.expect(nd.response.status === 200 && nd.response.mediaType === 'application/x-ndjson' && !!lines && lines.every((l) => l && typeof l === 'object' && !Array.isArray(l)), {
        expected: '200 application/x-ndjson, one JSON object per line',
        actual: `${nd.response.status} ${nd.response.mediaType} ${nd.response.text.slice(0, 200)}`,
        exchange: nd,
      });
      if (lines) {
        const missing = lines.filter((l) => !byId.has(String(l.id)));
        ctx.expect(lines.length === data.length && !missing.length, { expected: `the json export's ${data.length} notes, one a line`, actual: `${lines.length} lines${missing.length ? `, unknown ids ${missing.map((l) => String(l.id)).join(', ')}` : ''}`, exchange: nd });
        for (const l of lines.slice(0, 50)) {
          const errors = ctx.schemas.validate('#/components/schemas/NoteExport', l);
          ctx.expect(!errors.length, { expected: 'each ndjson line a NoteExport', actual: `${errors.join('; ')} in ${json(l).slice(0, 200)}`, exchange: nd });
        }
      }
      // csv: a header naming every NoteExport field in schema order, then one note a row.
      const rows = parseCsv(csv.response.text, { lenient: true });
      const [header, ...records] = rows;
      ctx.expect(csv.response.status === 200 && csv.response.mediaType === 'text/csv' && isDeepStrictEqual(header, fields), {
        expected: `200 text/csv with the header ${fields.join(',')}`,
        actual: `${csv.response.status} ${csv.response.mediaType} header ${json(header)}`,
        exchange: csv,
      });
      if (!isDeepStrictEqual(header, fields)) return;
      ctx.expect(records.length === data.length, { expected: `one row per note (${data.length})`, actual: `${records.length} rows`, exchange: csv });
      for (const r of records.slice(0, 50)) {
        const n = byId.get(r[0] ?? '');
        // A note the parallel checks regenerated between the two exports is compared on its id only.
        if (!n || r[fields.indexOf('updated_at')] !== n.updated_at) continue;
        const wrong = fields.filter((f, i) => !cellHolds(r[i], n[f]));
        ctx.expect(!wrong.length && r.length === fields.length, {
          expected: `row of note ${String(n.id)}: each cell the json export's value (arrays and objects JSON-encoded)`,
          actual: wrong.length ? wrong.map((f) => `${f}: ${json(r[fields.indexOf(f)]).slice(0, 80)}`).join('; ') : `${r.length} cells`,
          exchange: csv,
        });
      }
    },
  },
  {
    name: 'free_text_enumerations',
    area: 'notes',
    rule: 'NOTE-028',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      // note_type: a value no enum would hold is a filter like any other (200, nothing matches).
      const kind = `crc ${ctx.runId} free-text note type`;
      const ex = await notesPage(ctx, { note_type: kind });
      ctx.expect(ex.response.status === 200 && listOf(ex).length === 0, { expected: `200 with no notes for note_type=${kind}`, actual: got(ex), exchange: ex });
      // frequency: a free-text recurrence is accepted and kept.
      const p = await ctx.fixtures.patient();
      const frequency = `every third Tuesday ${ctx.runId}`;
      const a = await createAppointment(ctx, String(p.id), { start_at: farFuture(), repeat_rule: { frequency } });
      const back = objOf(a).repeat_rule as Obj | undefined;
      ctx.expect(a.response.status >= 200 && a.response.status < 300 && back?.frequency === frequency, { expected: `2xx with repeat_rule.frequency ${json(frequency)} kept`, actual: got(a), exchange: a });
      // role and specialty: whatever the providers carry is text.
      for (const prv of await ctx.fixtures.providers())
        for (const f of ['role', 'specialty'])
          if (prv[f] !== undefined && prv[f] !== null) ctx.expect(typeof prv[f] === 'string', { expected: `provider ${f} free text`, actual: json(prv[f]) });
    },
  },

  // ----- regeneration -----
  {
    name: 'idempotency_key_still_deduplicated',
    area: 'regeneration',
    rule: 'REGEN-004',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      const [t] = await regenTarget(ctx, 0);
      const key = `${ctx.prefix}window-${randomBytes(4).toString('hex')}`;
      const first = await regenerateAndWait(ctx, t!, { json: { model: 'fast' }, idempotencyKey: key }, `Idempotency-Key ${key}`);
      if (!first) return;
      // The key outlives its regeneration: repeated once that run is done (and as long again), it starts nothing.
      await ctx.sleep(Math.min(1000, first.ms));
      const since = performance.now();
      const again = await regenerate(ctx, t!.sessionId, { json: { model: 'fast' }, idempotencyKey: key });
      ctx.expect(again.response.status === 202, { expected: `202 for the repeat with Idempotency-Key ${key}`, actual: got(again), exchange: again });
      const quiet = await stillNote(ctx, t!.noteId, first.note.updated_at, since, quietMs(ctx, first));
      ctx.expect(!quiet.moved, {
        expected: `no second regeneration of session ${t!.sessionId} for the same Idempotency-Key repeated ${Math.round(since - first.since)} ms after the first, whose run had finished (deduplicated for at least one hour; watched ${Math.round(quiet.ms)} ms)`,
        actual: `note ${t!.noteId} updated_at moved from ${String(first.note.updated_at)} to ${String(quiet.note.updated_at)}`,
        exchange: quiet.exchange,
      });
    },
  },
  {
    name: 'regenerate_body_optional',
    area: 'regeneration',
    rule: 'REGEN-005',
    needs: { mock: true, write: true },
    async run(ctx) {
      const note = await ctx.fixtures.firstNote();
      const session = String(note.session_id);
      for (const [label, opts] of [
        ['no body at all', {}],
        ['an empty JSON object', { json: {} }],
        ['a JSON body with model', { json: { model: 'fast' } }],
      ] as const) {
        const ex = await regenerate(ctx, session, opts);
        ctx.expect(accepted(ex, session), { expected: `202 { data: { session_id: "${session}", status: "queued" } } with ${label}`, actual: got(ex), exchange: ex });
      }
    },
  },
  {
    name: 'regenerate_template_id',
    area: 'regeneration',
    rule: 'REGEN-006',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      const [t] = await regenTarget(ctx, 3);
      if (!t!.templateId) return ctx.skip(`note ${t!.noteId} names no template`);
      const other = [...new Set(listOf(await notesPage(ctx, {})).map((n) => n.template_id).filter((x): x is string => typeof x === 'string'))].find((x) => x !== t!.templateId);
      if (!other) return ctx.skip('the organization lists notes of one template only: no other template to regenerate with');
      // Without template_id: the session's current template (its one note's).
      const dflt = await regenerateAndWait(ctx, t!, { json: { model: 'fast' } }, 'no template_id');
      if (!dflt) return;
      ctx.expect(dflt.note.template_id === t!.templateId, { expected: `template_id ${t!.templateId} (the session's) after a regeneration without template_id`, actual: got(dflt.exchange), exchange: dflt.exchange });
      // With template_id: that template; then back to the original one (the mock's data as it was).
      let last = dflt.note.updated_at;
      for (const template of [other, t!.templateId]) {
        const since = performance.now();
        const ex = await regenerate(ctx, t!.sessionId, { json: { template_id: template, model: 'fast' } });
        if (!ctx.expect(accepted(ex, t!.sessionId), { expected: `202 queued for template_id ${template}`, actual: got(ex), exchange: ex })) return;
        const w = await watchNote(ctx, t!.noteId, last, since, Math.min(ctx.timeoutMs, Math.max(1000, 10 * dflt.ms)));
        ctx.expect(w.moved && w.note.template_id === template, {
          expected: `note ${t!.noteId} regenerated with template_id ${template}`,
          actual: w.moved ? got(w.exchange) : `not regenerated within ${Math.round(w.ms)} ms`,
          exchange: w.exchange,
        });
        if (!w.moved) return;
        last = w.note.updated_at;
      }
    },
  },
  {
    name: 'regenerate_model_tiers',
    area: 'regeneration',
    rule: 'REGEN-007',
    needs: { mock: true, write: true },
    async run(ctx) {
      const note = await ctx.fixtures.firstNote();
      const session = String(note.session_id);
      for (const model of ['fast', 'balanced', 'detailed', undefined]) {
        const ex = await regenerate(ctx, session, { json: model ? { model } : {} });
        ctx.expect(accepted(ex, session), { expected: `202 queued for ${model ? `model ${model}` : 'no model (the standard tier)'}`, actual: got(ex), exchange: ex });
      }
      const bad = await regenerate(ctx, session, { json: { model: 'turbo' } });
      ctx.expect(bad.response.status === 400, { expected: '400 for model "turbo" (not one of fast, balanced, detailed)', actual: got(bad), exchange: bad });
    },
  },
  {
    name: 'regenerate_invalid_400',
    area: 'regeneration',
    rule: 'REGEN-009',
    needs: { mock: true, write: true },
    async run(ctx) {
      for (const [label, ex] of await invalidRegenerations(ctx))
        ctx.expect(ex.response.status === 400 && typeof body(ex).error === 'string' && String(body(ex).error).length > 0, { expected: `400 { error } for ${label}`, actual: got(ex), exchange: ex });
    },
  },
  {
    name: 'regeneration_under_a_minute',
    area: 'regeneration',
    rule: 'REGEN-015',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      const [t] = await regenTarget(ctx, 0);
      const before = await noteNow(ctx, t!.noteId);
      if (!before) return;
      const budget = firstRunBudget(ctx);
      const since = performance.now();
      const ex = await regenerate(ctx, t!.sessionId, { json: {} });
      if (!ctx.expect(accepted(ex, t!.sessionId), { expected: '202 queued for a regeneration with the default tier', actual: got(ex), exchange: ex })) return;
      const w = await watchNote(ctx, t!.noteId, before.updated_at, since, budget);
      if (!w.moved) {
        if (budget < 60_000) return ctx.skip(`the regeneration was not seen within ${budget / 1000} s (--timeout), less than the rule's minute: rerun with --timeout 60000`);
        ctx.expect(false, { expected: 'the regenerated note within a minute', actual: `note ${t!.noteId} unchanged after ${Math.round(w.ms / 1000)} s`, exchange: w.exchange });
        return;
      }
      ctx.expect(w.ms < 60_000, { expected: 'the regenerated note within a minute', actual: `${Math.round(w.ms)} ms`, exchange: w.exchange });
      // The service's own clock: the note's updated_at against the Date of the 202 (whole seconds).
      const queued = Date.parse(ex.response.headers.date ?? '');
      const done = Date.parse(String(w.note.updated_at));
      if (!Number.isNaN(queued))
        ctx.expect(done - queued < 61_000, {
          expected: `updated_at within a minute of the 202 (Date: ${ex.response.headers.date})`,
          actual: `updated_at ${String(w.note.updated_at)}, ${Math.round((done - queued) / 1000)} s later`,
          exchange: w.exchange,
        });
    },
  },
  {
    name: 'regeneration_sends_note_regenerated',
    area: 'regeneration',
    rule: 'REGEN-016',
    payloadSchemas: ['#/components/schemas/NoteEvent'],
    needs: { mock: true, receiver: true, write: true },
    exclusive: true,
    async run(ctx) {
      const [t] = await regenTarget(ctx, 1);
      const hook = await register(ctx, 'NOTE_REGENERATED');
      try {
        const from = ctx.receiver!.deliveries.length;
        const ex = await regenerate(ctx, t!.sessionId, { json: { model: 'fast' } });
        if (!ctx.expect(accepted(ex, t!.sessionId), { expected: '202 queued', actual: got(ex), exchange: ex })) return;
        const mine = (d: Delivery) => {
          const j = d.json as Obj | undefined;
          return j?.session_id === t!.sessionId || j?.note_id === t!.noteId;
        };
        const wait = Math.min(ctx.timeoutMs, 20_000);
        await ctx.receiver!.waitFor((ds) => ds.slice(from).some(mine), wait);
        const d = ctx.receiver!.deliveries.slice(from).find(mine);
        if (!ctx.expect(!!d, { expected: `a delivery for the regeneration of session ${t!.sessionId}`, actual: `none within ${wait / 1000} s` })) return;
        const j = d!.json as Obj;
        ctx.expect(j.event === 'NOTE_REGENERATED' && j.note_id === t!.noteId && j.session_id === t!.sessionId, {
          expected: `NOTE_REGENERATED for note ${t!.noteId} of session ${t!.sessionId}`,
          actual: d!.body.slice(0, 300),
        });
        const errors = ctx.schemas.validate('#/components/schemas/NoteEvent', j);
        ctx.expect(!errors.length, { expected: 'payload valid against NoteEvent', actual: `${errors.join('; ')} in ${d!.body.slice(0, 300)}` });
      } finally {
        await unregister(ctx, hook);
      }
    },
  },
  {
    name: 'regenerate_default_tier_balanced',
    area: 'regeneration',
    rule: 'REGEN-017',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      const [t] = await regenTarget(ctx, 2);
      // The note a tier writes, run numbers masked: the default run must write what an explicit balanced run does.
      const written = new Map<string, string>();
      for (const model of ['default', 'balanced', 'fast', 'detailed']) {
        const w = await regenerateAndWait(ctx, t!, { json: model === 'default' ? {} : { model } }, model === 'default' ? 'no model' : `model ${model}`);
        if (!w) return;
        written.set(model, String(w.note.content).replace(/\d+/g, '#'));
      }
      const of = (m: string) => written.get(m);
      if (of('balanced') === of('fast') && of('balanced') === of('detailed')) return ctx.skip('every tier writes the same note here: the default tier cannot be told apart');
      const like = ['balanced', 'fast', 'detailed'].filter((m) => of(m) === of('default'));
      ctx.expect(of('default') === of('balanced'), {
        expected: 'a regeneration without model writes the note an explicit model balanced writes (run numbers aside)',
        actual: like.length ? `it writes what ${like.join(', ')} writes` : `it writes a note of its own: ${json(of('default')).slice(0, 200)}`,
      });
    },
  },
  {
    name: 'regenerate_400_body_shape',
    area: 'regeneration',
    rule: 'REGEN-020',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    async run(ctx) {
      for (const [label, ex] of await invalidRegenerations(ctx)) {
        const b = body(ex);
        const keys = Object.keys(b);
        const details = b.details;
        const detailsOk = details === undefined || (!!details && typeof details === 'object' && !Array.isArray(details) && Object.values(details as Obj).every((v) => typeof v === 'string'));
        ctx.expect(ex.response.status === 400 && typeof b.error === 'string' && keys.every((k) => k === 'error' || k === 'details') && detailsOk, {
          expected: `400 { error } or { error, details: { field: message } } for ${label}, nothing else`,
          actual: got(ex),
          exchange: ex,
        });
      }
    },
  },
  {
    name: 'idempotency_key_per_session',
    area: 'regeneration',
    rule: 'LIM-006',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      const [a, b] = await regenTarget(ctx, 1, 2);
      const key = `${ctx.prefix}per-session-${randomBytes(4).toString('hex')}`;
      const onA = await regenerateAndWait(ctx, a!, { json: { model: 'fast' }, idempotencyKey: key }, `Idempotency-Key ${key} on session ${a!.sessionId}`);
      if (!onA) return;
      // The same key on another session starts that session's own regeneration...
      const beforeB = await noteNow(ctx, b!.noteId);
      if (!beforeB) return;
      const since = performance.now();
      const exB = await regenerate(ctx, b!.sessionId, { json: { model: 'fast' }, idempotencyKey: key });
      ctx.expect(accepted(exB, b!.sessionId), { expected: `202 queued for session ${b!.sessionId} with the key already used on ${a!.sessionId}`, actual: got(exB), exchange: exB });
      const wB = await watchNote(ctx, b!.noteId, beforeB.updated_at, since, Math.min(ctx.timeoutMs, Math.max(1000, 10 * onA.ms)));
      ctx.expect(wB.moved, {
        expected: `session ${b!.sessionId} regenerated (the key ${key} was used on session ${a!.sessionId} only)`,
        actual: `note ${b!.noteId} unchanged after ${Math.round(wB.ms)} ms`,
        exchange: wB.exchange,
      });
      // ...while on the first session the key still collapses onto the run it started.
      const sinceA = performance.now();
      const againA = await regenerate(ctx, a!.sessionId, { json: { model: 'fast' }, idempotencyKey: key });
      ctx.expect(againA.response.status === 202, { expected: `202 for the repeat on session ${a!.sessionId}`, actual: got(againA), exchange: againA });
      const quiet = await stillNote(ctx, a!.noteId, onA.note.updated_at, sinceA, quietMs(ctx, onA));
      ctx.expect(!quiet.moved, {
        expected: `no second regeneration of session ${a!.sessionId} for its repeated key`,
        actual: `note ${a!.noteId} updated_at moved from ${String(onA.note.updated_at)} to ${String(quiet.note.updated_at)}`,
        exchange: quiet.exchange,
      });
    },
  },

  // ----- the mock's own choices -----
  {
    name: 'mock_key_prefix_crk',
    area: 'auth',
    rule: 'AUTH-026',
    provenance: 'assumed',
    needs: { mock: true },
    async run(ctx) {
      const keys = await ctx.mock!.keys();
      if (!keys.length) return ctx.skip('the mock lists no keys');
      // Never print a key: its first four characters say enough.
      const off = keys.filter((k) => !k.key.startsWith('crk_'));
      ctx.expect(!off.length, { expected: 'every key the mock issues begins with crk_', actual: `${off.length} of ${keys.length} do not: ${off.map((k) => `${k.key.slice(0, 4)}… (${k.state})`).join(', ')}` });
      // The prefix is part of the opaque value: the key works as issued, and the prefix alone is no key.
      const ok = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main, query: { limit: 1 } });
      ctx.expect(ok.response.status === 200, { expected: '200 for GET /providers with the key as issued', actual: got(ok), exchange: ok });
      const bare = await ctx.send({ method: 'GET', path: '/providers', rawKey: `crk_${randomBytes(12).toString('hex')}`, query: { limit: 1 } });
      ctx.expect(bare.response.status === 401, { expected: '401 for the prefix crk_ with a secret part no key has', actual: got(bare), exchange: bare });
    },
  },
  {
    name: 'rate_limit_counted_per_key',
    area: 'rate-limit',
    rule: 'RATE-007',
    provenance: 'assumed',
    needs: { mock: true },
    // Reads the rate-limit counters, which every request moves: alone.
    exclusive: true,
    async run(ctx) {
      const other = (await ctx.mock!.keys()).find((k) => k.state === 'active' && k.key !== ctx.keys.main.value && (!ctx.keys.mainOrg || k.organization_id === ctx.keys.mainOrg));
      if (!other) return ctx.skip("the mock lists no other active key of the main key's organization");
      const second = { role: 'second', value: other.key, envVar: 'CLINICAL_RECORDS_SECOND_KEY' };
      const hit = async (key: typeof second) => {
        const ex = await ctx.send({ method: 'GET', path: '/providers', key, query: { limit: 1 } });
        const h = ex.response.headers;
        return { ex, limit: Number(h['x-ratelimit-limit']), remaining: Number(h['x-ratelimit-remaining']), reset: h['x-ratelimit-reset'] };
      };
      // Whatever the values are (the contract fixes none), each key's requests count against that key alone.
      const measure = async () => {
        const b1 = await hit(second);
        const a = [await hit(ctx.keys.main), await hit(ctx.keys.main), await hit(ctx.keys.main)];
        const b2 = await hit(second);
        return { b1, a, b2 };
      };
      const sameWindow = (...rs: Array<{ reset?: string }>) => rs.every((r) => r.reset !== undefined && r.reset === rs[0]!.reset);
      let m = await measure();
      if (!sameWindow(m.b1, m.b2) || !sameWindow(...m.a)) m = await measure();
      const { b1, a, b2 } = m;
      for (const r of [b1, ...a, b2])
        ctx.expect(Number.isInteger(r.limit) && r.limit > 0 && Number.isInteger(r.remaining) && r.remaining >= 0 && r.remaining <= r.limit, {
          expected: 'X-RateLimit-Limit a positive integer and X-RateLimit-Remaining between 0 and it',
          actual: `limit ${String(r.ex.response.headers['x-ratelimit-limit'])}, remaining ${String(r.ex.response.headers['x-ratelimit-remaining'])}`,
          exchange: r.ex,
        });
      if (!sameWindow(m.b1, m.b2) || !sameWindow(...m.a)) return ctx.skip('a rate-limit window reset during each of two measurements: the counts cannot be compared');
      ctx.expect(a[1]!.remaining === a[0]!.remaining - 1 && a[2]!.remaining === a[1]!.remaining - 1, {
        expected: "the main key's X-RateLimit-Remaining down by one per request",
        actual: a.map((r) => r.remaining).join(' → '),
        exchange: a[2]!.ex,
      });
      ctx.expect(b2.remaining === b1.remaining - 1, {
        expected: "another key's X-RateLimit-Remaining down by its own one request only, not by the main key's three",
        actual: `${b1.remaining} → ${b2.remaining}`,
        exchange: b2.ex,
      });
    },
  },
];
