// Query values the contract forbids, one parameter at a time, read from each parameter's schema (a number that is not
// one, below its minimum or above its maximum, a length out of bounds, a format, pattern or enum not met). Sent only
// with --profile all: the document says nothing of how a server treats a bad filter or page, so under the documented
// profile an answer other than 400 (a 200 that ignores it, say) is a reading it allows.
import type { Contract, Operation } from '../../spec/runtime/contract.ts';
import type { Json, JsonObject } from '../../spec/runtime/json-pointer.ts';

export interface QueryViolation {
  param: string;
  label: string;
  value: string | number;
}

export function queryViolations(contract: Contract, op: Operation): QueryViolation[] {
  const out: QueryViolation[] = [];
  for (const p of op.parameters) {
    if (p.in !== 'query') continue;
    const name = String(p.name);
    const s = (contract.deref(p.schema as Json) ?? {}) as JsonObject;
    const add = (label: string, value: string | number) => out.push({ param: name, label: `query ${name} ${label}`, value });
    if (s.type === 'integer' || s.type === 'number') add('not a number', 'abc');
    if (typeof s.minimum === 'number') add(`below ${s.minimum}`, s.minimum - 1);
    if (typeof s.maximum === 'number') add(`above ${s.maximum}`, s.maximum + 1);
    if (typeof s.minLength === 'number' && s.minLength > 0) add(`shorter than ${s.minLength}`, '');
    if (typeof s.maxLength === 'number') add(`longer than ${s.maxLength}`, 'x'.repeat(s.maxLength + 1));
    if (s.format === 'date' || s.format === 'date-time' || s.format === 'uuid') add(`not a ${s.format}`, 'not-a-valid-value');
    if (typeof s.pattern === 'string') add(`not matching ${s.pattern}`, 'not-matching!');
    if (Array.isArray(s.enum)) add('outside its enum', 'NOT_A_DOCUMENTED_VALUE');
  }
  return out;
}
