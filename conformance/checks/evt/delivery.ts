// EVT: webhook delivery as the mock's sender performs it, seen by a probe of the check's own (a loopback server):
// what is delivered, to where and when: payloads, static headers, events fired or not (attempts: evt/attempts.ts).
import { randomBytes } from 'node:crypto';
import type { CheckContext, CheckDef } from '../../run/model.ts';
import {
  type Probe,
  type Hook,
  type Doc,
  awaitDoc,
  type Hit,
  serviceWait,
  withProbe,
  ok200,
  DOC_EVENT,
  upload,
  NOTE_EVENT,
  touchNote,
  parse,
  docStatus,
} from '../support/webhook-probe.ts';
import { got, objOf, followDocument, is2xx } from '../support/common.ts';
import { MARGIN_MS } from '../../run/durations.ts';
import { check } from '../support/define.ts';

const hexToken = () => randomBytes(6).toString('hex');

/**
 * Waits for `doc`'s event on `hook` (a failure when none comes), then as long again (at least `minMs`): by then an
 * event due before it would have come too. Returns whether it came (no lingering when not: the wait was the budget).
 */
async function awaitThenLinger(ctx: CheckContext, probe: Probe, hook: Hook, doc: Doc, expected: string, minMs: number): Promise<boolean> {
  const since = performance.now();
  const seen = () => probe.on(hook.path, doc.docId).length > 0;
  await awaitDoc(ctx, probe, doc, seen);
  if (
    !ctx.expect(seen(), {
      expected,
      actual: 'none',
      says: 'DOCUMENT_STATUS_CHANGED | document text extraction reaches completed or failed',
    })
  )
    return false;
  await ctx.sleep(Math.max(minMs, performance.now() - since));
  return true;
}

const bodies = (hs: Hit[]) => hs.map((x) => x.body.slice(0, 300)).join('\n');

export async function webhook_posted_to_registered_url(ctx: CheckContext): Promise<void> {
  await withProbe(ctx, ok200, async (probe, hook) => {
    const query = `crc_token=${hexToken()}&crc_run=${ctx.runId}`;
    const h = await hook(DOC_EVENT, 'registered/deep/path', { query });
    const doc = await upload(ctx);
    await awaitDoc(ctx, probe, doc, () => probe.on(h.path, doc.docId).length > 0);
    const mine = probe.hits.filter((x) => x.body.includes(doc.docId));
    const registered = `${h.path}?${query}`;
    if (
      !ctx.expect(mine.length > 0, {
        expected: `a ${DOC_EVENT} delivery for document ${doc.docId} to ${probe.url(registered)}`,
        actual: 'none',
        says: [
          'an HTTP POST to a URL registered by the user',
          'DOCUMENT_STATUS_CHANGED | document text extraction reaches completed or failed',
        ],
      })
    )
      return;
    for (const x of mine)
      ctx.expect(x.method === 'POST' && x.url === registered, {
        expected: `POST ${registered} (the URL registered, path and query as given)`,
        actual: `${x.method} ${x.url}`,
        says: 'an HTTP POST to a URL registered by the user',
      });
  });
}

export async function webhook_payload_identifiers_only(ctx: CheckContext): Promise<void> {
  await withProbe(ctx, ok200, async (probe, hook) => {
    const marks = { name: `Crcname${hexToken()}`, text: `Crctext${hexToken()}`, file: `crcfile${hexToken()}` };
    const patient = await ctx.fixtures.createPatient('evt-identifiers', { name: `Conformance ${marks.name}` });
    const docHook = await hook(DOC_EVENT, 'identifiers-doc');
    const noteHook = await hook(NOTE_EVENT, 'identifiers-note');
    const doc = await upload(ctx, { patientId: String(patient.id), text: `Clinical finding ${marks.text}`, fileName: `${marks.file}.pdf` });
    const note = await touchNote(ctx);
    const noteId = String(note.id);
    await awaitDoc(ctx, probe, doc, () => probe.on(docHook.path, doc.docId).length > 0 && probe.on(noteHook.path, noteId).length > 0);
    const docHit = probe.on(docHook.path, doc.docId)[0];
    const noteHit = probe.on(noteHook.path, noteId)[0];
    ctx.expect(!!docHit && !!noteHit, {
      expected: `a ${DOC_EVENT} and a ${NOTE_EVENT} delivery`,
      actual: `${docHit ? 'document event' : 'no document event'}, ${noteHit ? 'note event' : 'no note event'}`,
      says: [
        'DOCUMENT_STATUS_CHANGED | document text extraction reaches completed or failed',
        'NOTE_UPDATED | an existing note is edited, saved or reverted',
      ],
    });
    // Clinical content the events could leak: the patient's name, the document's text and file name, the note's
    // text (pieces of 24 characters, too long to occur by chance in an id, a URL or a timestamp).
    const content = String(note.content).replace(/\s+/g, ' ').trim();
    const pieces = Array.from({ length: Math.min(12, Math.floor(content.length / 24)) }, (_, i) => content.slice(i * 24, i * 24 + 24));
    const clinical: Array<[string, string]> = [
      ['the patient name', marks.name],
      ['the document text', marks.text],
      ['the file name', marks.file],
      ...pieces.map((p) => ['a piece of the note content', p] as [string, string]),
    ];
    for (const [hit, schema] of [
      [docHit, 'DocumentStatusChangedEvent'],
      [noteHit, 'NoteEvent'],
    ] as const) {
      if (!hit) continue;
      const leaked = clinical.filter(([, v]) => v && hit.body.includes(v));
      ctx.expect(!leaked.length, {
        expected: `${schema}: identifiers only, no clinical content`,
        actual: `carries ${leaked.map(([w, v]) => `${w} (${JSON.stringify(v)})`).join(', ')} in ${hit.body.slice(0, 300)}`,
        says: 'Events are notifications that carry identifiers, never clinical content',
      });
      // A field the payload table does not list is no clinical content by itself (spec/readings.yaml, extra-fields):
      // that a payload has its listed fields only is the kit's reading (closed schemas), judged with --profile all
      // by the payload schema checks (webhook_payload_schema, note_created_event, note_updated_event).
    }
  });
}

