// Prism's view of the contract: HTTP operations from the bundled spec, with paths under /ext-api/v1 (Prism's
// router ignores the servers' base path when the request carries no base URL).
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { specIndex, API_BASE } from '../platform/spec.ts';
import type { JsonObject } from '../../spec/runtime/json-pointer.ts';

export type PrismOperations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;

/** The operations of `bundle` (the spec's; under readings, the contract their server keeps: readings/contract.ts). */
export async function prismOperations(bundle: JsonObject = specIndex().bundle): Promise<PrismOperations> {
  // Prism dereferences in place: hand it a copy of the bundle.
  const ops = await getHttpOperationsFromSpec(structuredClone(bundle) as unknown as string);
  return ops.map((op) => ({ ...op, path: `${API_BASE}${op.path}` }));
}
