// The documents area's shared fixtures: tracked PDF uploads followed to a terminal status, and the status order
// the checks of doc.ts judge against.
import { randomBytes } from 'node:crypto';
import type { CheckContext } from '../../run/model.ts';
import type { Exchange } from '../../../judge/define.ts';
import { idText } from '../../run/fixtures.ts';
import { timeScale, waitMs } from '../../run/durations.ts';
import { type Obj, uploadDocument, objOf, followDocument, got, is2xx, SETUP, byExternalId } from './common.ts';

export const TERMINAL = new Set(['completed', 'failed']);

/** pending → processing → completed | failed: a status never goes back to a lower rank within one run. */
export const RANK: Record<string, number> = { pending: 0, processing: 1, completed: 2, failed: 2 };

/**
 * The source's "text-extraction-started wording" (DOC-026). No text is quoted, so any sentence of the message that
 * speaks of extraction (or OCR, text recognition) and of its start, in either order, says it ("Text extraction
 * started", "Started text extraction", "Text extraction has begun", "Queued for extraction", "Extracting text...",
 * "OCR scheduled"), unless that sentence says it did not happen.
 */
export function saysExtractionStarted(message: string): boolean {
  return message.split(/[.!?;]+/).some((sentence) => {
    if (/\b(not|never|failed|unable|cannot)\b|n't\b/i.test(sentence)) return false;
    if (/\bextracting\b/i.test(sentence)) return true;
    return (
      /\b(extract(ion)?|ocr|text recognition)\b/i.test(sentence) &&
      /\b(start(s|ed|ing)?|begins?|began|begun|(en)?queued|initiated|scheduled|triggered|under ?way|in progress|running)\b/i.test(sentence)
    );
  });
}

export function lookupDocument(ctx: CheckContext, patientId: string, externalId: string): Promise<Exchange> {
  return ctx.send({ method: 'GET', path: `/patients/${patientId}/documents`, key: ctx.keys.main, query: { external_id: externalId } });
}

export interface TrackedUpload {
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
 * then followed to a terminal status (at most extractionWaitMs): shared by the checks that judge uploads.
 */
export function trackedUploads(ctx: CheckContext): Promise<{ patientId: string; token: string; uploads: TrackedUpload[] }> {
  return ctx.fixtures.shared('tracked-uploads', async () => {
    const p = await ctx.fixtures.patient();
    const patientId = String(p.id);
    const token = `Qz${randomBytes(8).toString('hex')}x`;
    const uploads: TrackedUpload[] = [];
    for (let i = 0; i < 3; i++) {
      const externalId = ctx.externalId('async-doc');
      const upload = await uploadDocument(ctx, patientId, externalId, { text: `Conformance extraction text ${token}` });
      const right = await lookupDocument(ctx, patientId, externalId);
      const first = typeof objOf(upload).status === 'string' ? String(objOf(upload).status) : undefined;
      const rightStatus = byExternalId(right, externalId)?.status;
      const seen: string[] = [];
      for (const s of [first, rightStatus]) if (typeof s === 'string' && seen.at(-1) !== s) seen.push(s);
      uploads.push({ externalId, upload, first, right, seen, queued: false });
    }
    await Promise.all(
      uploads.map(async (u) => {
        if (!is2xx(u.upload)) return;
        const f = await followDocument(ctx, patientId, u.externalId, extractionWaitMs(ctx));
        for (const s of f.statuses) if (u.seen.at(-1) !== s) u.seen.push(s);
        u.last = f.last;
        u.lastExchange = f.exchange;
        u.queued = u.seen.some((s) => s !== 'pending');
      }),
    );
    return { patientId, token, uploads };
  });
}

/** The uploads that were stored (any 2xx with an id); blocked when none was (the upload's own check judges it). */
export function created(ctx: CheckContext, uploads: TrackedUpload[]): TrackedUpload[] {
  const ok = uploads.filter((u) => is2xx(u.upload) && idText(objOf(u.upload).id) !== undefined);
  if (!ok.length && uploads[0])
    ctx.block(
      `a stored PDF upload to follow (POST /patients/{id}/documents answered ${got(uploads[0].upload).slice(0, 120)})`,
      SETUP.upload,
    );
  return ok;
}

/**
 * How long a check follows one extraction run: the document's "roughly 10 to 30 seconds" for a PDF and a margin
 * (conformance/run/durations.ts), never the per-request --timeout; on the mock, scaled by its time scale.
 */
export const extractionWaitMs = (ctx: Pick<CheckContext, 'mock'>): number => waitMs('extraction', timeScale(ctx.mock));

/** Per run (keyed by its fixtures): what the first extraction that never ended waited for. */
const stalled = new WeakMap<object, string>();

/** The rule whose check judges that an extraction run ends (extraction_reaches_terminal_state). */
const EXTRACTION_ENDS = 'DOC-028';

/**
 * Follows a document to completed or failed for a check whose own rule is something else: when the run does not end
 * within the documented wait, the check is blocked on DOC-028 (whose check fails for it), and once one run of this
 * suite has not ended, later follows block at once instead of waiting again.
 */
export async function untilTerminal(ctx: CheckContext, patientId: string, externalId: string) {
  const known = stalled.get(ctx.fixtures);
  if (known) return ctx.block(known, EXTRACTION_ENDS);
  const f = await followDocument(ctx, patientId, externalId, extractionWaitMs(ctx));
  if (TERMINAL.has(String(f.last?.status))) return f;
  noteStall(ctx, externalId, f.last?.status);
  return ctx.block(stalled.get(ctx.fixtures)!, EXTRACTION_ENDS);
}

/** Records that an extraction run did not end in time, so the checks after it do not wait for one again. */
export function noteStall(ctx: CheckContext, externalId: string, status: unknown): void {
  if (!stalled.has(ctx.fixtures))
    stalled.set(
      ctx.fixtures,
      `document ${externalId} to reach completed or failed within ${extractionWaitText(ctx)} (still ${String(status ?? 'unknown')})`,
    );
}

/** The wait, as a skip or failure message says it. */
export const extractionWaitText = (ctx: Pick<CheckContext, 'mock'>): string =>
  `${Math.round(extractionWaitMs(ctx) / 100) / 10} s (three times the document's "roughly 10 to 30 seconds", with a margin)`;

export function checkTransitions(ctx: CheckContext, statuses: string[], order: string[]) {
  const idx = statuses.map((s) => order.indexOf(s));
  const forward = idx.every((v, i) => v >= 0 && (i === 0 || v > idx[i - 1]!));
  ctx.expect(forward, {
    expected: `statuses in the order ${order.join(' → ')} (completed/failed terminal)`,
    actual: statuses.join(' → '),
    says: 'States: pending, processing, completed, failed. completed and failed are terminal for one extraction run.',
  });
}
