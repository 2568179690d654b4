// What the response checks share: the documented response for a status.
import type { Operation } from '../../contract.ts';

/** The documented response for a status: exact code, then a range (4XX), then default. */
export function documented(op: Operation, status: number) {
  return op.responses.get(String(status)) ?? op.responses.get(`${String(status)[0]}XX`) ?? op.responses.get('default');
}
