// The extraction worker's entry (started by off-thread.ts): documents in, one outcome out per document, in order.
import { parentPort } from 'node:worker_threads';
import type { ExtractionLimits } from './extract-limits.ts';
import { extractText } from './extract-text.ts';
import type { FileKind } from '../../../spec/runtime/file-types.ts';

const port = parentPort!;
port.on('message', async ({ kind, bytes, limits }: { kind: FileKind; bytes: Uint8Array; limits: ExtractionLimits }) => {
  port.postMessage(await extractText(kind, bytes, limits));
});
