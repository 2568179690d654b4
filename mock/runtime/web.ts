// The engine's runtime where only web APIs exist (a page; any fetch-only host): a synchronous SHA-256 of its own,
// uploads through Request.formData(), text extraction on the page's thread (the libraries' browser builds), webhooks
// through a fetch with no DNS to ask, and no --state file.
import { extractText } from '../features/documents/extract-text.ts';
import { readUploadWeb } from '../features/documents/upload-web.ts';
import { pageResolver } from '../features/events/resolve-web.ts';
import { fetchSender, type FetchFn } from '../features/events/send-fetch.ts';
import { sha256Hex } from '../platform/sha256.ts';
import type { EngineRuntime } from './types.ts';

export function webRuntime(webhookFetch?: FetchFn): EngineRuntime {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    sha256Hex,
    documents: {
      readUpload: readUploadWeb,
      // One document at a time, as the worker does in Node, so two large files never parse at once.
      extractText: (kind, bytes) => {
        const run = queue.then(() => extractText(kind, bytes));
        queue = run.catch(() => undefined);
        return run;
      },
    },
    webhooks: { send: fetchSender(webhookFetch), resolve: pageResolver },
  };
}