export async function note_regenerated_event_fetch(ctx: CheckContext): Promise<void> {
  await withProbe(ctx, ok200, async (probe, hook) => {
    const first = await ctx.fixtures.firstNote();
    const sessionId = String(first.session_id);
    // The note as it was before the webhook existed: an event the webhook receives is of a regeneration after this
    // read (another check may regenerate the same session meanwhile), so its note's updated_at is later.
    const before = await ctx.send({ method: 'GET', path: `/notes/${String(first.id)}`, key: ctx.keys.main });
    const h = await hook('NOTE_REGENERATED', 'regenerated');
    const ex = await ctx.send({
      method: 'POST',
      path: `/sessions/${sessionId}/notes/regenerate`,
      key: ctx.keys.main,
      json: { model: 'fast' },
    });
    if (!is2xx(ex)) return ctx.skip(`POST /sessions/${sessionId}/notes/regenerate answered ${got(ex).slice(0, 160)}: nothing regenerated`);
    const mine = () => probe.on(h.path).filter((x) => parse(x.body)?.session_id === sessionId);
    const wait = serviceWait(ctx, 'regeneration');
    if (!(await probe.waitFor(() => mine().length > 0, wait))) {
      const now = await ctx.send({ method: 'GET', path: `/notes/${String(first.id)}`, key: ctx.keys.main });
      if (objOf(now).updated_at === objOf(before).updated_at)
        return ctx.skip(
          `the regeneration of session ${sessionId} was not applied within ${wait / 1000} s, the documented minute and a margin`,
        );
      // The note changed (perhaps just now): its event is due, after a margin for it to be sent.
      if (!(await probe.waitFor(() => mine().length > 0, MARGIN_MS))) {
        ctx.expect(false, {
          expected: `NOTE_REGENERATED for session ${sessionId}, whose note was regenerated`,
          actual: `no delivery within ${(wait + MARGIN_MS) / 1000} s; the note changed: ${got(now).slice(0, 160)}`,
          exchange: now,
          says: 'NOTE_REGENERATED | a note is regenerated, for example by the regenerate endpoint',
        });
        return;
      }
    }
    const j = parse(mine()[0]!.body)!;
    ctx.expect(j.event === 'NOTE_REGENERATED' && typeof j.note_id === 'string', {
      expected: 'event NOTE_REGENERATED with a note_id',
      actual: mine()[0]!.body.slice(0, 300),
      says: ['NOTE_REGENERATED | a note is regenerated', '| note_id | UUID string |'],
    });
    const noteId = String(j.note_id);
    const fetched = await ctx.send({ method: 'GET', path: `/notes/${encodeURIComponent(noteId)}`, key: ctx.keys.main });
    const n = objOf(fetched);
    ctx.expect(fetched.response.status === 200 && n.id === noteId && n.session_id === sessionId, {
      expected: `GET /notes/${noteId} answers 200 with the note of session ${sessionId}`,
      actual: got(fetched),
      exchange: fetched,
      says: 'NOTE_REGENERATED | a note is regenerated, for example by the regenerate endpoint | GET /notes/{noteId} |',
    });
    // Compared as instants: two ISO 8601 forms of one time (with and without milliseconds, another offset) differ as text.
    if (n.id === first.id && typeof objOf(before).updated_at === 'string')
      ctx.expect(Date.parse(String(n.updated_at)) > Date.parse(String(objOf(before).updated_at)), {
        expected: `the fetched note is the regenerated one: updated_at after ${String(objOf(before).updated_at)}`,
        actual: `updated_at ${String(n.updated_at)}`,
        exchange: fetched,
        says: ['NOTE_REGENERATED | a note is regenerated', 'updated_at (ISO 8601)'],
      });
  });
}

