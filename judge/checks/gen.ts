// GEN: what every answer of one exchange shows: its media type, its success body against the contract, and an error
// body's generic `{ error }` shape.
import type { JsonObject } from '../../spec/runtime/json-pointer.ts';
import { type Finding, type InspectedExchange, type InspectEnv, type ResponseCheckDef, responseCheck } from '../define.ts';
import { errorBodyFindings, sameFormat, successBody, successBodySchema } from '../responses.ts';

/**
 * Error responses (400 and up) are error_body_shape's (GEN-005): their bodies' one rule, whatever the operation. An
 * operation answering in several formats (the notes export) has a rule naming them: where the caller knows the rules,
 * the finding is that rule's (NOTE-020), else GEN-003's.
 */
export function content_type_conformance(ex: InspectedExchange, { profile, rules }: InspectEnv): Finding | undefined {
  if (ex.response.status >= 400) return;
  const r = successBody(ex.operation, ex.response.status);
  const content = r?.node.content as JsonObject | undefined;
  if (!content || !ex.response.text) return;
  const types = Object.keys(content);
  if (types.includes(ex.response.mediaType)) return;
  // The contract's media type for a format the document names without one is the kit's pick: another name of it passes.
  if (profile === 'documented' && types.some((t) => sameFormat(t, ex.response.mediaType))) return;
  const formats = types.length > 1 ? rules?.operationRule(ex.operation)?.id : undefined;
  return {
    ...(formats ? { ruleId: formats } : {}),
    expected: `Content-Type ${types.join(' or ')}`,
    actual: ex.response.mediaType || '(none)',
    where: 'response.headers.content-type',
  };
}

export function response_schema_conformance(ex: InspectedExchange, { schemas }: InspectEnv): Finding | undefined {
  const body = successBodySchema(ex);
  if (!body || 'finding' in body) return body?.finding;
  const errors = schemas.validate(body.pointer, ex.response.json);
  if (!errors.length) return;
  return { expected: `body valid against ${body.pointer}`, actual: errors.join('; ') };
}

/**
 * Every error answer of a documented status is JSON `{ error: <string> }` as its schema says; a 400's details and a
 * 409's existing are left to the rules that own them (validation_error_details, the external_id conflict checks),
 * and the status itself to the check that sent the request.
 */
export function error_body_shape(ex: InspectedExchange, { schemas }: InspectEnv): Finding | undefined {
  const f = errorBodyFindings(ex, schemas);
  if (!f) return;
  if (!f.json)
    return {
      expected: `a JSON error body { error: <string> } for ${ex.response.status}`,
      actual: `${f.mediaType || '(no Content-Type)'} ${f.text.slice(0, 200) || '(empty)'}`,
    };
  if (f.generic.length) return { expected: `an error body { error: <string> } valid against the contract`, actual: f.generic.join('; ') };
}

export const responseChecks: ResponseCheckDef[] = [
  responseCheck(content_type_conformance, { rule: 'GEN-003', reads: ['response.headers'] }),
  responseCheck(response_schema_conformance, { rule: 'GEN-003', reads: ['response.headers', 'response.body'] }),
  responseCheck(error_body_shape, { rule: 'GEN-005', reads: ['response.headers', 'response.body'] }),
];
