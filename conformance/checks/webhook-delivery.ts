// How the service delivers webhooks (method, formats, headers, retries, timeouts, redirects): one check per rule.
// With --mock each check registers its own webhooks through the mock's control API (POST /__mock/webhooks) to a
// private loopback probe of its own, closed at the end. Unlike the shared receiver the probe records each request's
// method and when the sender let go of it, can hold an attempt open (timeouts) and answer a 3xx with a Location
// (redirects); each webhook gets a path of its own, so a check sees only its own deliveries and most run side by
// side. The mock scales every duration by --time-scale, so durations are measured in the service's own second:
// the first retry gap (1 s) of a receiver that answers 5xx.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { CheckContext, CheckDef } from '../model.ts';
import { decodeXmlFields, XSI_NAMESPACE } from '../../spec/runtime/webhook-codec.ts';
import { startReceiver, type Receiver } from '../../spec/runtime/webhook-receiver.ts';
import { followDocument, got, listOf, objOf, uploadDocument, type Obj } from './util.ts';

const DOC_EVENT = 'DOCUMENT_STATUS_CHANGED';
const NOTE_EVENT = 'NOTE_UPDATED';
/** The timeout of one attempt, in multiples of the first backoff (30 s against 1 s), and the tolerance around it. */
const TIMEOUT_UNITS = 30;
const TIMEOUT_RANGE: [number, number] = [12, 45];
/** The second backoff against the first (2 s against 1 s), with the tolerance timers and connections leave. */
const BACKOFF_RANGE: [number, number] = [1.3, 3];
/** How late a timer may fire on a loaded machine; matters only when a run scales 1 s down to a few ms. */
const TIMER_LATENESS_MS = 15;

/**
 * Whether gaps g1 then g2 can be the 1 s and 2 s backoffs: timers only fire late, so each true gap lies up to
 * TIMER_LATENESS_MS below the measured one; some pair in that box must have a ratio in BACKOFF_RANGE.
 */
function backoffFits(g1: number, g2: number): boolean {
  const lowest = (g2 - TIMER_LATENESS_MS) / g1;
  const highest = g1 > TIMER_LATENESS_MS ? g2 / (g1 - TIMER_LATENESS_MS) : Infinity;
  return g1 > 0 && g2 > 0 && highest >= BACKOFF_RANGE[0] && lowest <= BACKOFF_RANGE[1];
}

// ----- the probe: a loopback receiver of the check's own -----

interface Hit {
  /** Path and query as requested. */
  url: string;
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request (its body) arrived, and when it ended (answered, or let go by the sender). */
  at: number;
  end?: number;
  /** The status the probe answered; undefined while it holds the attempt open. */
  status?: number;
}

/** What the probe answers attempt `nth` of a delivery to a path: a status (with headers), or 'hold' (never answer). */
type Answer = { status: number; headers?: Record<string, string> } | 'hold';
type Answerer = (path: string, nth: number) => Answer;

/** The recording receiver of spec/runtime, answering each delivery's attempt as the check scripts it. */
class Probe {
  private receiver?: Receiver;
  private readonly counts = new Map<string, number>();

  constructor(private readonly answer: Answerer) {}

  async listen(): Promise<void> {
    this.receiver = await startReceiver((_, r) => {
      const path = r.path.split('?')[0]!;
      const text = r.body.toString('utf8');
      // The attempt number of this delivery: a retry carries the identical payload to the same path.
      const nth = (this.counts.get(`${path}\n${text}`) ?? 0) + 1;
      this.counts.set(`${path}\n${text}`, nth);
      const a = this.answer(path, nth);
      return a === 'hold' ? a : { status: a.status, headers: { 'Content-Type': 'text/plain', ...a.headers }, body: 'crc' };
    });
  }

  /** Every request so far, as copies (later changes not seen). */
  get hits(): Hit[] {
    return (this.receiver?.received ?? []).map((r) => ({ ...r, url: r.path, path: r.path.split('?')[0]!, body: r.body.toString('utf8') }));
  }

  url(pathAndQuery: string): string {
    return `${this.receiver!.origin}${pathAndQuery}`;
  }

  /** Requests on `path` whose body names `needle` (a document or note id), as copies (later changes not seen). */
  on(path: string, needle?: string): Hit[] {
    return this.hits.filter((h) => h.path === path && (needle === undefined || h.body.includes(needle)));
  }

  waitFor(pred: () => boolean, timeoutMs: number): Promise<boolean> {
    return this.receiver!.waitUntil(pred, timeoutMs, 100);
  }

  async close(): Promise<void> {
    await this.receiver?.close();
  }
}

// ----- webhooks registered through the mock, to the probe -----

interface Hook {
  id: string;
  path: string;
  event: string;
}
type HookOptions = { format?: string; headers?: Record<string, string>; query?: string };
type HookFn = (event: string, label: string, extra?: HookOptions) => Promise<Hook>;

/** Runs `fn` with a fresh probe and a `hook` that registers webhooks to it; unregisters them and closes the probe. */
async function withProbe<T>(ctx: CheckContext, answer: Answerer, fn: (probe: Probe, hook: HookFn) => Promise<T>): Promise<T> {
  const probe = new Probe(answer);
  await probe.listen();
  const ids: string[] = [];
  const hook: HookFn = async (event, label, extra = {}) => {
    const path = `/${ctx.runId}/${label}-${randomBytes(3).toString('hex')}`;
    const r = await ctx.mock!.call<{ data?: { id?: string }; error?: string }>('POST', '/webhooks', {
      name: `${ctx.prefix}${label}`,
      url: probe.url(path + (extra.query ? `?${extra.query}` : '')),
      event,
      ...(extra.format ? { format: extra.format } : {}),
      ...(extra.headers ? { headers: extra.headers } : {}),
      ...(ctx.keys.mainOrg ? { organization_id: ctx.keys.mainOrg } : {}),
    });
    const id = r.body?.data?.id;
    if (r.status >= 300 || typeof id !== 'string')
      return ctx.skip(`the mock refused a loopback webhook (${r.status} ${JSON.stringify(r.body).slice(0, 200)}); start it with --allow-private-webhooks`);
    ids.push(id);
    return { id, path, event };
  };
  try {
    return await fn(probe, hook);
  } finally {
    for (const id of ids) await ctx.mock!.call('DELETE', `/webhooks/${id}`).catch(() => undefined);
    await probe.close();
  }
}

