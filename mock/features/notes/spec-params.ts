// The Idempotency-Key header, which the platform's Validator (query, path, body) does not cover: its length
// bounds are read from the bundled spec.
import { loadBundle } from '../../../spec/runtime/bundle.ts';
import { deref, type JsonObject } from '../../../spec/runtime/json-pointer.ts';
import { operations } from '../../../spec/runtime/operations.ts';

const bundle = loadBundle();
const op = operations(bundle).find((o) => o.operation.operationId === 'regenerateSessionNote');
const param = op?.parameters.find((p) => p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key');
if (!param) throw new Error('spec: regenerateSessionNote lacks the Idempotency-Key header');
const schema = deref(bundle, param.schema as JsonObject) as { minLength?: number; maxLength?: number };

/** undefined when the Idempotency-Key value is acceptable, else why not. */
export function idempotencyKeyCheck(value: string): string | undefined {
  if (schema.minLength !== undefined && value.length < schema.minLength) return `must NOT have fewer than ${schema.minLength} characters`;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return `must NOT have more than ${schema.maxLength} characters`;
  return undefined;
}
