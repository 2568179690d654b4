// EVT: webhook deliveries received by the suite's receiver (the mock's with --mock, a deployment's with
// --webhook-receiver), in whatever documented format they come: payload schema, POST, retries with the identical
// payload and their backoff timed on the receiver's own clock, the deduplication triple, note events.
import { isAbout, type Delivery } from '../../target/receiver.ts';
import type { CheckContext, CheckDef } from '../../run/model.ts';
import { MARGIN_MS, timeScale } from '../../run/durations.ts';
import { uploadDocument, objOf, followDocument, listOf, got, made, SETUP } from '../support/common.ts';
import { register, unregister, serviceWait, backoffWindow, docStatus, ms, DOC_EVENT } from '../support/webhook-probe.ts';
import { check } from '../support/define.ts';
import { expectLoggedBackoff, type LoggedAttempt, loggedAttempts } from '../support/delivery-log.ts';

/** The receiver's answers to the shared delivery's first attempts: two 500s, so three attempts and two backoff gaps. */
const SCRIPT = [500, 500];

interface Uploaded {
  docId: string;
  patientId: string;
  ext: string;
}

/** A delivery about the upload: by its document id, or by its external_id should the id in the payload be wrong. */
const aboutDoc = (u: Uploaded) => (d: Delivery) => isAbout(d, u.docId) || isAbout(d, u.ext);

/** Uploads a document (its scripted answers, if any, set before: the event may come before the upload's answer). */
async function uploadFor(ctx: CheckContext, statuses: number[]): Promise<Uploaded & { release(): void }> {
  const patientId = String((await ctx.fixtures.patient()).id);
  const ext = ctx.externalId('hook');
  const script = ctx.receiver!.answerFor([ext], statuses);
  try {
    const docId = made(await uploadDocument(ctx, patientId, ext), `a stored upload to cause ${DOC_EVENT}`, SETUP.upload).id;
    script.add(docId);
    return { docId, patientId, ext, release: script.release };
  } catch (e) {
    script.release();
    throw e;
  }
}

/**
 * Waits for the first delivery about the upload: through its extraction (its status polled, as upload rule 3 allows,
 * for the documented 30 s and a margin), then a margin for the event to be sent. When none came although the
 * extraction ended, against a deployment no webhook is registered to the receiver: skips, saying so. (With --mock,
 * where the suite registered it, the checks fail for want of the delivery.)
 */
async function awaitFirst(ctx: CheckContext, u: Uploaded): Promise<void> {
  const receiver = ctx.receiver!;
  const mine = aboutDoc(u);
  const extraction = serviceWait(ctx, 'extraction');
  const deadline = performance.now() + extraction;
  let status: string | undefined;
  // Polls the document, every second at most, until its extraction ends; a delivery ends the wait at once.
  for (let pause = 50; !(await receiver.waitFor((ds) => ds.some(mine), pause)); pause = Math.min(2 * pause, 1_000)) {
    status = await docStatus(ctx, u);
    if (status === 'completed' || status === 'failed' || performance.now() > deadline) break;
  }
  const ended = status === 'completed' || status === 'failed';
  if (await receiver.waitFor((ds) => ds.some(mine), ended ? MARGIN_MS : 0)) return;
  if (!ended)
    return ctx.skip(
      `document ${u.docId} is still ${status ?? 'unlisted'} after ${extraction / 1000} s (the documented 30 s and a margin): its ${DOC_EVENT} is not due yet`,
    );
  if (!ctx.mock)
    return ctx.skip(
      `no ${DOC_EVENT} delivery for document ${u.docId} within ${MARGIN_MS / 1000} s of its extraction ending (${status}): is a webhook for ${DOC_EVENT} registered in the web application to the --webhook-receiver URL?`,
    );
}

interface Retried extends Uploaded {
  /** Every delivery about the upload, in arrival order. */
  attempts: Delivery[];
  /** With --mock, the mock's log of that delivery (delivery-log.ts). */
  logged?: LoggedAttempt[];
}

/**
 * One upload's DOCUMENT_STATUS_CHANGED, answered 500, 500, then 200: shared by the checks of its payload, its method,
 * its retries and their backoff. When nothing comes, each of them skips (or fails, with --mock) for the same reason.
 */
