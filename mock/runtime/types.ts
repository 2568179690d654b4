// What the engine needs from where it runs, handed to createEngine as one object: the only place the Node build
// (mock/runtime/node.ts: node:crypto, busboy, a worker thread, node:http, DNS, the --state file) and the web build
// (mock/runtime/web.ts: for a page or any fetch-only host) differ. Nothing inside the engine asks where it runs.
import type { ControlPages } from '../features/control/feature.ts';
import type { DocumentsIO } from '../features/documents/io.ts';
import type { WebhookIO } from '../features/events/feature.ts';
import type { Sha256Hex } from '../platform/keys.ts';
import type { StateFile } from '../platform/store.ts';

export interface EngineRuntime {
  /** Hashes API keys, synchronously (the key check runs once per request). */
  sha256Hex: Sha256Hex;
  documents: DocumentsIO;
  webhooks: WebhookIO;
  /** Opens a --state file; absent where there is no file system (then --state is refused). */
  openState?: (path: string, warn?: (message: string) => void) => StateFile;
  /** The dashboard and API reference under /__mock, read from files; absent in a page (there they answer 404). */
  controlPages?: ControlPages;
}
