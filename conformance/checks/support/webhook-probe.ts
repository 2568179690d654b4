// A probe for webhook deliveries: a loopback server of the check's own that the mock delivers to, answering as
// told (status, hold), with the timing of every attempt. Also the mock's webhook registration.
import type { IncomingHttpHeaders } from 'node:http';
import { randomBytes } from 'node:crypto';
import { startReceiver, type Receiver } from '../../../spec/runtime/webhook-receiver.ts';
import type { CheckContext } from '../../run/model.ts';
import { type Obj, uploadDocument, objOf, got, made, SETUP, byExternalId } from './common.ts';
import { timeScale, waitMs, type Wait } from '../../run/durations.ts';
import { type LoggedAttempt, loggedAttempts, TIMER_LATENESS_MS } from './delivery-log.ts';

export const DOC_EVENT = 'DOCUMENT_STATUS_CHANGED';

export const NOTE_EVENT = 'NOTE_UPDATED';

/** The second backoff against the first (2 s against 1 s), for a caller that does not know the service's second. */
export const BACKOFF_RANGE: [number, number] = [1.3, 3];

/**
 * The gap allowed before attempt n + 1 (n = 1, 2), from the receiver's answer to the next arrival, when a service
 * second lasts `unit` ms. "Up to 3 attempts, with exponential backoff of 1 s then 2 s, capped at 5 s" allows:
 * - delays of 1 s, then 2 s. The 5 s cap would first bind on a fifth attempt (1, 2, 4, then 5 s), so with three
 *   attempts it never shows;
 * - a service may count a delay from when it sent the failed attempt instead of from our answer: the attempt's round
 *   trip then comes off the gap. Early by at most half a second (half the first delay; scaled with the second, a
 *   mock's loopback round trip being as much shorter);
 * - a timer, a job queue polling once a second, the DNS check before each attempt ("validated ... again before each
 *   delivery") and a tunnel all make an attempt late: by 1.5 s of service time, or what a busy machine adds in real
 *   time (TIMER_LATENESS_MS), whichever is more.
 * So 0.5..2.5 s then 1.5..3.5 s against a deployment: retries 50 ms apart, a constant 1 s or 2 s then 4 s fall outside.
 */
export function backoffWindow(n: 1 | 2, unit: number): [number, number] {
  return [(n - 0.5) * unit, n * unit + Math.max(1.5 * unit, TIMER_LATENESS_MS)];
}

/**
 * Whether gaps g1 then g2 can be the 1 s and 2 s backoffs. With the service's second known, each gap in its window
 * (backoffWindow). Without it, by their ratio: timers only fire late, so each true gap lies up to TIMER_LATENESS_MS
 * below the measured one, and some pair in that box must have a ratio in BACKOFF_RANGE.
 */
export function backoffFits(g1: number, g2: number, unit?: number): boolean {
  if (unit !== undefined)
    return [g1, g2].every((g, i) => {
      const [lo, hi] = backoffWindow((i + 1) as 1 | 2, unit);
      return g >= lo && g <= hi;
    });
  const lowest = (g2 - TIMER_LATENESS_MS) / g1;
  const highest = g1 > TIMER_LATENESS_MS ? g2 / (g1 - TIMER_LATENESS_MS) : Infinity;
  return g1 > 0 && g2 > 0 && highest >= BACKOFF_RANGE[0] && lowest <= BACKOFF_RANGE[1];
}

/**
 * How long a never-answered attempt may stay open, for a service second of `unit` ms: "timeout 30 seconds", from 12 s
 * (the sender's clock may start before its request reaches us: connecting, a DNS check) to 45 s, or 30 s plus what a
 * busy machine adds in real time, whichever is more.
 */
function timeoutWindow(unit: number): [number, number] {
  return [12 * unit, Math.max(45 * unit, 30 * unit + TIMER_LATENESS_MS)];
}

// ----- the probe: a loopback receiver of the check's own -----

export interface Hit {
  /** Path and query as requested. */
  url: string;
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request arrived, and when it ended (answered, or let go by the sender). */
  at: number;
  end?: number;
  /** The status the probe answered; undefined while it holds the attempt open. */
  status?: number;
}

/** What the probe answers attempt `nth` of a delivery to a path: a status (with headers), or 'hold' (never answer). */
type Answer = { status: number; headers?: Record<string, string> } | 'hold';

export type Answerer = (path: string, nth: number) => Answer;