function retriedDelivery(ctx: CheckContext): Promise<Retried> {
  return ctx.fixtures.shared('received-retried-delivery', async () => {
    const hook = await register(ctx, DOC_EVENT);
    const u = await uploadFor(ctx, SCRIPT);
    try {
      await awaitFirst(ctx, u);
      // The retries: each backoff within the 5 s cap, and a margin.
      const retries = 2 * 5_000 * timeScale(ctx.mock) + MARGIN_MS;
      await ctx.receiver!.waitFor((ds) => ds.filter(aboutDoc(u)).length > SCRIPT.length, retries);
      const attempts = ctx.receiver!.deliveries.filter(aboutDoc(u));
      const logged = hook && attempts.length > SCRIPT.length ? await loggedAttempts(ctx, hook, u.docId) : undefined;
      return { docId: u.docId, patientId: u.patientId, ext: u.ext, attempts, logged };
    } finally {
      u.release();
      await unregister(ctx, hook);
    }
  });
}

/** The shared delivery's attempts; a failure of the check when none came. */
async function attemptsOf(ctx: CheckContext): Promise<Retried | undefined> {
  const r = await retriedDelivery(ctx);
  return ctx.expect(r.attempts.length > 0, {
    expected: `a ${DOC_EVENT} delivery for document ${r.docId}`,
    actual: 'none',
    says: 'DOCUMENT_STATUS_CHANGED | document text extraction reaches completed or failed',
  })
    ? r
    : undefined;
}

/**
 * The payload a delivery carries, keys sorted: retries must carry the identical payload, not the identical bytes (a
 * multipart body has a fresh boundary each time). The raw body when it could not be read.
 */
const payloadOf = (d: Delivery) =>
  d.json ? JSON.stringify(Object.fromEntries(Object.entries(d.json).sort(([a], [b]) => (a < b ? -1 : 1)))) : d.body;

const what = (d: Delivery) => `${d.format ?? 'unreadable'} ${d.body.slice(0, 300)}${d.unreadable ? ` (${d.unreadable})` : ''}`;

/**
 * A session to finalize: one the control API lists as completed without a note, or else (a mock already run
 * against) a session that has notes, finalized with a template none of its notes uses (the notes list names them).
 */
async function finalizeTarget(ctx: CheckContext): Promise<{ sessionId: string; templateId?: string }> {
  const fresh = (await ctx.mock!.sessions()).find(
    (s) => s.organization_id === ctx.keys.mainOrg && s.transcript_status === 'completed' && !s.has_note,
  );
  if (fresh) return { sessionId: fresh.id };
  const ex = await ctx.send({ method: 'GET', path: '/notes', key: ctx.keys.main, query: { limit: 100 } });
  const notes = listOf(ex);
  const templates = [...new Set(notes.map((n) => String(n.template_id ?? '')).filter(Boolean))];
  for (const sessionId of new Set(notes.map((n) => String(n.session_id)))) {
    const used = new Set(notes.filter((n) => n.session_id === sessionId).map((n) => String(n.template_id)));
    const free = templates.find((t) => !used.has(t));
    if (free) return { sessionId, templateId: free };
  }
  return ctx.skip(`no session to finalize: the notes list (${got(ex).slice(0, 80)}) names no session with a template left to use`);
}

