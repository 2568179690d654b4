// The engine's runtime in Node (the CLI mock and its tests): the fast paths that need Node built-ins.
import { hash } from 'node:crypto';
import { dashboardRoutes } from '../features/control/dashboard/routes.ts';
import { extractOffThread } from '../features/documents/off-thread.ts';
import { readUpload } from '../features/documents/upload.ts';
import { systemResolver } from '../features/events/resolve-node.ts';
import { nodeSender } from '../features/events/send-node.ts';
import { openStateFile } from '../platform/state-file.ts';
import type { EngineRuntime } from './types.ts';

export const nodeRuntime: EngineRuntime = {
  sha256Hex: (text) => hash('sha256', text, 'hex'),
  documents: { readUpload, extractText: extractOffThread },
  webhooks: { send: nodeSender, resolve: systemResolver },
  openState: openStateFile,
  controlPages: dashboardRoutes,
};
