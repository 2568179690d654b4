// What the response checks share: the documented response for a status, and the schema findings of an error body
// split by the rule that owns each part, so one defect of an error body reads as one failure.
import type { Operation } from '../spec/runtime/contract.ts';
import type { Exchange } from './define.ts';
import type { SchemaValidator } from '../spec/runtime/schemas.ts';
import type { Finding } from './define.ts';
import { escapeToken, type JsonObject } from '../spec/runtime/json-pointer.ts';

/** The documented response for a status: exact code, then a range (4XX), then default. */
export function documented(op: Operation, status: number) {
  return op.responses.get(String(status)) ?? op.responses.get(`${String(status)[0]}XX`) ?? op.responses.get('default');
}

/**
 * The response whose body a success answer is judged by: the documented one for its status, or, where the document
 * shows the body but not the status (the contract's one success response marks its status x-assumption: the extract
 * endpoint's 200, the appointment create's 201), that one for any 2xx. A 202 extract answer carries the same body.
 */
export function successBody(op: Operation, status: number) {
  const exact = documented(op, status);
  if (exact || status < 200 || status > 299) return exact;
  const successes = [...op.responses.entries()].filter(([code]) => /^2\d\d$/.test(code));
  const only = successes.length === 1 ? successes[0]![1] : undefined;
  return only && 'x-assumption' in only.node ? only : undefined;
}

/**
 * The schema a success answer's JSON body is judged against (its pointer), a finding when the documented JSON body is
 * not JSON, or undefined when there is nothing to judge (an error status, no documented JSON body for its media type).
 */
export function successBodySchema(ex: Exchange & { operation: Operation }): { pointer: string } | { finding: Finding } | undefined {
  if (ex.response.status >= 400) return;
  const r = successBody(ex.operation, ex.response.status);
  const content = r?.node.content as JsonObject | undefined;
  const media = ex.response.mediaType;
  if (!r || !content || !(media in content) || !(media === 'application/json' || media.endsWith('+json'))) return;
  if (!(content[media] as JsonObject).schema) return;
  if (ex.response.json === undefined)
    return { finding: { expected: `a JSON body (${media})`, actual: ex.response.text.slice(0, 200) || '(empty)' } };
  return { pointer: `${r.pointer}/content/${escapeToken(media)}/schema` };
}

/**
 * Names in use for one format's media type. The document names the export formats (`json`, `csv`, `ndjson`), never a
 * media type, so a server that labels NDJSON `application/ndjson` has chosen as well as the contract's `x-ndjson`.
 */
const FORMAT_NAMES: readonly (readonly string[])[] = [
  ['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines'],
  ['text/csv', 'application/csv'],
];

/** Does media type `actual` name the format of the contract's `documented` one (the same type, or another name of it)? */
export const sameFormat = (documented: string, actual: string): boolean =>
  documented === actual || FORMAT_NAMES.some((names) => names.includes(documented) && names.includes(actual));

/** Error-body fields whose shape another rule owns: a 400's details map (ERR-001), a 409's existing (ERR-006). */
const OWNED_FIELDS = ['details', 'existing'] as const;
type OwnedField = (typeof OWNED_FIELDS)[number];

export type ErrorBodyFindings =
  /** Not a JSON body where the contract documents one: all of it is the generic error shape's (GEN-005). */
  { json: false; mediaType: string; text: string } | { json: true; generic: string[]; owned: Record<OwnedField, string[]> };

const ownerOf = (line: string): OwnedField | undefined =>
  OWNED_FIELDS.find((f) => line.startsWith(`/${f}`) || line.includes(`property '${f}'`));

/**
 * The findings on the body of an error response (status 400 and up) of a documented status with a JSON body, or
 * undefined when there is nothing to judge. Schema errors are split between the generic `{ error }` shape and the
 * fields other rules own.
 */
export function errorBodyFindings(ex: Exchange & { operation: Operation }, schemas: SchemaValidator): ErrorBodyFindings | undefined {
  if (ex.response.status < 400) return undefined;
  const r = documented(ex.operation, ex.response.status);
  const content = r?.node.content as JsonObject | undefined;
  const jsonType = content && Object.keys(content).find((t) => t === 'application/json' || t.endsWith('+json'));
  if (!r || !jsonType || !(content[jsonType] as JsonObject).schema) return undefined;
  const media = ex.response.mediaType;
  if (media !== jsonType || ex.response.json === undefined) return { json: false, mediaType: media, text: ex.response.text };
  const lines = schemas.validate(`${r.pointer}/content/${escapeToken(jsonType)}/schema`, ex.response.json);
  const owned: Record<OwnedField, string[]> = { details: [], existing: [] };
  const generic: string[] = [];
  for (const line of lines) {
    const owner = ownerOf(line);
    if (owner) owned[owner].push(line);
    else generic.push(line);
  }
  return { json: true, generic, owned };
}