/** Waits for the note event of `note`, checks it against the NoteEvent schema and the note, and follows note_url. */
async function noteEvent(ctx: CheckContext, event: string, note: Record<string, unknown>, o: { says: string }): Promise<void> {
  const mine = (d: Delivery) => d.json?.event === event && d.json.note_id === note.id;
  const wait = serviceWait(ctx, 'delivery');
  await ctx.receiver!.waitFor((ds) => ds.some(mine), wait);
  const deliveries = ctx.receiver!.deliveries.filter(mine);
  if (
    !ctx.expect(deliveries.length >= 1, {
      expected: `a ${event} delivery for note ${String(note.id)}`,
      actual: `none within ${wait / 1000} s`,
      says: o.says,
    })
  )
    return;
  const d = deliveries[0]!;
  const errors = ctx.schemas.validate('#/components/schemas/NoteEvent', d.json);
  ctx.expect(!errors.length, {
    expected: 'payload valid against NoteEvent',
    actual: `${errors.join('; ')} in ${what(d)}`,
    says: 'Note events (NOTE_CREATED, NOTE_REGENERATED, NOTE_UPDATED):',
  });
  const j = d.json ?? {};
  const same = ['session_id', 'patient_id', 'template_id'].filter((k) => note[k] !== undefined && j[k] !== note[k]);
  ctx.expect(!same.length, {
    expected: `session_id, patient_id, template_id of note ${String(note.id)}`,
    actual: `${same.map((k) => `${k} ${JSON.stringify(j[k])} (note: ${JSON.stringify(note[k])})`).join(', ')}`,
    says: ['Events are notifications that carry identifiers', '| session_id | UUID string |', '| template_id | UUID string |'],
  });
  let url: URL | undefined;
  try {
    url = new URL(String(j.note_url));
  } catch {
    url = undefined;
  }
  const basePath = new URL(ctx.http.baseUrl).pathname.replace(/\/$/, '');
  const rel = url?.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : undefined;
  if (
    !ctx.expect(!!rel && rel === `/notes/${String(note.id)}`, {
      expected: `note_url an absolute URL of ${basePath}/notes/${String(note.id)}`,
      actual: JSON.stringify(j.note_url),
      says: '| note_url | absolute URL of the note detail endpoint |',
    })
  )
    return;
  const fetched = await ctx.send({ method: 'GET', path: rel!, key: ctx.keys.main });
  ctx.expect(fetched.response.status === 200 && objOf(fetched).id === note.id, {
    expected: `GET note_url answers 200 with note ${String(note.id)}`,
    actual: got(fetched),
    exchange: fetched,
    says: 'the receiver fetches content through the API using the URL in the payload',
  });
}

export async function webhook_payload_schema(ctx: CheckContext): Promise<void> {
  const r = await attemptsOf(ctx);
  if (!r) return;
  // Retries carry the identical payload (EVT-037 judges that): each distinct one is judged once.
  for (const d of new Map(r.attempts.map((x) => [payloadOf(x), x])).values()) {
    const errors = ctx.schemas.validate('#/components/schemas/DocumentStatusChangedEvent', d.json);
    ctx.expect(!errors.length, {
      expected: 'payload valid against DocumentStatusChangedEvent',
      actual: `${errors.join('; ')} in ${what(d)}`,
      says: [
        '| document_id | UUID string |',
        '| external_id | string, null when none was set |',
        '| status | completed or failed |',
        '| error | string describing the failure, null on success |',
      ],
    });
    ctx.expect(d.json?.document_id === r.docId && d.json?.patient_id === r.patientId, {
      expected: `the uploaded document: document_id ${r.docId}, patient_id ${r.patientId}`,
      actual: what(d),
      says: ['Events are notifications that carry identifiers', '| document_id | UUID string |'],
    });
  }
}

/** document_url: "direct lookup by external_id when one was set" (the upload set one), relative or absolute; it answers. */
export async function document_url_lookup(ctx: CheckContext): Promise<void> {
  const r = await attemptsOf(ctx);
  const d = r?.attempts[0];
  if (!r || !d) return;
  const base = new URL(ctx.http.baseUrl.replace(/\/?$/, '/'));
  let url: URL | undefined;
  try {
    url = new URL(String(d.json?.document_url ?? ''), base);
  } catch {
    url = undefined;
  }
  const basePath = base.pathname.replace(/\/$/, '');
  const path = url?.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : undefined;
  const lookup = `/patients/${r.patientId}/documents`;
  if (
    !ctx.expect(path === lookup && url?.searchParams.get('external_id') === r.ext, {
      expected: `document_url the lookup ${basePath}${lookup}?external_id=${r.ext} (the upload set that external_id)`,
      actual: JSON.stringify(d.json?.document_url),
      says: "direct lookup by external_id when one was set, otherwise the patient's document collection",
    })
  )
    return;
  const fetched = await ctx.send({ method: 'GET', path: lookup, key: ctx.keys.main, query: { external_id: r.ext } });
  ctx.expect(fetched.response.status === 200 && listOf(fetched).some((x) => x.id === r.docId), {
    expected: `GET document_url answers 200 with document ${r.docId}`,
    actual: got(fetched),
    exchange: fetched,
    says: 'the receiver fetches content through the API using the URL in the payload',
  });
}

