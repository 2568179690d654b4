// Which rules of the register a run checks, and why the others are not. A check claims its own rule and its `covers`
// entries; the schema checks (every response validated against the spec, and the webhook payloads a check validates)
// claim the rules about the shape of what the service sends: those whose every `spec` pointer lands inside a schema
// such an answer (or payload) reaches. A claim stands only where a check fails when that rule alone is broken
// (coverage-honesty.test.ts plants such a server for each): a rule whose pointers land on a schema but whose content
// the schema cannot see is in BEHAVIOUR, and a documented rule that only the full schemas catch is in PROFILE_ALL_ONLY.
// A run counts a rule as checked when a check that claims it ran.
import type { Contract } from '../../spec/runtime/contract.ts';
import type { CheckDef, CheckResult, CoveredBySchema, NotChecked } from '../run/model.ts';
import type { Register, Rule } from '../../spec/runtime/register.ts';
import type { Profile } from '../../spec/runtime/schemas.ts';
import { schemaCoverages } from '../../spec/runtime/schema-reach.ts';

/** Rules whose pointers land on response or payload schemas but whose content is a behaviour the schema cannot see. */
const BEHAVIOUR: Record<string, string> = {
  'GEN-002': 'records are assigned to providers: behaviour',
  'GEN-009': 'clients treat ids as opaque',
  'PAT-003': 'a name built from first_name and last_name: behaviour',
  'PAT-015': 'consent false for a name-only patient: behaviour',
  'PAT-017': 'a default on create: behaviour',
  'APT-005': 'a default on create: behaviour',
  'APT-019': 'reassignment on PATCH: behaviour',
  'APT-026': 'status transitions: behaviour',
  'DOC-009': 'the text is never returned: partly shape, checked only as closed objects',
  'DOC-012': 'terminal statuses: behaviour over time',
  'DOC-013': 'the status an upload answers: behaviour',
  'DOC-014': 'the status an upload answers: behaviour',
  'DOC-016': 'transitions: behaviour over time',
  'DOC-017': 'transitions: behaviour over time',
  'DOC-018': 'transitions: behaviour over time',
  'DOC-026': 'message wording depends on queueing',
  'DOC-027': 'message wording depends on queueing',
  'DOC-036': 'message wording depends on queueing',
  'NOTE-007': 'embedded by default: behaviour of include',
  'NOTE-008': 'embedded by default: behaviour of include',
  'NOTE-018': 'include semantics',
  'NOTE-019': 'include semantics',
  'REGEN-006': 'a default template: behaviour',
  'REGEN-007': 'a default tier: behaviour',
  'REGEN-014': 'visible after regeneration: behaviour over time',
  'REGEN-017': 'a default tier: behaviour',
  'PAG-004': 'the end of a list: behaviour',
  'PAG-008': 'a page past the end: behaviour',
  'XID-003': 'uniqueness: behaviour',
  'XID-004': 'immutability: behaviour',
  'VER-002': 'the document version',
  'LIM-002': 'a request rejected: checked by out_of_bounds_rejected',
  'LIM-003': 'a request rejected: checked by out_of_bounds_rejected',
  'EVT-022': 'the payload schema lets error be a string or null whatever the status: a failed event with error null fits it',
  'EVT-023': 'the payload schema takes either URL form: which one is due depends on whether the document has an external_id',
  'PAT-013': "notes may be absent when unset (the kit's reading), so a get-by-id without it fits; list items without it are PAT-012's",
  'DOC-006': 'the schema lets extraction_error be null whatever the status: a failed document without a reason fits it',
  'DOC-029': 'the schema cannot tell whether the extract call started a run',
  'DOC-007': 'a boolean fits whatever its value: true once the text exists is what extraction_reaches_terminal_state judges',
  'EVT-020': 'every event the checks cause is of a document with an external_id: what one without carries is never seen',
  'PRV-011': 'the pattern says 10 digits: a wrong check digit fits it, and no check looks up an npi of another form',
  'DOC-034': 'the schema says string: a file_type that is not a MIME type fits it',
  'DOC-035': 'the schema says integer and uri: a size in kilobytes fits it',
  'NOTE-011': 'which fields the context carries is not shown (every one but id may be absent): a context without them fits it',
};