export async function unqueued_upload_fires_no_event(ctx: CheckContext): Promise<void> {
  await withProbe(ctx, ok200, async (probe, hook) => {
    const h = await hook(DOC_EVENT, 'unqueued');
    await ctx.mock!.fault({ kind: 'extraction-not-queued', count: 1 });
    let unqueued: Doc;
    try {
      unqueued = await upload(ctx);
    } finally {
      await ctx.mock!.clearFaults();
    }
    // A second upload, queued: once its event has come, the first one's would have too.
    const queued = await upload(ctx);
    if (!(await awaitThenLinger(ctx, probe, h, queued, `${DOC_EVENT} for the queued upload ${queued.docId} (the webhook works)`, 200)))
      return;
    const status = await docStatus(ctx, unqueued);
    if (status === 'completed' || status === 'failed')
      return ctx.skip(`the upload under the extraction-not-queued fault was extracted anyway (${status}): the fault did not apply`);
    const fired = probe.on(h.path, unqueued.docId);
    ctx.expect(!fired.length, {
      expected: `no ${DOC_EVENT} for document ${unqueued.docId}, whose extraction was not queued (still ${status ?? 'unlisted'})`,
      actual: bodies(fired),
      says: 'no webhook will fire',
    });
  });
}

export async function webhook_static_headers_every_delivery(ctx: CheckContext): Promise<void> {
  // The first attempt of each webhook is answered 503, so a retry is a delivery too.
  await withProbe(
    ctx,
    (_, nth) => ({ status: nth === 1 ? 503 : 200 }),
    async (probe, hook) => {
      const headers = { 'X-Crc-Secret': hexToken(), 'X-Crc-Tenant': `conformance ${ctx.runId}` };
      const hooks = [
        await hook(DOC_EVENT, 'static-json', { headers }),
        await hook(DOC_EVENT, 'static-form', { headers, format: 'Form Data' }),
      ];
      const doc = await upload(ctx);
      await awaitDoc(ctx, probe, doc, () => hooks.every((h) => probe.on(h.path, doc.docId).length >= 2));
      for (const h of hooks) {
        const hs = probe.on(h.path, doc.docId);
        if (
          !ctx.expect(hs.length >= 1, {
            expected: `a delivery of document ${doc.docId} to ${h.path}`,
            actual: 'none',
            says: 'DOCUMENT_STATUS_CHANGED | document text extraction reaches completed or failed',
          })
        )
          continue;
        for (const [i, x] of hs.entries()) {
          const wrong = Object.entries(headers).filter(([k, v]) => x.headers[k.toLowerCase()] !== v);
          ctx.expect(!wrong.length, {
            expected: `attempt ${i + 1} to ${h.path} carries the static headers ${Object.entries(headers)
              .map(([k, v]) => `${k}: ${v}`)
              .join(', ')}`,
            actual: wrong.map(([k]) => `${k}: ${JSON.stringify(x.headers[k.toLowerCase()])}`).join(', '),
            says: 'optional static headers sent with every delivery',
          });
        }
      }
    },
  );
}

export async function webhook_no_replay_before_registration(ctx: CheckContext): Promise<void> {
  await withProbe(ctx, ok200, async (probe, hook) => {
    const earlier = await upload(ctx);
    const wait = serviceWait(ctx, 'extraction');
    const status = (await followDocument(ctx, earlier.patientId, earlier.ext, wait)).last?.status as string | undefined;
    if (status !== 'completed' && status !== 'failed')
      return ctx.skip(`document ${earlier.docId} is still ${status ?? 'unlisted'}: its event did not happen within ${wait / 1000} s`);
    const h = await hook(DOC_EVENT, 'no-replay');
    const later = await upload(ctx);
    await awaitThenLinger(ctx, probe, h, later, `${DOC_EVENT} for document ${later.docId}, uploaded after the registration`, 100);
    const replayed = probe.on(h.path, earlier.docId);
    ctx.expect(!replayed.length, {
      expected: `no delivery for document ${earlier.docId}, whose extraction ended (${status}) before the webhook was registered`,
      actual: bodies(replayed),
      says: 'Deliveries start with the next matching event.',
    });
  });
}

export const checks: CheckDef[] = [
  check(webhook_posted_to_registered_url, { rule: 'EVT-001', needs: { mock: true, write: true }, waits: ['extraction'] }),
  check(webhook_payload_identifiers_only, { rule: 'EVT-002', needs: { mock: true, write: true }, exclusive: true, waits: ['extraction'] }),
  check(note_regenerated_event_fetch, { rule: 'EVT-005', needs: { mock: true, write: true }, waits: ['regeneration'] }),
  check(unqueued_upload_fires_no_event, {
    rule: 'EVT-011',
    needs: { mock: true, write: true },
    exclusive: true,
    waits: ['extraction', 'extraction'],
  }),
  check(webhook_static_headers_every_delivery, { rule: 'EVT-029', needs: { mock: true, write: true }, waits: ['extraction'] }),
  check(webhook_no_replay_before_registration, {
    rule: 'EVT-031',
    needs: { mock: true, write: true },
    waits: ['extraction', 'extraction', 'extraction'],
  }),
];
