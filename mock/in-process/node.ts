// `clinical-records-mock` in Node (the `node` condition): createMock() on the node runtime (node:crypto key
// hashing, busboy uploads, extraction in a worker thread), with webhooks delivered through a fetch, so a test's MSW
// server or its own `webhookFetch` sees them. A seed may also be a file path here.
import { systemResolver } from '../features/events/resolve-node.ts';
import { fetchSender } from '../features/events/send-fetch.ts';
import type { SeedFile } from '../platform/deps.ts';
import { nodeRuntime } from '../runtime/node.ts';
import { readSeedFile } from '../seed/load.ts';
import { createInProcessMock, type InProcessMock, type MockOptions } from './mock.ts';

export interface NodeMockOptions extends Omit<MockOptions, 'seed'> {
  /** A seed object, or the path of a seed file (as the CLI's --seed). */
  seed?: SeedFile | string;
}

export function createMock(options: NodeMockOptions = {}): Promise<InProcessMock> {
  const { seed, ...rest } = options ?? {};
  const fromFile = typeof seed === 'string';
  return createInProcessMock(
    { ...rest, seed: fromFile ? undefined : seed },
    {
      runtime: { ...nodeRuntime, webhooks: { send: fetchSender(options?.webhookFetch), resolve: systemResolver } },
      defaultSeed: fromFile ? () => readSeedFile(seed) : () => readSeedFile(),
    },
  );
}

export { DEFAULT_BASE_URL, type InProcessMock, type MockKey, type MockOptions } from './mock.ts';