/** Rules some check exercises without failing on every way to break them: what goes unseen (the report's reason). */
const PARTLY: Record<string, string> = {
  'AUTH-017': 'granted_scope_allowed reads the lists without a path parameter: a documents:read key refused on a documents list passes',
  'DOC-010': 'upload_limits_refused uploads a PDF only: a server refusing PNG, JPEG or DOCX passes',
  'DOC-022': 'the checks upload with an external_id and a file only: a server that requires the one or takes no file passes',
  'DOC-011': 'upload_limits_refused uploads a small PDF and one past 10 MiB: a server refusing a file of a few MB passes',
  'EVT-036': 'webhook_retries_identical_payload answers 500 only: a sender that does not retry after 408 or 429 passes',
  'XID-001': 'the checks create with an external_id only: a server that requires one passes',
};

/**
 * Documented rules whose defects only the full schemas catch: the documented profile relaxes the kit's marks
 * (x-assumption) on the schemas they point at, so there the schema checks do not fail when the rule alone is broken.
 */
const PROFILE_ALL_ONLY: Record<string, string> = {
  'PAT-014': "a get-by-id without consent: the documented profile relaxes Patient's required fields",
};

/** Does a rule pointer land inside the reachable set (the node itself, or a keyword of it such as /required)? */
function lands(pointer: string, reachable: Set<string>): boolean {
  const p = pointer.replace(/^#/, '');
  if (reachable.has(p)) return true;
  const cut = p.lastIndexOf('/');
  return cut > 0 && reachable.has(p.slice(0, cut)) && !p.endsWith('/properties');
}

function pointers(rule: Rule): string[] {
  return Array.isArray(rule.spec) ? (rule.spec as unknown[]).filter((p): p is string => typeof p === 'string') : [];
}

/** Is the rule a shape rule every pointer of which lands in `reachable`? */
function shapeRule(rule: Rule, reachable: Set<string>): boolean {
  const ps = pointers(rule);
  return ps.length > 0 && !(rule.id in BEHAVIOUR) && ps.every((p) => lands(p, reachable));
}

/** In the documented profile, an assumed rule's constraint is relaxed out of the schemas: not checked by them. */
function schemaChecksRule(rule: Rule, profile: Profile): boolean {
  return rule.provenance === 'documented' || profile === 'all';
}

/** How a check claims a rule: its own rule, a `covers` entry, or a schema it validates. */
export interface Claim {
  check: string;
  kind: 'rule' | 'covers' | 'schema';
  /** A response check: it judges every exchange, whatever check sent it. */
  response: boolean;
}

/** What the claims are computed from: the register, the contract and the checks. */
export interface ClaimSource {
  register: Register;
  contract: Contract;
  checks: CheckDef[];
  responseChecks: Array<{ name: string; rule: string; covers?: string[] }>;
}

/** Every rule id of the register → the checks that claim it in `profile` (an empty list: none). */
export function claims(src: ClaimSource, profile: Profile): Map<string, Claim[]> {
  const payloadChecks = src.checks.filter((c) => c.payloadSchemas?.length).map((c) => ({ check: c.name, schemas: c.payloadSchemas! }));
  const schemaCov = schemaCoverages(src.contract, payloadChecks);
  const responseNames = new Set(src.responseChecks.map((c) => c.name));
  const named = [...src.responseChecks, ...src.checks];
  const out = new Map<string, Claim[]>();
  for (const r of src.register.rules) {
    // In the documented profile the relaxed schemas let some defects through: their schema claims would not fail.
    const relaxed = profile === 'documented' && r.id in PROFILE_ALL_ONLY;
    const list: Claim[] = [];
    for (const c of named) {
      const kind = c.rule === r.id ? 'rule' : c.covers?.includes(r.id) ? 'covers' : undefined;
      if (kind) list.push({ check: c.name, kind, response: responseNames.has(c.name) });
    }
    if (!relaxed && schemaChecksRule(r, profile))
      for (const s of schemaCov)
        if (shapeRule(r, s.reachable)) list.push({ check: s.check, kind: 'schema', response: responseNames.has(s.check) });
    out.set(r.id, list);
  }
  return out;
}

/**
 * Rule by rule, after a run: checked by a check claiming it (its rule or covers) that ran; else through a schema check
 * that ran (coveredBySchemas); else not checked, with the reason: the skip reason of the check that claims it, or why
 * no check can (not testable from outside, only with --profile all, a behaviour the schemas cannot see, no check yet).
 */
type RunOutcome = ClaimSource & { selected: CheckDef[]; results: CheckResult[]; profile: Profile };

export function coverage(src: RunOutcome): { notChecked: NotChecked[]; coveredBySchemas: CoveredBySchema[] } {
  const byName = new Map(src.results.map((r) => [r.name, r]));
  const ran = (c: Claim) => {
    const r = byName.get(c.check);
    return !!r && r.outcome !== 'skipped';
  };
  const now = claims(src, src.profile);
  const full = src.profile === 'all' ? now : claims(src, 'all');
  const notChecked: NotChecked[] = [];
  const coveredBySchemas: CoveredBySchema[] = [];
  for (const r of src.register.rules) {
    const base = { ruleId: r.id, rule: r.rule, provenance: r.provenance };
    const mine = now.get(r.id)!;
    const byCheck = mine.filter((c) => c.kind !== 'schema');
    const bySchema = mine.filter((c) => c.kind === 'schema');
    if (byCheck.some(ran)) continue;
    const schemaRan = bySchema.find(ran);
    if (schemaRan) {
      coveredBySchemas.push({ ...base, check: schemaRan.check });
      continue;
    }
    notChecked.push({ ...base, reason: whyNot(r, { byCheck, bySchema, inFull: full.get(r.id)!, byName, selected: src.selected }) });
  }
  return { notChecked, coveredBySchemas };
}

function whyNot(
  r: Rule,
  env: { byCheck: Claim[]; bySchema: Claim[]; inFull: Claim[]; byName: Map<string, CheckResult>; selected: CheckDef[] },
): string {
  const { byCheck, bySchema, inFull, byName } = env;
  const skipped = byCheck.map((c) => byName.get(c.check)).find((x) => x?.outcome === 'skipped');
  if (skipped) return `${skipped.name} skipped: ${skipped.reason ?? 'skipped'}`;
  const names = (cs: Claim[]) => [...new Set(cs.map((c) => c.check))].join(', ');
  const unselected = byCheck.filter((c) => !c.response && !env.selected.some((s) => s.name === c.check));
  if (unselected.length) return `not selected by --only (checked by ${names(unselected)})`;
  if (byCheck.length) return `checked by ${names(byCheck)}, which did not run`;
  if (bySchema.length) {
    const s = byName.get(bySchema[0]!.check);
    return `checked by ${bySchema[0]!.check}, which did not run${s?.reason ? `: ${s.reason}` : ''}`;
  }
  if (inFull.length && r.id in PROFILE_ALL_ONLY) return `checked by ${names(inFull)} with --profile all only: ${PROFILE_ALL_ONLY[r.id]}`;
  if (inFull.length) return `assumed rule: checked by ${names(inFull)} with --profile all`;
  if (r.testable === 'not-from-outside') return `not testable from outside${r.reason ? `: ${r.reason}` : ''}`;
  if (r.id in PARTLY) return `no check fails on every way to break it: ${PARTLY[r.id]}`;
  if (r.id in BEHAVIOUR) return `no check covers it yet, and the schema checks cannot judge it: ${BEHAVIOUR[r.id]}`;
  if (r.testable === 'needs-mock-control') return 'needs the mock control API (--mock) and no check covers it yet';
  return 'no check covers it yet';
}
