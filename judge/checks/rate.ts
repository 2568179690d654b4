// RATE: the rate-limit headers every answer carries, as its documented response lists them.
import type { JsonObject } from '../../spec/runtime/json-pointer.ts';
import { type Finding, type InspectedExchange, type InspectEnv, type ResponseCheckDef, responseCheck } from '../define.ts';
import { documented } from '../responses.ts';

export function rate_limit_headers(ex: InspectedExchange, { contract, schemas }: InspectEnv): Finding | undefined {
  const r = documented(ex.operation, ex.response.status);
  const headers = (r?.node.headers ?? {}) as JsonObject;
  const problems: string[] = [];
  for (const [name, h] of Object.entries(headers)) {
    const ref = (h as JsonObject).$ref;
    const header = contract.deref(h) as JsonObject;
    if (!header?.required) continue;
    const value = ex.response.headers[name.toLowerCase()];
    if (value === undefined) {
      problems.push(`${name} missing`);
      continue;
    }
    const pointer = `${typeof ref === 'string' ? ref : `${r!.pointer}/headers/${name}`}/schema`;
    const coerced = /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    const errors = schemas.validate(pointer, coerced);
    if (errors.length) problems.push(`${name}: ${JSON.stringify(value)} ${errors.join('; ')}`);
  }
  if (!problems.length) return;
  return {
    expected: `headers ${Object.keys(headers).join(', ')} present and well-formed`,
    actual: problems.join('; '),
    where: 'response.headers',
  };
}

export const responseChecks: ResponseCheckDef[] = [
  responseCheck(rate_limit_headers, { rule: 'RATE-001', covers: ['LIM-008'], reads: ['response.headers'] }),
];