/** How long a check waits for a delivery. */
const budget = (ctx: CheckContext) => Math.min(ctx.timeoutMs, 20_000);
const ok200: Answerer = () => ({ status: 200 });
const token = () => randomBytes(6).toString('hex');
const parse = (text: string): Obj | undefined => {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
  } catch {
    return undefined;
  }
};
const mediaType = (h: Hit) => String(h.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
const ms = (x: number) => `${Math.round(x)} ms`;

// ----- events to deliver: a document of the run, a seeded note touched through the mock -----

interface Doc {
  docId: string;
  patientId: string;
  ext: string;
}

/** Uploads a one-page PDF (its extraction ends in DOCUMENT_STATUS_CHANGED). */
async function upload(ctx: CheckContext, o: { text?: string; fileName?: string; patientId?: string } = {}): Promise<Doc> {
  const patientId = o.patientId ?? String((await ctx.fixtures.patient()).id);
  const ext = ctx.externalId('hook-doc');
  const ex = await uploadDocument(ctx, patientId, ext, o);
  const id = objOf(ex).id;
  if (ex.response.status !== 201 || typeof id !== 'string') return ctx.skip(`could not upload a document to cause ${DOC_EVENT}: ${got(ex)}`);
  return { docId: id, patientId, ext };
}

async function docStatus(ctx: CheckContext, d: Doc): Promise<string | undefined> {
  const ex = await ctx.send({ method: 'GET', path: `/patients/${d.patientId}/documents`, key: ctx.keys.main, query: { external_id: d.ext } });
  const s = listOf(ex)[0]?.status;
  return typeof s === 'string' ? s : undefined;
}

/** Waits for `pred`; when it does not come true and the document's extraction has not ended yet, skips (too slow). */
async function awaitDoc(ctx: CheckContext, probe: Probe, d: Doc, pred: () => boolean): Promise<boolean> {
  const wait = budget(ctx);
  if (await probe.waitFor(pred, wait)) return true;
  const s = await docStatus(ctx, d);
  if (s !== 'completed' && s !== 'failed')
    return ctx.skip(`document ${d.docId} is still ${s ?? 'unlisted'} after ${wait / 1000} s: its extraction outlasts the wait (a smaller --time-scale or a larger --timeout)`);
  return false;
}

/**
 * Waits for `doc`'s event on `hook` (a failure when none comes), then as long again (at least `minMs`): by then an
 * event due before it would have come too. Returns whether it came (no lingering when not: the wait was the budget).
 */
async function awaitThenLinger(ctx: CheckContext, probe: Probe, hook: Hook, doc: Doc, expected: string, minMs: number): Promise<boolean> {
  const since = performance.now();
  const seen = () => probe.on(hook.path, doc.docId).length > 0;
  await awaitDoc(ctx, probe, doc, seen);
  if (!ctx.expect(seen(), { expected, actual: 'none' })) return false;
  await ctx.sleep(Math.max(minMs, performance.now() - since));
  return true;
}
const bodies = (hs: Hit[]) => hs.map((x) => x.body.slice(0, 300)).join('\n');

/**
 * NOTE_UPDATED for the first note, without changing it: the mock's note edit (PATCH /__mock/notes/{id}, as the web
 * application would) with the content it already has. Returns the note's detail as read before.
 */
async function touchNote(ctx: CheckContext): Promise<Obj> {
  const first = await ctx.fixtures.firstNote();
  const ex = await ctx.send({ method: 'GET', path: `/notes/${String(first.id)}`, key: ctx.keys.main });
  const note = objOf(ex);
  if (ex.response.status !== 200 || typeof note.content !== 'string') return ctx.skip(`GET /notes/${String(first.id)} answered ${got(ex).slice(0, 120)}: no note content to save again`);
  const r = await ctx.mock!.call('PATCH', `/notes/${String(note.id)}`, { content: note.content });
  if (r.status !== 200) return ctx.skip(`PATCH /__mock/notes/${String(note.id)} answered ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`);
  return note;
}

/** The mock's delivery log for one webhook (GET /__mock/deliveries). */
interface LoggedDelivery {
  state?: string;
  attempts?: Array<{ status?: number; error?: string }>;
  payload?: Obj;
}
async function logOf(ctx: CheckContext, hookId: string): Promise<LoggedDelivery[]> {
  const r = await ctx.mock!.call<{ data?: LoggedDelivery[] }>('GET', `/deliveries?webhook_id=${encodeURIComponent(hookId)}`);
  return Array.isArray(r.body?.data) ? r.body.data : [];
}
/** Polls the log until no delivery of the webhook naming `needle` is pending (or the budget passes). */
async function settledLog(ctx: CheckContext, hookId: string, needle: string): Promise<LoggedDelivery[]> {
  const deadline = Date.now() + budget(ctx);
  let mine: LoggedDelivery[] = [];
  for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
    mine = (await logOf(ctx, hookId)).filter((d) => JSON.stringify(d.payload ?? {}).includes(needle));
    if ((mine.length && mine.every((d) => d.state !== 'pending')) || Date.now() > deadline) return mine;
    await ctx.sleep(wait);
  }
}
const attemptsText = (ds: LoggedDelivery[]) =>
  ds.map((d) => `${String(d.state)} after ${(d.attempts ?? []).map((a) => a.status ?? a.error).join(', ')}`).join('; ') || 'no delivery logged';

// ----- formats: one event of each kind delivered as JSON (the default), XML and Form Data -----

const FORMATS = [
  { name: 'JSON', media: /json/ },
  { name: 'XML', media: /xml/ },
  { name: 'Form Data', media: /x-www-form-urlencoded/ },
] as const;
type FormatName = (typeof FORMATS)[number]['name'];

interface FormatSample {
  event: string;
  /** The resource id the event names (document or note). */
  id: string;
  /** The payload's schema (#/components/schemas/...) and its property order. */
  fields: string[];
  /** The delivery per format (undefined when none came); JSON from a webhook registered without a format. */
  hits: Record<FormatName, Hit | undefined>;
  /** The media types the spec lists for the event's request body. */
  media: string[];
}

