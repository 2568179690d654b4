// `clinical-records-mock` in a page (the `browser` and `default` conditions): createMock() on the web runtime
// (mock/runtime/web.ts), the default seed and the spec inside the bundle. No Node built-in in its import graph
// (mock/in-process/browser.test.ts bundles it for the browser and checks).
import { webRuntime } from '../runtime/web.ts';
import { checkSeed } from '../seed/check.ts';
import defaultSeed from '../seed/default.json' with { type: 'json' };
import { createInProcessMock, type InProcessMock, type MockOptions } from './mock.ts';

export function createMock(options: MockOptions = {}): Promise<InProcessMock> {
  return createInProcessMock(options, {
    runtime: webRuntime(options?.webhookFetch),
    defaultSeed: () => checkSeed(structuredClone(defaultSeed), 'the default seed'),
  });
}

export { DEFAULT_BASE_URL, type InProcessMock, type MockKey, type MockOptions } from './mock.ts';
