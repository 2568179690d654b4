// The extraction state machine: pending -> processing -> completed | failed, on the engine's clock.
// Every run carries a generation number; a callback of an older run sees a newer number and does nothing.
import type { EngineDeps } from '../../platform/deps.ts';
import type { ExtractionOutcome } from './extract-text.ts';
import type { TextExtractor } from './io.ts';
import { ENGINE_ORG, documentsOf, queueOf, type DocumentRow } from './rows.ts';
import { storedBytes } from './stored-file.ts';
import type { FileKind } from '../../../spec/runtime/file-types.ts';

/** Simulated time from queued to picked up by a worker. */
const PICKUP_MS = 1_000;

/**
 * Simulated processing time: the source says a PDF takes roughly 10 to 30 seconds. Base plus a per-MiB cost,
 * capped: PDF 10 s + 4 s/MiB (max 30 s), DOCX 5 s + 2 s/MiB (max 20 s), images 8 s + 2 s/MiB (max 25 s, "OCR").
 */
export function processingMs(kind: FileKind, bytes: number): number {
  const [base, perMiB, cap] = kind === 'pdf' ? [10_000, 4_000, 30_000] : kind === 'docx' ? [5_000, 2_000, 20_000] : [8_000, 2_000, 25_000];
  return Math.min(cap, Math.round(base + (perMiB * bytes) / (1024 * 1024)));
}

export const FAULT_ERROR = 'Text extraction failed (simulated fault extraction-fails)';
const MISSING_FILE_ERROR = 'Text extraction failed: the stored file is unavailable';

export function createExtractor(deps: EngineDeps, extractText: TextExtractor) {
  const docs = documentsOf(deps);
  const queue = queueOf(deps);
  const timers = new Map<string, () => void>();

  const schedule = (id: string, ms: number, fn: () => void) => {
    timers.get(id)?.();
    timers.set(
      id,
      deps.clock.after(ms, () => {
        timers.delete(id);
        // A background step must never take the process down: log and leave the row as it is.
        Promise.resolve()
          .then(fn)
          .catch((err) => console.error(`[documents] extraction step failed for ${id}:`, err));
      }),
    );
  };

  /** Runs bound to fail (a scoped extraction-fails fault taken when they were started): `${id}:${run}`. */
  const failing = new Set<string>();

  /** Starts a new run: the row is reset to `pending` and queued; `fail` makes it fail. Returns the updated row. */
  function start(org: string, row: DocumentRow, fail = false): DocumentRow {
    const next: DocumentRow = {
      ...row,
      run: row.run + 1,
      status: 'pending',
      extraction_error: null,
      extracted_date: null,
      has_extracted_text: false,
      extracted_text_length: null,
    };
    docs.put(org, next);
    if (fail) failing.add(`${row.id}:${next.run}`);
    queue.put(ENGINE_ORG, { id: row.id, org });
    // upload-answers-processing: a worker picks the run up at once, before the answer is built.
    if (deps.readings.has('upload-answers-processing')) return process(org, row.id, next.run) ?? next;
    schedule(row.id, PICKUP_MS, () => process(org, row.id, next.run));
    return next;
  }

  /** How long processing takes: the kit's figures, or a reading's ("roughly 10 to 30 seconds" leaves room). */
  const durationOf = (row: DocumentRow) =>
    deps.readings.has('extraction-fast')
      ? Math.min(2_000, processingMs(row.kind, row.file_size))
      : deps.readings.has('extraction-slow')
        ? row.kind === 'pdf'
          ? 45_000
          : 20_000
        : processingMs(row.kind, row.file_size);

  function process(org: string, id: string, run: number): DocumentRow | undefined {
    const row = docs.get(org, id);
    if (!row || row.run !== run) return undefined;
    const processing = docs.put(org, { ...row, status: 'processing' });
    const failByFault = failing.delete(`${id}:${run}`) || deps.faults.take('extraction-fails');
    const bytes = storedBytes(deps, row);
    const outcome: Promise<ExtractionOutcome> = failByFault
      ? Promise.resolve({ ok: false, error: FAULT_ERROR })
      : bytes
        ? extractText(row.kind, bytes)
        : Promise.resolve({ ok: false, error: MISSING_FILE_ERROR });
    outcome.catch(() => undefined); // awaited in finish(); never an unhandled rejection meanwhile
    schedule(id, durationOf(row), () => finish(org, id, run, outcome));
    return processing;
  }

  async function finish(org: string, id: string, run: number, outcome: Promise<ExtractionOutcome>) {
    const result = await outcome;
    const row = docs.get(org, id);
    if (!row || row.run !== run) return;
    const done: DocumentRow = result.ok
      ? {
          ...row,
          status: 'completed',
          extracted_date: deps.clock.stamp(),
          extraction_error: null,
          has_extracted_text: result.textLength > 0,
          extracted_text_length: result.textLength,
        }
      : {
          ...row,
          status: 'failed',
          extracted_date: null,
          extraction_error: result.error,
          has_extracted_text: false,
          extracted_text_length: null,
        };
    docs.put(org, done);
    queue.delete(ENGINE_ORG, id);
    deps.events.documentStatusChanged(org, {
      id,
      patient_id: row.patient_id,
      external_id: row.external_id ?? null,
      status: done.status as 'completed' | 'failed',
      error: done.extraction_error ?? null,
    });
  }

  /** Stops a document's run (on delete): pending callbacks are cancelled and the queue entry dropped. */
  function forget(id: string) {
    timers.get(id)?.();
    timers.delete(id);
    queue.delete(ENGINE_ORG, id);
  }

  /** After a restart: every document that was queued or processing starts a fresh run. */
  function resume() {
    for (const entry of queue.all(ENGINE_ORG)) {
      const row = docs.get(entry.org, entry.id);
      if (row && (row.status === 'pending' || row.status === 'processing')) start(entry.org, row);
      else queue.delete(ENGINE_ORG, entry.id);
    }
  }

  return { start, forget, resume };
}

export type Extractor = ReturnType<typeof createExtractor>;