function specMedia(ctx: CheckContext, event: string): string[] {
  const post = ctx.contract.resolve(`#/webhooks/${event}/post`) as { requestBody?: Parameters<CheckContext['contract']['deref']>[0] } | undefined;
  const rb = ctx.contract.deref(post?.requestBody) as { content?: Record<string, unknown> } | undefined;
  return Object.keys(rb?.content ?? {});
}
function schemaFields(ctx: CheckContext, schema: string): string[] {
  const s = ctx.contract.resolve(`#/components/schemas/${schema}`) as { properties?: Obj } | undefined;
  return Object.keys(s?.properties ?? {});
}
/** The spec's media type for a format name (JSON, XML, Form Data). */
function mediaFor(sample: FormatSample, f: FormatName): string | undefined {
  return sample.media.find((m) => FORMATS.find((x) => x.name === f)!.media.test(m));
}

/** One document event and one note event, each to a JSON (default), an XML and a Form Data webhook. Shared. */
function formatSamples(ctx: CheckContext): Promise<FormatSample[]> {
  return ctx.fixtures.shared('webhook-delivery-formats', () =>
    withProbe(ctx, ok200, async (probe, hook) => {
      const hooks = new Map<string, Hook>();
      for (const event of [DOC_EVENT, NOTE_EVENT])
        for (const f of FORMATS) hooks.set(`${event} ${f.name}`, await hook(event, `format-${f.name.replace(' ', '')}`, f.name === 'JSON' ? {} : { format: f.name }));
      const doc = await upload(ctx);
      const note = await touchNote(ctx);
      const ids: Record<string, string> = { [DOC_EVENT]: doc.docId, [NOTE_EVENT]: String(note.id) };
      const all = () => [...hooks.entries()].every(([k, h]) => probe.on(h.path, ids[k.split(' ')[0]!]).length > 0);
      await awaitDoc(ctx, probe, doc, all);
      return [DOC_EVENT, NOTE_EVENT].map((event) => ({
        event,
        id: ids[event]!,
        fields: schemaFields(ctx, event === DOC_EVENT ? 'DocumentStatusChangedEvent' : 'NoteEvent'),
        media: specMedia(ctx, event),
        hits: Object.fromEntries(FORMATS.map((f) => [f.name, probe.on(hooks.get(`${event} ${f.name}`)!.path, ids[event])[0]])) as Record<FormatName, Hit | undefined>,
      }));
    }),
  );
}

/** The assumed XML layout: `<webhook xmlns:xsi=...>` with one child per field, text or xsi:nil. Null when it is not. */
function xmlFields(text: string): { fields: Array<[string, string | null]> } | { why: string } {
  try {
    const { fields, rootAttributes } = decodeXmlFields(text);
    if (rootAttributes['xmlns:xsi'] !== XSI_NAMESPACE) return { why: `root element <webhook> does not declare xmlns:xsi="${XSI_NAMESPACE}"` };
    return { fields };
  } catch (e) {
    return { why: (e as Error).message };
  }
}

/**
 * The layout checks' common part: each sample delivered both as JSON and as `f` (a failure where either is missing),
 * the `f` delivery's Content-Type `media`, then `judge` with the JSON payload and the `f` delivery.
 */
async function eachLayout(ctx: CheckContext, f: 'XML' | 'Form Data', media: string, judge: (s: FormatSample, json: Obj, hit: Hit) => void): Promise<void> {
  for (const s of await formatSamples(ctx)) {
    const json = s.hits.JSON && parse(s.hits.JSON.body);
    const hit = s.hits[f];
    if (!ctx.expect(!!json && !!hit, { expected: `the ${s.event} delivered as JSON and as ${f}`, actual: `${json ? 'JSON' : 'no JSON'}, ${hit ? f : `no ${f}`}` })) continue;
    ctx.expect(mediaType(hit!) === media, { expected: `${s.event} as ${f}: Content-Type ${media}`, actual: String(hit!.headers['content-type']) });
    judge(s, json!, hit!);
  }
}

/** The payload's fields in schema order, as the JSON delivery has them. */
function expectedPairs(sample: FormatSample, json: Obj): Array<[string, unknown]> {
  return sample.fields.filter((f) => f in json).map((f) => [f, json[f]] as [string, unknown]);
}

// ----- retries and timeouts: one delivery held open on every attempt, three answered 5xx -----

interface Timing {
  /** The service's second: the shortest first retry gap of the 5xx receivers (undefined when none retried). */
  unit?: number;
  /** The attempts of the receivers answering 500, 502, 503. */
  failing: Hit[][];
  /** The attempts of the receiver that never answers. */
  held: Hit[];
  /** How long the check waited for the held attempts, and then for a fourth attempt of any. */
  heldWaitMs: number;
  quietMs: number;
}

const gaps = (hs: Hit[]) => hs.slice(1).map((h, i) => h.at - (hs[i]!.end ?? hs[i]!.at));

