// Prism's view of the contract: HTTP operations from the bundled spec, with paths under /ext-api/v1 (Prism's
// router ignores the servers' base path when the request carries no base URL).
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { specIndex, API_BASE } from '../platform/spec.ts';

export type PrismOperations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;

export async function prismOperations(): Promise<PrismOperations> {
  // Prism dereferences in place: hand it a copy of the bundle.
  const ops = await getHttpOperationsFromSpec(structuredClone(specIndex().bundle) as unknown as string);
  return ops.map((op) => ({ ...op, path: `${API_BASE}${op.path}` }));
}