/** The recording receiver of spec/runtime, answering each delivery's attempt as the check scripts it. */
export class Probe {
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

export interface Hook {
  id: string;
  path: string;
  event: string;
}

type HookOptions = { format?: string; headers?: Record<string, string>; query?: string };

export type HookFn = (event: string, label: string, extra?: HookOptions) => Promise<Hook>;

/** Runs `fn` with a fresh probe and a `hook` that registers webhooks to it; unregisters them and closes the probe. */
export async function withProbe<T>(ctx: CheckContext, answer: Answerer, fn: (probe: Probe, hook: HookFn) => Promise<T>): Promise<T> {
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
      return ctx.skip(
        `the mock refused a loopback webhook (${r.status} ${JSON.stringify(r.body).slice(0, 200)}); start it with --allow-private-webhooks`,
      );
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

/** How long a check waits for `what` on this target: the documented duration (scaled on the mock) and a margin. */
export const serviceWait = (ctx: CheckContext, what: Wait) => waitMs(what, timeScale(ctx.mock));

export const ok200: Answerer = () => ({ status: 200 });

export const parse = (text: string): Obj | undefined => {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
  } catch {
    return undefined;
  }
};

export const ms = (x: number) => `${Math.round(x)} ms`;

// ----- events to deliver: a document of the run, a seeded note touched through the mock -----

export interface Doc {
  docId: string;
  patientId: string;
  ext: string;
}

/** Uploads a one-page PDF (its extraction ends in DOCUMENT_STATUS_CHANGED). */
export async function upload(ctx: CheckContext, o: { text?: string; fileName?: string; patientId?: string } = {}): Promise<Doc> {
  const patientId = o.patientId ?? String((await ctx.fixtures.patient()).id);
  const ext = ctx.externalId('hook-doc');
  const ex = await uploadDocument(ctx, patientId, ext, o);
  return { docId: made(ex, `a stored upload to cause ${DOC_EVENT}`, SETUP.upload).id, patientId, ext };
}

export async function docStatus(ctx: CheckContext, d: Doc): Promise<string | undefined> {
  const ex = await ctx.send({
    method: 'GET',
    path: `/patients/${d.patientId}/documents`,
    key: ctx.keys.main,
    query: { external_id: d.ext },
  });
  const s = byExternalId(ex, d.ext)?.status;
  return typeof s === 'string' ? s : undefined;
}

/**
 * Waits for `pred` as long as an extraction may take (its event follows it); when it does not come true and the
 * document's extraction has not ended yet, skips (the extraction outlasted the documented duration: DOC's checks judge that).
 */
export async function awaitDoc(ctx: CheckContext, probe: Probe, d: Doc, pred: () => boolean): Promise<boolean> {
  const wait = serviceWait(ctx, 'extraction');
  if (await probe.waitFor(pred, wait)) return true;
  const s = await docStatus(ctx, d);
  if (s !== 'completed' && s !== 'failed')
    return ctx.skip(
      `document ${d.docId} is still ${s ?? 'unlisted'} after ${wait / 1000} s: its extraction outlasts the documented duration`,
    );
  return false;
}

/**
 * NOTE_UPDATED for the first note, without changing it: the mock's note edit (PATCH /__mock/notes/{id}, as the web
 * application would) with the content it already has. Returns the note's detail as read before.
 */
export async function touchNote(ctx: CheckContext): Promise<Obj> {
  const first = await ctx.fixtures.firstNote();
  const ex = await ctx.send({ method: 'GET', path: `/notes/${String(first.id)}`, key: ctx.keys.main });
  const note = objOf(ex);
  if (ex.response.status !== 200 || typeof note.content !== 'string')
    return ctx.skip(`GET /notes/${String(first.id)} answered ${got(ex).slice(0, 120)}: no note content to save again`);
  const r = await ctx.mock!.call('PATCH', `/notes/${String(note.id)}`, { content: note.content });
  if (r.status !== 200)
    return ctx.skip(`PATCH /__mock/notes/${String(note.id)} answered ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`);
  return note;
}

export function schemaFields(ctx: CheckContext, schema: string): string[] {
  const s = ctx.contract.resolve(`#/components/schemas/${schema}`) as { properties?: Obj } | undefined;
  return Object.keys(s?.properties ?? {});
}

// ----- retries and timeouts: one delivery held open on every attempt, three answered 5xx -----

export interface Timing {
  /** The service's second: the mock's own (its time scale), else the shortest first retry gap of the 5xx receivers (undefined when none retried). */
  unit?: number;
  /** The attempts of the receivers answering 500, 502, 503. */
  failing: Hit[][];
  /** The attempts of the receiver that never answers. */
  held: Hit[];
  /** How long the check waited for the held attempts, and then for a fourth attempt of any. */
  heldWaitMs: number;
  quietMs: number;
  /** With --mock, the mock's delivery log of each (delivery-log.ts): the receivers answering 500, 502, 503, and the held one. */
  logged?: { failing: LoggedAttempt[][]; held: LoggedAttempt[] };
}

export const gaps = (hs: Hit[]) => hs.slice(1).map((h, i) => h.at - (hs[i]!.end ?? hs[i]!.at));

export function timing(ctx: CheckContext): Promise<Timing> {
  return ctx.fixtures.shared('delivery-timing', () =>
    withProbe(
      ctx,
      (path) => (path.includes('/hold-') ? 'hold' : { status: Number(/\/fail(\d{3})-/.exec(path)?.[1] ?? 200) }),
      async (probe, hook) => {
        const held = await hook(DOC_EVENT, 'hold');
        const failing: Hook[] = [];
        for (const s of [500, 502, 503]) failing.push(await hook(DOC_EVENT, `fail${s}`));
        const doc = await upload(ctx);
        const started = performance.now();
        await awaitDoc(
          ctx,
          probe,
          doc,
          () =>
            failing.every((h) => probe.on(h.path, doc.docId).length >= 2) ||
            probe.on(held.path, doc.docId).some((h) => h.end !== undefined),
        );
        const firstGaps = failing.map((h) => gaps(probe.on(h.path, doc.docId))[0]).filter((g): g is number => g !== undefined);
        // The mock says what its second is; elsewhere the shortest first retry gap (1 s) measures it.
        const unit = ctx.mock?.secondMs ?? (firstGaps.length ? Math.max(1, Math.min(...firstGaps)) : undefined);
        // Three attempts that time out and the two gaps (the documented delivery, with its margin); the wait ends as
        // soon as the third attempt is let go.
        const bound = serviceWait(ctx, 'delivery');
        const heldThrice = () => {
          const hs = probe.on(held.path, doc.docId);
          return hs.length >= 3 && hs.every((h) => h.end !== undefined);
        };
        await probe.waitFor(heldThrice, Math.max(0, bound - (performance.now() - started)));
        const heldWaitMs = performance.now() - started;
        // A fourth attempt would follow 4 s after the third (under the 5 s cap): wait longer than that.
        const quietMs = Math.max(150, 10 * (unit ?? 15));
        await ctx.sleep(quietMs);
        const logged = ctx.mock ? await logsOf(ctx, failing, held, doc.docId) : undefined;
        return {
          logged,
          unit,
          failing: failing.map((h) => probe.on(h.path, doc.docId)),
          held: probe.on(held.path, doc.docId),
          heldWaitMs,
          quietMs,
        };
      },
    ),
  );
}

/** The mock's log of each receiver's delivery of `docId`; undefined when any lacks the schedule (an older mock). */
async function logsOf(ctx: CheckContext, failing: Hook[], held: Hook, docId: string): Promise<Timing['logged']> {
  const f = await Promise.all(failing.map((h) => loggedAttempts(ctx, h.id, docId)));
  const h = await loggedAttempts(ctx, held.id, docId);
  return h && f.every((x) => x) ? { failing: f as LoggedAttempt[][], held: h } : undefined;
}

/** The shared timing with the service's second measured; skips without it (no 5xx receiver saw a retry). */
export async function timingWithUnit(ctx: CheckContext): Promise<Timing & { unit: number }> {
  const t = await timing(ctx);
  if (!t.unit) return ctx.skip("no receiver answering 5xx saw a retry, so the service's second (the 1 s backoff) could not be measured");
  return t as Timing & { unit: number };
}

/** Checks that every held attempt was let go by the sender after about 30 service seconds. */
export function expectTimeouts(ctx: CheckContext, t: Timing, held: Hit[]): void {
  const unit = t.unit!;
  for (const [i, h] of held.entries()) {
    if (h.end === undefined) {
      ctx.expect(false, {
        expected: `attempt ${i + 1}, never answered, abandoned by the sender after about 30 s (≈ ${ms(30 * unit)} here)`,
        actual: `still open when the check stopped waiting, ${ms(t.heldWaitMs)} (${Math.round(t.heldWaitMs / unit)} s of service time) after the upload`,
        says: 'timeout 30 seconds',
      });
      continue;
    }
    const held = h.end - h.at;
    const [lo, hi] = timeoutWindow(unit);
    ctx.expect(held >= lo && held <= hi, {
      expected: `attempt ${i + 1}, never answered, abandoned after about 30 s: ${ms(lo)}..${ms(hi)} here (1 s ≈ ${ms(unit)}; up to ${TIMER_LATENESS_MS} ms of a busy machine's lateness)`,
      actual: `abandoned after ${ms(held)} = ${(held / unit).toFixed(1)} s of service time`,
      says: 'timeout 30 seconds',
    });
  }
}

/** With --mock, registers the run's receiver for `event` (the webhook's id); against a deployment, nothing. */
export async function register(ctx: CheckContext, event: string): Promise<string | undefined> {
  if (!ctx.mock) return undefined; // against a deployment the user registered the webhook in the web application
  const url = `http://127.0.0.1:${ctx.receiver!.port}/hooks/${ctx.runId}`;
  const r = await ctx.mock.call<{ data?: { id?: string }; error?: string }>('POST', '/webhooks', {
    name: `${ctx.prefix}${event}`,
    url,
    event,
    ...(ctx.keys.mainOrg ? { organization_id: ctx.keys.mainOrg } : {}),
  });
  if (r.status >= 300)
    ctx.skip(`the mock refused a loopback webhook (${r.status} ${JSON.stringify(r.body)}); start it with --allow-private-webhooks`);
  return r.body.data?.id;
}

export async function unregister(ctx: CheckContext, id: string | undefined) {
  if (ctx.mock && id) await ctx.mock.call('DELETE', `/webhooks/${id}`).catch(() => undefined);
}
