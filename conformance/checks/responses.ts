// Checks applied to every response the suite receives, whatever check caused it (Schemathesis' response
// checks): documented status, content type, body schema, rate-limit headers, no server error.
import type { Contract, Operation } from '../contract.ts';
import type { Exchange } from '../http.ts';
import type { Profile, SchemaValidator } from '../schemas.ts';
import type { JsonObject } from '../../spec/runtime/json-pointer.ts';

export interface Finding {
  expected: string;
  actual: string;
}

export interface ResponseCheckDef {
  name: string;
  rule: string;
  /** Further rules the check exercises on every response (reported as covered by it). */
  covers?: string[];
  inspect(ex: Exchange & { operation: Operation }, env: { contract: Contract; schemas: SchemaValidator; profile: Profile }): Finding | undefined;
}

/** The documented response for a status: exact code, then a range (4XX), then default. */
function documented(op: Operation, status: number) {
  return op.responses.get(String(status)) ?? op.responses.get(`${String(status)[0]}XX`) ?? op.responses.get('default');
}

/** In the documented profile, a status the spec only assumed (x-assumption on a response of that class) is not held against a server. */
function assumedClassTolerated(op: Operation, status: number, profile: Profile): boolean {
  if (profile === 'all') return false;
  return [...op.responses].some(([code, r]) => code[0] === String(status)[0] && 'x-assumption' in r.node);
}

const opName = (op: Operation) => `${op.method} ${op.template} (${op.operationId})`;

export const responseChecks: ResponseCheckDef[] = [
  {
    name: 'not_a_server_error',
    rule: 'ERR-018',
    inspect(ex) {
      const s = ex.response.status;
      if (s < 500 || documented(ex.operation, s)) return;
      return { expected: `no 5xx from ${opName(ex.operation)}`, actual: `${s} ${ex.response.text.slice(0, 200)}` };
    },
  },
  {
    name: 'status_code_conformance',
    rule: 'ERR-017',
    inspect(ex, { profile }) {
      const s = ex.response.status;
      if (documented(ex.operation, s) || assumedClassTolerated(ex.operation, s, profile)) return;
      return {
        expected: `one of ${[...ex.operation.responses.keys()].join(', ')} for ${opName(ex.operation)}`,
        actual: String(s),
      };
    },
  },
  {
    name: 'content_type_conformance',
    rule: 'GEN-003',
    inspect(ex) {
      const r = documented(ex.operation, ex.response.status);
      const content = r?.node.content as JsonObject | undefined;
      if (!content || !ex.response.text) return;
      const types = Object.keys(content);
      if (types.includes(ex.response.mediaType)) return;
      return { expected: `Content-Type ${types.join(' or ')}`, actual: ex.response.mediaType || '(none)' };
    },
  },
  {
    name: 'response_schema_conformance',
    rule: 'GEN-003',
    inspect(ex, { schemas }) {
      const r = documented(ex.operation, ex.response.status);
      const content = r?.node.content as JsonObject | undefined;
      const media = ex.response.mediaType;
      if (!r || !content || !(media in content) || !(media === 'application/json' || media.endsWith('+json'))) return;
      if (!(content[media] as JsonObject).schema) return;
      if (ex.response.json === undefined)
        return { expected: `a JSON body (${media})`, actual: ex.response.text.slice(0, 200) || '(empty)' };
      const pointer = `${r.pointer}/content/${media.replace(/\//g, '~1')}/schema`;
      const errors = schemas.validate(pointer, ex.response.json);
      if (!errors.length) return;
      return { expected: `body valid against ${pointer}`, actual: errors.join('; ') };
    },
  },
  {
    name: 'rate_limit_headers',
    rule: 'RATE-001',
    covers: ['LIM-008'],
    inspect(ex, { contract, schemas }) {
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
      return { expected: `headers ${Object.keys(headers).join(', ')} present and well-formed`, actual: problems.join('; ') };
    },
  },
];
