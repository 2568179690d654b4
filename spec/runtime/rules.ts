// The rule register (spec/rules.yaml), read strictly: a missing file, YAML that does not parse or an entry that
// breaks the register's grammar (documented at the top of rules.yaml) is an error naming the file and every problem,
// never an empty or partly read register. One `Rule` type for the conformance suite, the scripts and the tests.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const REGISTER_URL = new URL('../rules.yaml', import.meta.url);

/** The areas a rule id may name (AREA-NNN). */
export const AREAS = [
  'GEN',
  'PAG',
  'XID',
  'PAT',
  'APT',
  'DOC',
  'PRV',
  'NOTE',
  'REGEN',
  'AUTH',
  'RATE',
  'EVT',
  'ERR',
  'LIM',
  'VER',
] as const;
const PROVENANCES = ['documented', 'assumed'] as const;
const TESTABLE = ['api-key', 'needs-mock-control', 'not-from-outside'] as const;
/** How a rule can be seen: one exchange, several (or knowledge beyond one), durations, webhook deliveries, not at all. */
const SEEN = ['exchange', 'sequence', 'time', 'webhook', 'outside'] as const;
const REQUIRED_KEYS = ['id', 'rule', 'provenance', 'source', 'spec', 'testable', 'seen'] as const;
const ALLOWED_KEYS: readonly string[] = [...REQUIRED_KEYS, 'reason'];
const ID = new RegExp(`^(${AREAS.join('|')})-\\d{3}$`);

export type Provenance = (typeof PROVENANCES)[number];
type Testable = (typeof TESTABLE)[number];
type Seen = (typeof SEEN)[number];

export interface Rule {
  /** AREA-NNN, stable: checks and reports cite it. */
  id: string;
  /** The rule in one sentence. */
  rule: string;
  provenance: Provenance;
  /** Section and item of the source document. */
  source: string;
  /** JSON pointers into the bundled spec where the rule is expressed ([] when nowhere). */
  spec: string[];
  testable: Testable;
  /** How it can be seen (exchange: one request and its answer show it; the judge of one exchange names it). */
  seen: Seen;
  /** Why a rule is not testable from outside (present exactly then). */
  reason?: string;
}

export class RegisterError extends Error {
  override name = 'RegisterError';
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    const shown = problems.slice(0, 20).map((p) => `  - ${p}`);
    if (problems.length > shown.length) shown.push(`  - ... and ${problems.length - shown.length} more`);
    super(`rule register ${file} is not usable:\n${shown.join('\n')}`);
  }
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** The problems of one entry (empty when it is a well-formed rule). */
function entryProblems(entry: unknown, index: number): string[] {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return [`entry ${index + 1}: not a mapping`];
  const r = entry as Record<string, unknown>;
  const at = `entry ${index + 1}${typeof r.id === 'string' ? ` (${r.id})` : ''}`;
  const problems: string[] = [];
  for (const key of REQUIRED_KEYS) if (!(key in r)) problems.push(`${at}: missing ${key}`);
  for (const key of Object.keys(r)) if (!ALLOWED_KEYS.includes(key)) problems.push(`${at}: unknown field ${key}`);
  if ('id' in r && !(typeof r.id === 'string' && ID.test(r.id)))
    problems.push(`${at}: id must be AREA-NNN with AREA one of ${AREAS.join(', ')}`);
  if ('rule' in r && !isText(r.rule)) problems.push(`${at}: rule must be a non-empty sentence`);
  if ('source' in r && !isText(r.source)) problems.push(`${at}: source must be non-empty text`);
  if ('provenance' in r && !(PROVENANCES as readonly unknown[]).includes(r.provenance))
    problems.push(`${at}: provenance must be ${PROVENANCES.join(' or ')}, got ${JSON.stringify(r.provenance)}`);
  if ('testable' in r && !(TESTABLE as readonly unknown[]).includes(r.testable))
    problems.push(`${at}: testable must be one of ${TESTABLE.join(', ')}, got ${JSON.stringify(r.testable)}`);
  if ('seen' in r && !(SEEN as readonly unknown[]).includes(r.seen))
    problems.push(`${at}: seen must be one of ${SEEN.join(', ')}, got ${JSON.stringify(r.seen)}`);
  if (r.testable === 'not-from-outside' && 'seen' in r && r.seen !== 'outside')
    problems.push(`${at}: a not-from-outside rule is seen outside`);
  if ('spec' in r) {
    if (!Array.isArray(r.spec) || r.spec.some((p) => typeof p !== 'string' || !p.startsWith('/')))
      problems.push(`${at}: spec must be a list of JSON pointers`);
    else if (new Set(r.spec).size !== r.spec.length) problems.push(`${at}: spec repeats a pointer`);
  }
  if (r.testable === 'not-from-outside' && !isText(r.reason)) problems.push(`${at}: a not-from-outside rule needs a reason`);
  if (r.testable !== 'not-from-outside' && 'reason' in r) problems.push(`${at}: reason belongs only on a not-from-outside rule`);
  return problems;
}

/** The rules of a register's text; `file` names it in errors. */
export function parseRules(text: string, file = 'spec/rules.yaml'): Rule[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new RegisterError(file, [`YAML does not parse: ${(e as Error).message.split('\n')[0]}`]);
  }
  const list = (doc as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(list) || list.length === 0) throw new RegisterError(file, ['expected a non-empty list under `rules:`']);
  const problems = list.flatMap(entryProblems);
  const ids = list.map((r) => (r as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string');
  for (const id of new Set(ids.filter((id, i) => ids.indexOf(id) !== i))) problems.push(`id ${id} is used more than once`);
  if (problems.length) throw new RegisterError(file, problems);
  return (list as Array<Record<string, unknown>>).map((r) => ({
    id: r.id as string,
    rule: r.rule as string,
    provenance: r.provenance as Provenance,
    source: r.source as string,
    spec: r.spec as string[],
    testable: r.testable as Testable,
    seen: r.seen as Seen,
    ...(r.reason === undefined ? {} : { reason: r.reason as string }),
  }));
}

/** Reads and checks the register file (spec/rules.yaml unless told otherwise). */
export function loadRules(url: URL | string = REGISTER_URL): Rule[] {
  const file = url instanceof URL ? fileURLToPath(url) : url;
  let text: string;
  try {
    text = readFileSync(url, 'utf8');
  } catch (e) {
    throw new RegisterError(file, [`cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`]);
  }
  return parseRules(text, file);
}
