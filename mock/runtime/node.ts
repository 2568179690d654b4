// The engine's runtime in Node (the CLI mock and its tests): the fast paths that need Node built-ins. What only an
// upload uses (busboy, the extraction worker and its document readers) is loaded on the first upload, not at start: a
// run that never uploads never holds it (issue 42).
import { hash } from 'node:crypto';
import { dashboardRoutes } from '../features/control/dashboard/routes.ts';
import { systemResolver } from '../features/events/resolve-node.ts';
import { nodeSender } from '../features/events/send-node.ts';
import { openStateFile } from '../platform/state-file.ts';
import { onFirstUse } from '../platform/on-first-use.ts';
import type { EngineRuntime } from './types.ts';

const uploads = onFirstUse(() => import('../features/documents/upload.ts'));
const extraction = onFirstUse(() => import('../features/documents/off-thread.ts'));

export const nodeRuntime: EngineRuntime = {
  sha256Hex: (text) => hash('sha256', text, 'hex'),
  documents: {
    readUpload: async (req, maxBytes) => (await uploads()).readUpload(req, maxBytes),
    extractText: async (kind, bytes) => (await extraction()).extractOffThread(kind, bytes),
  },
  webhooks: { send: nodeSender, resolve: systemResolver },
  openState: openStateFile,
  controlPages: dashboardRoutes,
};