export async function received_delivery_is_post(ctx: CheckContext): Promise<void> {
  const r = await attemptsOf(ctx);
  for (const d of r?.attempts ?? [])
    ctx.expect(d.method === 'POST', {
      expected: 'every attempt of the delivery sent as POST',
      actual: `${d.method} ${d.path}`,
      says: 'Method POST',
    });
}

export async function webhook_retries_identical_payload(ctx: CheckContext): Promise<void> {
  const r = await attemptsOf(ctx);
  if (!r) return;
  ctx.expect(r.attempts.length > SCRIPT.length, {
    expected: `a retry after each of the receiver's answers ${SCRIPT.join(', ')}: ${SCRIPT.length + 1} attempts`,
    actual: `${r.attempts.length} attempt(s), answered ${r.attempts.map((d) => d.answered).join(', ')}`,
    says: 'Up to 3 attempts, with exponential backoff of 1 s then 2 s, capped at 5 s. Responses 408, 429 and 5xx are retried',
  });
  ctx.expect(new Set(r.attempts.map(payloadOf)).size === 1, {
    expected: 'every retry carries the identical payload',
    actual: r.attempts.map(payloadOf).join('\n'),
    says: 'a retry carries the identical payload',
  });
}

export async function received_retry_backoff(ctx: CheckContext): Promise<void> {
  const r = await attemptsOf(ctx);
  if (!r) return;
  if (r.attempts.length <= SCRIPT.length)
    return ctx.block(`${SCRIPT.length + 1} attempts of a delivery answered ${SCRIPT.join(', ')} (${r.attempts.length} came)`, 'EVT-037');
  // On the mock its log gives the backoff in service time; the receiver's gaps must agree with it.
  const seen = r.attempts.slice(1, SCRIPT.length + 1).map((d, i) => d.at - r.attempts[i]!.answeredAt);
  if (r.logged) return expectLoggedBackoff(ctx, 'the delivery answered 500, 500', r.logged.slice(0, SCRIPT.length + 1), seen);
  // The receiver's own clock: from its answer to the next attempt's arrival. A service second is 1000 ms (the mock's scaled).
  const unit = 1000 * timeScale(ctx.mock);
  for (const n of [1, 2] as const) {
    const gap = r.attempts[n]!.at - r.attempts[n - 1]!.answeredAt;
    const [lo, hi] = backoffWindow(n, unit);
    ctx.expect(gap >= lo && gap <= hi, {
      expected: `attempt ${n + 1} ${n} s after the receiver answered attempt ${n} ${r.attempts[n - 1]!.answered} (backoff 1 s then 2 s${unit === 1000 ? '' : `, 1 s ≈ ${ms(unit)}`}): ${ms(lo)}..${ms(hi)}`,
      actual: `${ms(gap)}`,
      says: 'exponential backoff of 1 s then 2 s, capped at 5 s',
    });
  }
}

export async function webhook_dedupe_triple_distinct(ctx: CheckContext): Promise<void> {
  const hook = await register(ctx, DOC_EVENT);
  try {
    await ctx.mock!.fault({ kind: 'extraction-fails', count: 1 });
    const u = await uploadFor(ctx, []);
    u.release();
    await followDocument(ctx, u.patientId, u.ext, serviceWait(ctx, 'extraction'));
    await ctx.send({ method: 'POST', path: `/patients/${u.patientId}/documents/${u.docId}/extract`, key: ctx.keys.main });
    // Delivery is at-least-once: a delivery repeated is one event (receivers deduplicate by the whole payload), and
    // the events are taken in the order they happened (their timestamps), which their arrival need not keep.
    const distinct = (ds: Delivery[]) => [...new Map(ds.filter(aboutDoc(u)).map((d) => [payloadOf(d), d.json ?? {}])).values()];
    const at = (p: Record<string, unknown>) => Date.parse(String(p.timestamp)) || 0;
    await ctx.receiver!.waitFor((ds) => distinct(ds).length >= 2, serviceWait(ctx, 'extraction'));
    const payloads = distinct(ctx.receiver!.deliveries).sort((a, b) => at(a) - at(b));
    ctx.expect(payloads.map((p) => p.status).join() === 'failed,completed', {
      expected: 'failed then completed for one document (a repeated delivery counted once, in timestamp order)',
      actual: payloads.map((p) => String(p.status)).join(', '),
      says: ['a failed document can later reach completed and emit a second event', 'one document id may emit failed then completed'],
    });
    const triples = new Set(payloads.map((p) => `${String(p.event)}|${String(p.document_id)}|${String(p.timestamp)}`));
    ctx.expect(triples.size === payloads.length, {
      expected: 'distinct event + resource id + timestamp triples',
      actual: [...triples].join(', '),
      says: 'Receivers deduplicate retries by the whole payload or by the triple event + resource id + timestamp, not by resource id alone',
    });
  } finally {
    await unregister(ctx, hook);
  }
}

