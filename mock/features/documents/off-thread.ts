// Text extraction off the event loop: documents are read in a worker thread, one at a time, so a slow or hostile
// file never stalls the API or /__mock/health, and whatever it costs is bounded: a JavaScript heap limit, a watch on
// the process's resident memory (buffers live outside that heap), and a wall-clock limit. A worker that crossed a
// bound is thrown away with all it held; a healthy one is kept warm for the next document, then ends when idle.
// The only Node-specific part of extraction; an in-process/browser build swaps this module.
import { Worker } from 'node:worker_threads';
import { EXTRACTION_LIMITS, MiB, type ExtractionLimits } from './extract-limits.ts';
import { extractText, overLimitError, type ExtractionOutcome } from './extract-text.ts';
import type { FileKind } from '../../../spec/runtime/file-types.ts';
import type { TextExtractor } from './io.ts';

/** Beside this file: .ts when run from source (through tsx), .js when built. */
const ENTRY = new URL(`./extraction-worker${import.meta.url.slice(import.meta.url.lastIndexOf('.'))}`, import.meta.url);
const WATCH_MS = 50;
const IDLE_MS = 5_000;

function spawn(limits: ExtractionLimits): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: limits.heapMb } };
  if (!ENTRY.pathname.endsWith('.ts')) return new Worker(ENTRY, options);
  // From source: a worker does not inherit tsx's loader, so it loads its entry through tsx's API.
  const tsx = import.meta.resolve('tsx/esm/api');
  const load = `import(${JSON.stringify(tsx)}).then((t) => t.tsImport(${JSON.stringify(ENTRY.href)}, ${JSON.stringify(ENTRY.href)}))`;
  return new Worker(load, { ...options, eval: true });
}

export function createOffThreadExtractor(limits: ExtractionLimits = EXTRACTION_LIMITS): TextExtractor {
  let queue: Promise<unknown> = Promise.resolve();
  let warm: { worker: Worker; idle?: NodeJS.Timeout } | undefined;

  const take = (): Worker => {
    if (warm) clearTimeout(warm.idle);
    else {
      warm = { worker: spawn(limits) };
      warm.worker.unref(); // an idle or busy worker does not keep a stopping process alive
    }
    return warm.worker;
  };
  const retire = (worker: Worker) => {
    if (warm?.worker === worker) warm = undefined;
    void worker.terminate();
  };
  const park = (worker: Worker) => {
    if (warm?.worker === worker) (warm.idle = setTimeout(() => retire(worker), IDLE_MS)).unref();
  };

  const runOne = (kind: FileKind, bytes: Uint8Array) =>
    new Promise<ExtractionOutcome>((resolve) => {
      const worker = take();
      const baseline = process.memoryUsage.rss();
      let settled = false;
      const finish = (outcome: ExtractionOutcome, healthy: boolean) => {
        if (settled) return;
        settled = true;
        clearInterval(watch);
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (healthy) park(worker);
        else retire(worker);
        resolve(outcome);
      };
      const over = (why: string) => finish({ ok: false, error: overLimitError(why) }, false);
      const onMessage = (outcome: ExtractionOutcome) => finish(outcome, true);
      const onError = (err: Error & { code?: string }) =>
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? over(`it needed more than ${limits.heapMb} MB of heap`)
          : finish({ ok: false, error: `Text extraction failed: ${err.message.split('\n')[0]}` }, false);
      const onExit = (code: number) =>
        finish({ ok: false, error: `Text extraction failed: the extraction worker stopped (exit code ${code})` }, false);
      const timer = setTimeout(() => over(`it took longer than ${limits.seconds} s`), limits.seconds * 1000);
      const watch = setInterval(() => {
        if (process.memoryUsage.rss() - baseline > limits.memoryGrowthMb * MiB)
          over(`it needed more than ${limits.memoryGrowthMb} MB of memory`);
      }, WATCH_MS);
      timer.unref();
      watch.unref();
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ kind, bytes, limits });
    });

  return (kind, bytes) => {
    // Images are not read by a library (simulated OCR): nothing to take off the event loop.
    if (kind === 'png' || kind === 'jpeg') return extractText(kind, bytes, limits);
    const run = queue.then(() => runOne(kind, bytes));
    queue = run.catch(() => undefined);
    return run;
  };
}

/** The process's extraction queue: one document at a time, whatever the number of engines. */
export const extractOffThread: TextExtractor = createOffThreadExtractor();
