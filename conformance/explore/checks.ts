// The checks exploration adds to the response checks (which judgeExchange applies to every exchange): each needs a
// known intent or more than one exchange, and is a named function with the rule behind it. One per intent of a step.
import type { Operation } from '../../spec/runtime/contract.ts';
import type { Exchange } from '../../judge/define.ts';
import type { Register } from '../../spec/runtime/register.ts';
import type { Profile } from '../../spec/runtime/schemas.ts';
import type { Finding } from '../../judge/define.ts';
import type { Intent, Step } from './case.ts';

interface StepView {
  step: Step;
  ex: Exchange;
  /** Every exchange of the case so far (the created resource of a listed step is one of them). */
  earlier: Exchange[];
  profile: Profile;
}

export interface ExploreCheck {
  name: string;
  intent: Intent;
  /** The rule a failure on `op` cites. */
  rule(op: Operation, register: Register): string;
  judge(v: StepView): Finding | undefined;
}

const status = (ex: Exchange) => ex.response.status;
const got = (ex: Exchange) => `${status(ex)} ${ex.response.text.slice(0, 300)}`.trim();
const dataOf = (ex: Exchange): unknown => (ex.response.json as { data?: unknown } | undefined)?.data;
/** The id of the last path segment of a request: the resource it names. */
const pathId = (ex: Exchange) => decodeURIComponent(ex.request.path.split('/').filter(Boolean).at(-1) ?? '');

/** The register's rule for an operation itself ("GET /patients/{patientId} (scope …) answers …"), else `fallback`. */
const operationRule = (fallback: string) => (op: Operation, register: Register) =>
  register.rules.find((r) => r.rule.startsWith(`${op.method} ${op.template} `))?.id ?? fallback;
const fixed = (id: string) => () => id;

/** The answers a server gives a request it finds invalid: what it may answer data whose validity is a reading. */
const REFUSED_AS_INVALID = new Set([400, 413, 422]);

/**
 * A request the contract accepts is accepted (2xx). Under the documented profile one whose values rest on a reading
 * (an assumed bound, free text) may be refused as invalid; an operation that documents a 503 (work that could not be
 * queued now) may answer it. Anything else (a 404 for what the case just created, a 5xx, no answer) fails.
 */
function positive_data_accepted({ step, ex, profile }: StepView): Finding | undefined {
  const s = status(ex);
  if ((s >= 200 && s < 300) || (s === 503 && ex.operation?.responses.has('503'))) return undefined;
  if (step.assumed && profile === 'documented' && REFUSED_AS_INVALID.has(s)) return undefined;
  return { expected: '2xx for a request the contract accepts', actual: got(ex) };
}

/** A request with one violation the contract forbids unambiguously is refused as a validation error (400). */
function negative_data_rejected({ step, ex }: StepView): Finding | undefined {
  if (status(ex) === 400) return undefined;
  return { expected: `400 for a request with ${step.violation?.label ?? 'one violation'}`, actual: got(ex) };
}

/** A request without a key, or with a wrong one, is refused with 401. */
function ignored_auth({ step, ex }: StepView): Finding | undefined {
  if (status(ex) === 401) return undefined;
  return { expected: `401 for a request ${step.key === 'none' ? 'without X-API-Key' : 'with a wrong X-API-Key'}`, actual: got(ex) };
}

/** A resource just created (or updated) reads back, by its id. */
function created_resource_readable({ ex }: StepView): Finding | undefined {
  const d = dataOf(ex) as { id?: unknown } | undefined;
  if (status(ex) === 200 && String(d?.id) === pathId(ex)) return undefined;
  return { expected: `200 {data} of the resource ${pathId(ex)} the case created`, actual: got(ex) };
}

/** A resource just created is found by its external_id in its list. */
function created_resource_listed({ ex, earlier }: StepView): Finding | undefined {
  const xid = new URL(ex.request.url).searchParams.get('external_id');
  const create = earlier.find(
    (e) => e.request.method === 'POST' && (dataOf(e) as { external_id?: unknown } | undefined)?.external_id === xid,
  );
  const id = (dataOf(create ?? ex) as { id?: unknown } | undefined)?.id;
  const items = dataOf(ex);
  if (status(ex) === 200 && Array.isArray(items) && items.some((x) => x && String((x as { id?: unknown }).id) === String(id)))
    return undefined;
  return { expected: `200 with the created resource ${String(id)} in data for external_id ${xid}`, actual: got(ex) };
}

/** A deleted resource is gone everywhere: read, update, delete and lookup answer 404. */
function use_after_free({ ex }: StepView): Finding | undefined {
  if (status(ex) === 404) return undefined;
  return { expected: '404: the resource was deleted earlier in the case', actual: got(ex) };
}

/** Another organization's key neither reads nor changes the resource: 404, as for one that does not exist. */
function foreign_id_not_found({ ex }: StepView): Finding | undefined {
  if (status(ex) === 404) return undefined;
  return { expected: "404 for another organization's resource", actual: got(ex) };
}

/** After another organization's key tried to delete it (answered 404), the resource is still there for its owner. */
function foreign_write_left_intact({ ex }: StepView): Finding | undefined {
  if (status(ex) === 200) return undefined;
  return { expected: `200: resource ${pathId(ex)} still there after another organization's delete of it`, actual: got(ex) };
}

export const exploreChecks: ExploreCheck[] = [
  { name: positive_data_accepted.name, intent: 'accept', rule: operationRule('ERR-015'), judge: positive_data_accepted },
  { name: negative_data_rejected.name, intent: 'reject', rule: fixed('ERR-001'), judge: negative_data_rejected },
  { name: ignored_auth.name, intent: 'refuse', rule: fixed('ERR-002'), judge: ignored_auth },
  { name: created_resource_readable.name, intent: 'readable', rule: operationRule('ERR-015'), judge: created_resource_readable },
  { name: created_resource_listed.name, intent: 'listed', rule: fixed('XID-008'), judge: created_resource_listed },
  { name: use_after_free.name, intent: 'gone', rule: fixed('ERR-004'), judge: use_after_free },
  { name: foreign_id_not_found.name, intent: 'foreign', rule: fixed('GEN-001'), judge: foreign_id_not_found },
  { name: foreign_write_left_intact.name, intent: 'intact', rule: fixed('GEN-001'), judge: foreign_write_left_intact },
];