export async function note_created_event(ctx: CheckContext): Promise<void> {
  const id = await register(ctx, 'NOTE_CREATED');
  try {
    const target = await finalizeTarget(ctx);
    const r = await ctx.mock!.call<{ data?: Record<string, unknown>; error?: string }>(
      'POST',
      `/sessions/${target.sessionId}/finalize`,
      target.templateId ? { template_id: target.templateId } : {},
    );
    const note = r.body?.data;
    if (r.status !== 201 || !note?.id)
      return ctx.skip(`POST /__mock/sessions/${target.sessionId}/finalize answered ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    await noteEvent(ctx, 'NOTE_CREATED', note, {
      says: 'NOTE_CREATED | a new note is generated (a session is finalized, or a note is created via the API)',
    });
  } finally {
    await unregister(ctx, id);
  }
}

export async function note_updated_event(ctx: CheckContext): Promise<void> {
  const id = await register(ctx, 'NOTE_UPDATED');
  try {
    const first = await ctx.fixtures.firstNote();
    const r = await ctx.mock!.call<{ data?: Record<string, unknown> }>('PATCH', `/notes/${String(first.id)}`, {
      content: `Edited by the conformance suite, run ${ctx.runId}.`,
    });
    const note = r.body?.data;
    if (r.status !== 200 || !note?.id)
      return ctx.skip(`PATCH /__mock/notes/${String(first.id)} answered ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    await noteEvent(ctx, 'NOTE_UPDATED', note, { says: 'NOTE_UPDATED | an existing note is edited, saved or reverted' });
  } finally {
    await unregister(ctx, id);
  }
}

/** What the checks of the shared delivery wait for: the extraction, then the delivery's attempts. */
const DELIVERY_WAITS: CheckDef['waits'] = ['extraction', 'delivery'];

export const checks: CheckDef[] = [
  check(webhook_payload_schema, {
    rule: 'EVT-007',
    payloadSchemas: ['#/components/schemas/DocumentStatusChangedEvent'],
    needs: { receiver: true, write: true },
    exclusive: true,
    waits: DELIVERY_WAITS,
  }),
  check(document_url_lookup, { rule: 'EVT-023', needs: { receiver: true, write: true }, exclusive: true, waits: DELIVERY_WAITS }),
  check(received_delivery_is_post, { rule: 'EVT-032', needs: { receiver: true, write: true }, exclusive: true, waits: DELIVERY_WAITS }),
  check(webhook_retries_identical_payload, {
    rule: 'EVT-037',
    needs: { receiver: true, write: true },
    exclusive: true,
    waits: DELIVERY_WAITS,
  }),
  check(received_retry_backoff, { rule: 'EVT-035', needs: { receiver: true, write: true }, exclusive: true, waits: DELIVERY_WAITS }),
  check(webhook_dedupe_triple_distinct, {
    rule: 'EVT-042',
    covers: ['EVT-008', 'EVT-009', 'EVT-010'],
    needs: { receiver: true, write: true, mock: true },
    exclusive: true,
    // Two extraction runs (failed, then completed on the extract endpoint).
    waits: ['extraction', 'extraction'],
  }),
  check(note_created_event, {
    rule: 'EVT-004',
    covers: ['EVT-003', 'EVT-016'],
    payloadSchemas: ['#/components/schemas/NoteEvent'],
    needs: { receiver: true, mock: true },
    exclusive: true,
    waits: ['delivery'],
  }),
  check(note_updated_event, {
    rule: 'EVT-006',
    payloadSchemas: ['#/components/schemas/NoteEvent'],
    needs: { receiver: true, mock: true },
    exclusive: true,
    waits: ['delivery'],
  }),
];