function timing(ctx: CheckContext): Promise<Timing> {
  return ctx.fixtures.shared('webhook-delivery-timing', () =>
    withProbe(
      ctx,
      (path) => (path.includes('/hold-') ? 'hold' : { status: Number(/\/fail(\d{3})-/.exec(path)?.[1] ?? 200) }),
      async (probe, hook) => {
        const held = await hook(DOC_EVENT, 'hold');
        const failing: Hook[] = [];
        for (const s of [500, 502, 503]) failing.push(await hook(DOC_EVENT, `fail${s}`));
        const doc = await upload(ctx);
        const started = performance.now();
        await awaitDoc(ctx, probe, doc, () => failing.every((h) => probe.on(h.path, doc.docId).length >= 2) || probe.on(held.path, doc.docId).some((h) => h.end !== undefined));
        const firstGaps = failing.map((h) => gaps(probe.on(h.path, doc.docId))[0]).filter((g): g is number => g !== undefined);
        const unit = firstGaps.length ? Math.max(1, Math.min(...firstGaps)) : undefined;
        // Three attempts of 30 s and two gaps: about 93 s of service time.
        const need = unit ? (3 * TIMEOUT_RANGE[1] + 6) * unit : ctx.timeoutMs;
        if (need > ctx.timeoutMs)
          return ctx.skip(
            `one delivery whose three attempts time out takes about 93 s of service time, here about ${ms(93 * unit!)} (1 s ≈ ${ms(unit!)}): longer than --timeout ${ctx.timeoutMs} ms; use a smaller --time-scale`,
          );
        const heldThrice = () => {
          const hs = probe.on(held.path, doc.docId);
          return hs.length >= 3 && hs.every((h) => h.end !== undefined);
        };
        await probe.waitFor(heldThrice, Math.max(0, need - (performance.now() - started)));
        const heldWaitMs = performance.now() - started;
        // A fourth attempt would follow 4 s after the third (under the 5 s cap): wait longer than that.
        const quietMs = Math.max(150, 10 * (unit ?? 15));
        await ctx.sleep(quietMs);
        return { unit, failing: failing.map((h) => probe.on(h.path, doc.docId)), held: probe.on(held.path, doc.docId), heldWaitMs, quietMs };
      },
    ),
  );
}

/** The shared timing with the service's second measured; skips without it (no 5xx receiver saw a retry). */
async function timingWithUnit(ctx: CheckContext): Promise<Timing & { unit: number }> {
  const t = await timing(ctx);
  if (!t.unit) return ctx.skip('no receiver answering 5xx saw a retry, so the service\'s second (the 1 s backoff) could not be measured');
  return t as Timing & { unit: number };
}

/** Checks that every held attempt was let go by the sender after about 30 service seconds. */
function expectTimeouts(ctx: CheckContext, t: Timing, held: Hit[]): void {
  const unit = t.unit!;
  for (const [i, h] of held.entries()) {
    if (h.end === undefined) {
      ctx.expect(false, {
        expected: `attempt ${i + 1}, never answered, abandoned by the sender after about 30 s (${TIMEOUT_UNITS} × the 1 s backoff ≈ ${ms(TIMEOUT_UNITS * unit)} here)`,
        actual: `still open when the check stopped waiting, ${ms(t.heldWaitMs)} (${Math.round(t.heldWaitMs / unit)} s of service time) after the upload`,
      });
      continue;
    }
    const units = (h.end - h.at) / unit;
    ctx.expect(units >= TIMEOUT_RANGE[0] && units <= TIMEOUT_RANGE[1], {
      expected: `attempt ${i + 1}, never answered, abandoned after about 30 s: ${TIMEOUT_RANGE[0]}..${TIMEOUT_RANGE[1]} × the 1 s backoff (1 s ≈ ${ms(unit)})`,
      actual: `abandoned after ${ms(h.end - h.at)} = ${units.toFixed(1)} s of service time`,
    });
  }
}

/** Checks a delivery's gaps: 1 s then 2 s (the second about twice the first). */
function expectBackoff(ctx: CheckContext, label: string, hs: Hit[]): void {
  const g = gaps(hs);
  if (!ctx.expect(g.length === 2, { expected: `${label}: 3 attempts, so two backoff gaps (1 s then 2 s)`, actual: `${hs.length} attempt(s)` })) return;
  const ratio = g[1]! / g[0]!;
  ctx.expect(backoffFits(g[0]!, g[1]!), {
    expected: `${label}: exponential backoff, the second gap (2 s) about twice the first (1 s): ${BACKOFF_RANGE[0]}..${BACKOFF_RANGE[1]} ×, allowing ${TIMER_LATENESS_MS} ms of timer lateness`,
    actual: `gaps ${g.map(ms).join(' then ')} (× ${ratio.toFixed(2)})${g.some((x) => x < 0) ? '; a negative gap: the next attempt began before the sender let go of the previous one' : ''}`,
  });
}

// Header names that would carry a signature (Standard Webhooks, GitHub, Stripe, Slack, ... and HTTP's own).
const SIGNATURE_HEADER = /sign|hmac|digest|^authorization$|^webhook-(id|timestamp)$|-hub-/i;

