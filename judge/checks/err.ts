// ERR: what one error answer shows: a status the contract gives the operation, no undocumented 5xx, and a 400's
// details map.
import type { Operation } from '../../spec/runtime/contract.ts';
import { type Finding, type InspectedExchange, type InspectEnv, type ResponseCheckDef, responseCheck } from '../define.ts';
import { documented, errorBodyFindings } from '../responses.ts';

const opName = (op: Operation) => `${op.method} ${op.template} (${op.operationId})`;

export function not_a_server_error(ex: InspectedExchange): Finding | undefined {
  const s = ex.response.status;
  if (s < 500 || documented(ex.operation, s)) return;
  return { expected: `no 5xx from ${opName(ex.operation)}`, actual: `${s} ${ex.response.text.slice(0, 200)}`, where: 'response.status' };
}

export function status_code_conformance(ex: InspectedExchange): Finding | undefined {
  const s = ex.response.status;
  if (documented(ex.operation, s)) return;
  return {
    expected: `one of ${[...ex.operation.responses.keys()].join(', ')} for ${opName(ex.operation)}`,
    actual: String(s),
    where: 'response.status',
  };
}

/** A 400's details: "error plus details, a map of field errors" (the status is the sending check's, the rest GEN-005's). */
export function validation_error_details(ex: InspectedExchange, { schemas }: InspectEnv): Finding | undefined {
  if (ex.response.status !== 400) return;
  const f = errorBodyFindings(ex, schemas);
  if (!f?.json || !f.owned.details.length) return;
  return { expected: '400 { error, details }: details a map of field errors', actual: f.owned.details.join('; ') };
}

export const responseChecks: ResponseCheckDef[] = [
  responseCheck(validation_error_details, { rule: 'ERR-001', reads: ['response.headers', 'response.body'] }),
  responseCheck(not_a_server_error, { rule: 'ERR-018', reads: [] }),
  responseCheck(status_code_conformance, { rule: 'ERR-017', reads: [] }),
];