export const webhookDeliveryChecks: CheckDef[] = [
  {
    name: 'webhook_posted_to_registered_url',
    area: 'webhooks',
    rule: 'EVT-001',
    needs: { mock: true, write: true },
    async run(ctx) {
      await withProbe(ctx, ok200, async (probe, hook) => {
        const query = `crc_token=${token()}&crc_run=${ctx.runId}`;
        const h = await hook(DOC_EVENT, 'registered/deep/path', { query });
        const doc = await upload(ctx);
        await awaitDoc(ctx, probe, doc, () => probe.on(h.path, doc.docId).length > 0);
        const mine = probe.hits.filter((x) => x.body.includes(doc.docId));
        const registered = `${h.path}?${query}`;
        if (!ctx.expect(mine.length > 0, { expected: `a ${DOC_EVENT} delivery for document ${doc.docId} to ${probe.url(registered)}`, actual: 'none' })) return;
        for (const x of mine)
          ctx.expect(x.method === 'POST' && x.url === registered, {
            expected: `POST ${registered} (the URL registered, path and query as given)`,
            actual: `${x.method} ${x.url}`,
          });
      });
    },
  },
  {
    name: 'webhook_payload_identifiers_only',
    area: 'webhooks',
    rule: 'EVT-002',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      await withProbe(ctx, ok200, async (probe, hook) => {
        const marks = { name: `Crcname${token()}`, text: `Crctext${token()}`, file: `crcfile${token()}` };
        const patient = await ctx.fixtures.createPatient('evt-identifiers', { name: `Conformance ${marks.name}` });
        const docHook = await hook(DOC_EVENT, 'identifiers-doc');
        const noteHook = await hook(NOTE_EVENT, 'identifiers-note');
        const doc = await upload(ctx, { patientId: String(patient.id), text: `Clinical finding ${marks.text}`, fileName: `${marks.file}.pdf` });
        const note = await touchNote(ctx);
        const noteId = String(note.id);
        await awaitDoc(ctx, probe, doc, () => probe.on(docHook.path, doc.docId).length > 0 && probe.on(noteHook.path, noteId).length > 0);
        const docHit = probe.on(docHook.path, doc.docId)[0];
        const noteHit = probe.on(noteHook.path, noteId)[0];
        ctx.expect(!!docHit && !!noteHit, { expected: `a ${DOC_EVENT} and a ${NOTE_EVENT} delivery`, actual: `${docHit ? 'document event' : 'no document event'}, ${noteHit ? 'note event' : 'no note event'}` });
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
        for (const [hit, schema] of [[docHit, 'DocumentStatusChangedEvent'], [noteHit, 'NoteEvent']] as const) {
          if (!hit) continue;
          const leaked = clinical.filter(([, v]) => v && hit.body.includes(v));
          ctx.expect(!leaked.length, { expected: `${schema}: identifiers only, no clinical content`, actual: `carries ${leaked.map(([w, v]) => `${w} (${JSON.stringify(v)})`).join(', ')} in ${hit.body.slice(0, 300)}` });
          const fields = schemaFields(ctx, schema);
          const extra = Object.keys(parse(hit.body) ?? {}).filter((k) => !fields.includes(k));
          ctx.expect(!extra.length, { expected: `${schema}: only its fields (${fields.join(', ')})`, actual: `also ${extra.join(', ')} in ${hit.body.slice(0, 300)}` });
        }
      });
    },
  },
  {
    name: 'note_regenerated_event_fetch',
    area: 'webhooks',
    rule: 'EVT-005',
    // A 202 regeneration changes someone's note (the mock's data) and is a write: not with --read-only.
    needs: { mock: true, write: true },
    async run(ctx) {
      await withProbe(ctx, ok200, async (probe, hook) => {
        const h = await hook('NOTE_REGENERATED', 'regenerated');
        const first = await ctx.fixtures.firstNote();
        const sessionId = String(first.session_id);
        const before = await ctx.send({ method: 'GET', path: `/notes/${String(first.id)}`, key: ctx.keys.main });
        const ex = await ctx.send({ method: 'POST', path: `/sessions/${sessionId}/notes/regenerate`, key: ctx.keys.main, json: { model: 'fast' } });
        if (ex.response.status !== 202) return ctx.skip(`POST /sessions/${sessionId}/notes/regenerate answered ${got(ex).slice(0, 160)}: nothing regenerated`);
        const mine = () => probe.on(h.path).filter((x) => parse(x.body)?.session_id === sessionId);
        const wait = budget(ctx);
        if (!(await probe.waitFor(() => mine().length > 0, wait))) {
          const now = await ctx.send({ method: 'GET', path: `/notes/${String(first.id)}`, key: ctx.keys.main });
          if (objOf(now).updated_at === objOf(before).updated_at)
            return ctx.skip(`the regeneration of session ${sessionId} was not applied within ${wait / 1000} s (a smaller --time-scale or a larger --timeout)`);
          ctx.expect(false, { expected: `NOTE_REGENERATED for session ${sessionId}, whose note was regenerated`, actual: `no delivery within ${wait / 1000} s; the note changed: ${got(now).slice(0, 160)}`, exchange: now });
          return;
        }
        const j = parse(mine()[0]!.body)!;
        ctx.expect(j.event === 'NOTE_REGENERATED' && typeof j.note_id === 'string', { expected: 'event NOTE_REGENERATED with a note_id', actual: mine()[0]!.body.slice(0, 300) });
        const noteId = String(j.note_id);
        const fetched = await ctx.send({ method: 'GET', path: `/notes/${encodeURIComponent(noteId)}`, key: ctx.keys.main });
        const n = objOf(fetched);
        ctx.expect(fetched.response.status === 200 && n.id === noteId && n.session_id === sessionId, {
          expected: `GET /notes/${noteId} answers 200 with the note of session ${sessionId}`,
          actual: got(fetched),
          exchange: fetched,
        });
        if (n.id === first.id && typeof objOf(before).updated_at === 'string')
          ctx.expect(String(n.updated_at) > String(objOf(before).updated_at), {
            expected: `the fetched note is the regenerated one: updated_at after ${String(objOf(before).updated_at)}`,
            actual: `updated_at ${String(n.updated_at)}`,
            exchange: fetched,
          });
      });
    },
  },
  {
    name: 'unqueued_upload_fires_no_event',
    area: 'webhooks',
    rule: 'EVT-011',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
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
        if (!(await awaitThenLinger(ctx, probe, h, queued, `${DOC_EVENT} for the queued upload ${queued.docId} (the webhook works)`, 200))) return;
        const status = await docStatus(ctx, unqueued);
        if (status === 'completed' || status === 'failed') return ctx.skip(`the upload under the extraction-not-queued fault was extracted anyway (${status}): the fault did not apply`);
        const fired = probe.on(h.path, unqueued.docId);
        ctx.expect(!fired.length, {
          expected: `no ${DOC_EVENT} for document ${unqueued.docId}, whose extraction was not queued (still ${status ?? 'unlisted'})`,
          actual: bodies(fired),
        });
      });
    },
  },
  {
    name: 'webhook_format_encoding',
    area: 'webhooks',
    rule: 'EVT-028',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      for (const s of await formatSamples(ctx)) {
        for (const f of FORMATS) {
          const hit = s.hits[f.name];
          const media = mediaFor(s, f.name);
          const label = `${s.event} to a webhook of format ${f.name}${f.name === 'JSON' ? ' (registered without a format: the default)' : ''}`;
          if (!ctx.expect(!!hit, { expected: `a delivery of ${label}`, actual: 'none' })) continue;
          ctx.expect(!!media && mediaType(hit!) === media, { expected: `${label}: Content-Type ${media ?? `(the spec lists none of ${f.name})`}`, actual: String(hit!.headers['content-type']) });
          let decoded = false;
          if (f.name === 'JSON') decoded = parse(hit!.body)?.event === s.event && Object.values(parse(hit!.body) ?? {}).includes(s.id);
          // The XML and Form Data layouts are the kit's assumption (EVT-043, EVT-044): here only the encoding.
          if (f.name === 'XML') decoded = /^\uFEFF?\s*(<\?xml[^?]*\?>\s*)?<[A-Za-z_][\s\S]*>\s*$/.test(hit!.body) && hit!.body.includes(s.id) && hit!.body.includes(s.event);
          if (f.name === 'Form Data') {
            const values = [...new URLSearchParams(hit!.body).values()];
            decoded = !parse(hit!.body) && values.includes(s.id) && values.includes(s.event);
          }
          ctx.expect(decoded, { expected: `${label}: the body encoded as ${f.name}, naming ${s.event} and ${s.id}`, actual: hit!.body.slice(0, 300) });
        }
      }
    },
  },
  {
    name: 'webhook_static_headers_every_delivery',
    area: 'webhooks',
    rule: 'EVT-029',
    needs: { mock: true, write: true },
    async run(ctx) {
      // The first attempt of each webhook is answered 503, so a retry is a delivery too.
      await withProbe(ctx, (_, nth) => ({ status: nth === 1 ? 503 : 200 }), async (probe, hook) => {
        const headers = { 'X-Crc-Secret': token(), 'X-Crc-Tenant': `conformance ${ctx.runId}` };
        const hooks = [await hook(DOC_EVENT, 'static-json', { headers }), await hook(DOC_EVENT, 'static-form', { headers, format: 'Form Data' })];
        const doc = await upload(ctx);
        await awaitDoc(ctx, probe, doc, () => hooks.every((h) => probe.on(h.path, doc.docId).length >= 2));
        for (const h of hooks) {
          const hs = probe.on(h.path, doc.docId);
          if (!ctx.expect(hs.length >= 1, { expected: `a delivery of document ${doc.docId} to ${h.path}`, actual: 'none' })) continue;
          for (const [i, x] of hs.entries()) {
            const wrong = Object.entries(headers).filter(([k, v]) => x.headers[k.toLowerCase()] !== v);
            ctx.expect(!wrong.length, {
              expected: `attempt ${i + 1} to ${h.path} carries the static headers ${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join(', ')}`,
              actual: wrong.map(([k]) => `${k}: ${JSON.stringify(x.headers[k.toLowerCase()])}`).join(', '),
            });
          }
        }
      });
    },
  },
  {
    name: 'webhook_no_replay_before_registration',
    area: 'webhooks',
    rule: 'EVT-031',
    needs: { mock: true, write: true },
    async run(ctx) {
      await withProbe(ctx, ok200, async (probe, hook) => {
        const earlier = await upload(ctx);
        const status = (await followDocument(ctx, earlier.patientId, earlier.ext, budget(ctx))).last?.status as string | undefined;
        if (status !== 'completed' && status !== 'failed') return ctx.skip(`document ${earlier.docId} is still ${status ?? 'unlisted'}: its event did not happen within ${budget(ctx) / 1000} s`);
        const h = await hook(DOC_EVENT, 'no-replay');
        const later = await upload(ctx);
        await awaitThenLinger(ctx, probe, h, later, `${DOC_EVENT} for document ${later.docId}, uploaded after the registration`, 100);
        const replayed = probe.on(h.path, earlier.docId);
        ctx.expect(!replayed.length, {
          expected: `no delivery for document ${earlier.docId}, whose extraction ended (${status}) before the webhook was registered`,
          actual: bodies(replayed),
        });
      });
    },
  },
  {
    name: 'webhook_delivery_is_post',
    area: 'webhooks',
    rule: 'EVT-032',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      // Each first attempt answered 503, so the retries are seen too.
      await withProbe(ctx, (_, nth) => ({ status: nth === 1 ? 503 : 200 }), async (probe, hook) => {
        const docHook = await hook(DOC_EVENT, 'post-doc');
        const noteHook = await hook(NOTE_EVENT, 'post-note', { format: 'XML' });
        const doc = await upload(ctx);
        const noteId = String((await touchNote(ctx)).id);
        const seen = () => [probe.on(docHook.path, doc.docId), probe.on(noteHook.path, noteId)];
        await awaitDoc(ctx, probe, doc, () => seen().every((hs) => hs.length >= 2));
        for (const [event, hs] of [[DOC_EVENT, seen()[0]!], [NOTE_EVENT, seen()[1]!]] as const) {
          if (!ctx.expect(hs.length >= 1, { expected: `a ${event} delivery`, actual: 'none' })) continue;
          ctx.expect(hs.every((x) => x.method === 'POST'), { expected: `every ${event} attempt (first and retry) is a POST`, actual: hs.map((x, i) => `attempt ${i + 1}: ${x.method}`).join(', ') });
        }
      });
    },
  },
  {
    name: 'webhook_attempt_times_out',
    area: 'webhooks',
    rule: 'EVT-033',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      const t = await timingWithUnit(ctx);
      if (!ctx.expect(t.held.length >= 1, { expected: 'a delivery to the receiver that never answers', actual: 'none' })) return;
      expectTimeouts(ctx, t, t.held.slice(0, 1));
    },
  },
  {
    name: 'webhook_at_most_three_attempts',
    area: 'webhooks',
    rule: 'EVT-034',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      const t = await timing(ctx);
      const receivers: Array<[string, Hit[]]> = [...t.failing.map((hs, i) => [`the receiver answering ${[500, 502, 503][i]}`, hs] as [string, Hit[]]), ['the receiver that never answers', t.held]];
      if (!ctx.expect(receivers.some(([, hs]) => hs.length > 0), { expected: 'deliveries to the failing receivers', actual: 'none' })) return;
      for (const [label, hs] of receivers)
        ctx.expect(hs.length <= 3, {
          expected: `at most 3 attempts to ${label}`,
          actual: `${hs.length} attempts, counted ${ms(t.quietMs)} after the last expected one`,
        });
    },
  },
  {
    name: 'webhook_backoff_exponential',
    area: 'webhooks',
    rule: 'EVT-035',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      // With 3 attempts the gaps are 1 s and 2 s; the 5 s cap would first bind on a fifth attempt, so it is not seen.
      const t = await timing(ctx);
      const three = t.failing.filter((hs) => hs.length === 3);
      if (!ctx.expect(three.length > 0, { expected: 'a delivery answered 5xx three times, so its two backoff gaps', actual: t.failing.map((hs) => `${hs.length} attempt(s)`).join(', ') })) return;
      // The shortest gaps of the three receivers: timers only ever run late.
      const g1 = Math.min(...three.map((hs) => gaps(hs)[0]!));
      const g2 = Math.min(...three.map((hs) => gaps(hs)[1]!));
      const ratio = g2 / g1;
      ctx.expect(backoffFits(g1, g2), {
        expected: `exponential backoff: the second gap (2 s) about twice the first (1 s), ${BACKOFF_RANGE[0]}..${BACKOFF_RANGE[1]} ×, allowing ${TIMER_LATENESS_MS} ms of timer lateness`,
        actual: `shortest gaps ${ms(g1)} then ${ms(g2)} (× ${ratio.toFixed(2)}); per receiver ${three.map((hs) => gaps(hs).map(ms).join('/')).join(', ')}`,
      });
    },
  },
  {
    name: 'webhook_3xx_not_followed',
    area: 'webhooks',
    rule: 'EVT-038',
    needs: { mock: true, write: true },
    async run(ctx) {
      const moved = `/${ctx.runId}/moved-${token()}`;
      let origin = '';
      await withProbe(
        ctx,
        (path) => (path === moved ? { status: 200 } : { status: Number(/\/redirect(\d{3})-/.exec(path)?.[1] ?? 200), headers: { Location: `${origin}${moved}` } }),
        async (probe, hook) => {
          origin = probe.url('');
          const hooks: Array<[number, Hook]> = [];
          for (const s of [301, 302, 303, 307, 308]) hooks.push([s, await hook(DOC_EVENT, `redirect${s}`)]);
          const doc = await upload(ctx);
          await awaitDoc(ctx, probe, doc, () => hooks.every(([, h]) => probe.on(h.path, doc.docId).length > 0));
          for (const [s, h] of hooks) {
            if (!ctx.expect(probe.on(h.path, doc.docId).length > 0, { expected: `a delivery to the receiver answering ${s}`, actual: 'none' })) continue;
            const log = await settledLog(ctx, h.id, doc.docId);
            ctx.expect(log.length > 0 && log.every((d) => d.state === 'failed'), {
              expected: `the delivery answered ${s} (Location ${moved}) is an error: not delivered (GET /__mock/deliveries state failed)`,
              actual: attemptsText(log),
            });
          }
          const followed = probe.on(moved, doc.docId);
          ctx.expect(!followed.length, {
            expected: `no request to the Location ${moved}: redirects are not followed`,
            actual: followed.map((x) => `${x.method} ${x.url}`).join(', '),
          });
        },
      );
    },
  },
  {
    name: 'webhook_no_signature_secret_header',
    area: 'webhooks',
    rule: 'EVT-041',
    needs: { mock: true, write: true },
    async run(ctx) {
      await withProbe(ctx, ok200, async (probe, hook) => {
        const secret = token();
        const withSecret = await hook(DOC_EVENT, 'secret', { headers: { 'X-Crc-Webhook-Secret': secret } });
        const plain = await hook(DOC_EVENT, 'plain');
        const doc = await upload(ctx);
        await awaitDoc(ctx, probe, doc, () => [withSecret, plain].every((h) => probe.on(h.path, doc.docId).length > 0));
        const s = probe.on(withSecret.path, doc.docId);
        const p = probe.on(plain.path, doc.docId);
        if (!ctx.expect(s.length > 0 && p.length > 0, { expected: 'a delivery to each of the two webhooks', actual: `${s.length} and ${p.length}` })) return;
        ctx.expect(s.every((x) => x.headers['x-crc-webhook-secret'] === secret), {
          expected: `the secret configured as static header X-Crc-Webhook-Secret: ${secret}`,
          actual: s.map((x) => JSON.stringify(x.headers['x-crc-webhook-secret'])).join(', '),
        });
        for (const x of [...s, ...p]) {
          const signed = Object.keys(x.headers).filter((k) => SIGNATURE_HEADER.test(k));
          ctx.expect(!signed.length, { expected: 'no signature header (there is no signature scheme)', actual: signed.map((k) => `${k}: ${String(x.headers[k])}`).join(', ') });
        }
        ctx.expect(p.every((x) => !Object.values(x.headers).some((v) => String(v).includes(secret))), {
          expected: "the secret only on the webhook that configured it",
          actual: `a delivery to the webhook without static headers carries ${secret}`,
        });
      });
    },
  },
  {
    name: 'xml_delivery_layout',
    area: 'webhooks',
    rule: 'EVT-043',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      await eachLayout(ctx, 'XML', 'application/xml', (s, json, xml) => {
        const parsed = xmlFields(xml.body);
        if (!ctx.expect('fields' in parsed, { expected: `${s.event} as XML: <webhook xmlns:xsi="..."> with one child element per field`, actual: `${'why' in parsed ? parsed.why : ''} in ${xml.body.slice(0, 300)}` })) return;
        const want = expectedPairs(s, json).map(([k, v]) => [k, v === null ? null : String(v)] as [string, string | null]);
        const show = (fs: Array<[string, string | null]>) => fs.map(([k, v]) => (v === null ? `<${k} xsi:nil="true"/>` : `<${k}>${v}</${k}>`)).join('');
        ctx.expect(JSON.stringify((parsed as { fields: Array<[string, string | null]> }).fields) === JSON.stringify(want), {
          expected: `${s.event} as XML: the JSON payload's fields in schema order, values as text, null as xsi:nil: ${show(want)}`,
          actual: show((parsed as { fields: Array<[string, string | null]> }).fields),
        });
      });
    },
  },
  {
    name: 'form_data_delivery_layout',
    area: 'webhooks',
    rule: 'EVT-044',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      await eachLayout(ctx, 'Form Data', 'application/x-www-form-urlencoded', (s, json, form) => {
        const pairs = [...new URLSearchParams(form.body).entries()];
        const want = expectedPairs(s, json).map(([k, v]) => [k, v === null ? '' : String(v)]);
        ctx.expect(JSON.stringify(pairs) === JSON.stringify(want), {
          expected: `${s.event} as Form Data: the JSON payload's fields in schema order, null as an empty value: ${new URLSearchParams(want).toString()}`,
          actual: form.body.slice(0, 500),
        });
      });
    },
  },
  {
    name: 'webhook_2xx_acknowledges',
    area: 'webhooks',
    rule: 'EVT-045',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    async run(ctx) {
      // A reference receiver answers 500 once: its retry shows retries happen and how long 1 s is here.
      await withProbe(ctx, (path, nth) => ({ status: path.includes('/reference-') ? (nth === 1 ? 500 : 200) : Number(/\/ack(\d{3})-/.exec(path)?.[1] ?? 200) }), async (probe, hook) => {
        const ref = await hook(DOC_EVENT, 'reference');
        const acks: Array<[number, Hook]> = [];
        for (const s of [200, 201, 202, 204]) acks.push([s, await hook(DOC_EVENT, `ack${s}`)]);
        const doc = await upload(ctx);
        await awaitDoc(ctx, probe, doc, () => probe.on(ref.path, doc.docId).length >= 2 && acks.every(([, h]) => probe.on(h.path, doc.docId).length > 0));
        const r = probe.on(ref.path, doc.docId);
        if (r.length < 2) return ctx.skip(`the reference receiver answering 500 saw no retry (${r.length} attempt): a missing retry of a 2xx would prove nothing`);
        const unit = gaps(r)[0]!;
        // A retry of an acknowledged attempt would come about 1 s after it: wait for 5 s of service time.
        const last = Math.max(...acks.map(([, h]) => probe.on(h.path, doc.docId)[0]?.end ?? 0));
        await ctx.sleep(Math.max(100, last + 5 * unit - performance.now()));
        for (const [s, h] of acks) {
          const hs = probe.on(h.path, doc.docId);
          if (!ctx.expect(hs.length > 0, { expected: `a delivery to the receiver answering ${s}`, actual: 'none' })) continue;
          const log = await settledLog(ctx, h.id, doc.docId);
          ctx.expect(hs.length === 1 && log.length > 0 && log.every((d) => d.state === 'delivered'), {
            expected: `${s} acknowledges: one attempt, no retry, delivered (GET /__mock/deliveries)`,
            actual: `${hs.length} attempt(s) within ${ms(5 * unit)} (5 s here); ${attemptsText(log)}`,
          });
        }
      });
    },
  },
  {
    name: 'only_four_event_kinds',
    area: 'webhooks',
    rule: 'EVT-047',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      const kinds = Object.keys((ctx.contract.resolve('#/webhooks') as Obj | undefined) ?? {});
      if (!ctx.expect(kinds.length === 4, { expected: "the spec's webhooks: the four event kinds", actual: kinds.join(', ') || 'none' })) return;
      await withProbe(ctx, ok200, async (probe, hook) => {
        // Event kinds the kit does not have are refused at registration.
        for (const other of ['PATIENT_CREATED', 'DOCUMENT_UPLOADED', 'NOTE_DELETED', 'APPOINTMENT_UPDATED']) {
          const r = await ctx.mock!.call<{ data?: { id?: string } }>('POST', '/webhooks', {
            name: `${ctx.prefix}${other}`, url: probe.url(`/${ctx.runId}/other`), event: other, ...(ctx.keys.mainOrg ? { organization_id: ctx.keys.mainOrg } : {}),
          });
          if (r.body?.data?.id) await ctx.mock!.call('DELETE', `/webhooks/${r.body.data.id}`).catch(() => undefined);
          ctx.expect(r.status >= 400 && r.status < 500, { expected: `a webhook for ${other} (not one of ${kinds.join(', ')}) refused with 4xx`, actual: `${r.status} ${JSON.stringify(r.body).slice(0, 200)}` });
        }
        const hooks = new Map<string, Hook>();
        for (const k of kinds) hooks.set(k, await hook(k, `kind-${k}`));
        const doc = await upload(ctx);
        const noteId = String((await touchNote(ctx)).id);
        await awaitDoc(ctx, probe, doc, () => probe.on(hooks.get(DOC_EVENT)!.path, doc.docId).length > 0 && probe.on(hooks.get(NOTE_EVENT)!.path, noteId).length > 0);
        const mine = probe.hits.filter((x) => x.path !== `/${ctx.runId}/other`);
        ctx.expect(probe.on(hooks.get(DOC_EVENT)!.path, doc.docId).length > 0 && probe.on(hooks.get(NOTE_EVENT)!.path, noteId).length > 0, {
          expected: `a ${DOC_EVENT} and a ${NOTE_EVENT} delivery`,
          actual: `${mine.length} deliveries: ${mine.map((x) => String(parse(x.body)?.event)).join(', ')}`,
        });
        for (const x of mine) {
          const kind = [...hooks].find(([, h]) => h.path === x.path)?.[0];
          const event = parse(x.body)?.event;
          ctx.expect(typeof event === 'string' && kinds.includes(event) && event === kind, {
            expected: `a delivery to the ${kind ?? '(no)'} webhook carries event ${kind} (one of ${kinds.join(', ')})`,
            actual: x.body.slice(0, 300),
          });
        }
        // Nor does the mock's delivery log know any other event.
        const log = await ctx.mock!.call<{ data?: LoggedDelivery[] & Array<{ event?: string }> }>('GET', '/deliveries');
        const others = (log.body?.data ?? []).map((d) => String((d as { event?: string }).event)).filter((e) => !kinds.includes(e));
        ctx.expect(!others.length, { expected: `GET /__mock/deliveries lists only ${kinds.join(', ')}`, actual: [...new Set(others)].join(', ') });
      });
    },
  },
  {
    name: 'webhook_delivery_limits',
    area: 'webhooks',
    rule: 'LIM-007',
    needs: { mock: true, write: true },
    exclusive: true,
    async run(ctx) {
      // The worst case: a receiver that never answers. Each attempt times out (30 s), three attempts in all, 1 s then 2 s apart.
      const t = await timingWithUnit(ctx);
      const hs = t.held;
      ctx.expect(hs.length === 3, { expected: '3 attempts to a receiver that never answers (each one times out), then no more', actual: `${hs.length} attempt(s)` });
      expectTimeouts(ctx, t, hs.slice(0, 3));
      if (hs.length >= 3) expectBackoff(ctx, 'the receiver that never answers', hs.slice(0, 3));
    },
  },
];
