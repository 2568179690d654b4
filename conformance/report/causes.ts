// One defect often fails several checks: GET /providers/{id} answering 404 fails the provider checks, the key checks
// that probe that path and a response check. Causes group the failures of a run so a report can say "10 failures
// from 1 cause". A failure belongs to one cause:
// - the operation and status its request was answered with, when other checks also failed on that answer;
// - otherwise its check and what it expected (ids and numbers aside): a check that alone fails the same way on
//   several operations (error bodies sent as text/plain) is one cause, not one per operation.
import type { Exchange } from '../../judge/define.ts';
import type { Cause, CheckResult, Failure } from '../run/model.ts';

/** What a failure's request was: its operation (`GET /providers/{providerId}`) and the status it got. */
export function evidenceOf(ex: Exchange | undefined): Pick<Failure, 'operation' | 'status'> {
  if (!ex) return {};
  const op = ex.operation ? `${ex.operation.method} ${ex.operation.template}` : `${ex.request.method} ${ex.request.path}`;
  return { operation: op, status: ex.response.status };
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const RUN_PREFIX = /\b(crc|drd)-[0-9a-z]+-[\w.-]*/gi;
const TIME = /\b\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})?/g;

/** A text with what changes from run to run taken out (ids, run prefixes, times, long numbers, quoted values). */
export function shapeOf(text: string): string {
  return text
    .replace(UUID, '<id>')
    .replace(RUN_PREFIX, '<run-id>')
    .replace(TIME, '<time>')
    .replace(/"[^"]{0,200}"/g, '"…"')
    .replace(/\d{4,}/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

interface Item {
  result: CheckResult;
  failure: Failure;
  answer?: string;
  shape: string;
}

/** A failed check's failures (one made of its reason, should it have none). */
export const failuresOf = (r: CheckResult): Failure[] =>
  r.failures.length ? r.failures : [{ ruleId: r.ruleId, message: r.name, expected: r.reason ?? '', actual: '' }];

/** Statuses aside too: error bodies sent as text/plain fail the same way for a 400 and for a 404. */
const looseShape = (f: Failure) => shapeOf(f.expected).replace(/\d+/g, '#');

const answerOf = (f: Failure) => (f.operation ? `${f.operation} answered ${f.status ?? 'nothing'}` : undefined);

/** A cause and the failures it accounts for, each with its check's result. */
export interface CauseGroup {
  cause: Cause;
  members: Array<{ result: CheckResult; failure: Failure }>;
}

/** The causes of the failed checks of `results` with their failures, most checks first. */
export function causeGroups(results: CheckResult[]): CauseGroup[] {
  const items: Item[] = results
    .filter((r) => r.outcome === 'failed')
    .flatMap((result) => failuresOf(result).map((failure) => ({ result, failure, answer: answerOf(failure), shape: looseShape(failure) })));
  const checksAt = new Map<string, Set<string>>();
  for (const i of items) if (i.answer) (checksAt.get(i.answer) ?? checksAt.set(i.answer, new Set()).get(i.answer)!).add(i.result.name);

  const groups = new Map<string, Item[]>();
  for (const i of items) {
    const shared = i.answer && checksAt.get(i.answer)!.size > 1;
    const key = shared ? `answer\u0000${i.answer}` : `check\u0000${i.result.name}\u0000${i.shape}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(i);
  }
  return [...groups.values()]
    .map((members) => ({ cause: toCause(members), members: members.map(({ result, failure }) => ({ result, failure })) }))
    .sort((a, b) => b.cause.checks.length - a.cause.checks.length || b.cause.failures - a.cause.failures);
}

/** The causes of the failed checks of `results`, most checks first. */
export const causesOf = (results: CheckResult[]): Cause[] => causeGroups(results).map((g) => g.cause);

function toCause(items: Item[]): Cause {
  const checks: string[] = [];
  const rules: string[] = [];
  for (const { result } of items)
    if (!checks.includes(result.name)) {
      checks.push(result.name);
      rules.push(result.ruleId);
    }
  const answers = [...new Set(items.map((i) => i.answer))];
  const first = items[0]!;
  const summary =
    answers.length === 1 && answers[0]
      ? answers[0]
      : `${first.result.name}: expected ${first.failure.expected}${answers.length > 1 ? ` (on ${answers.length} operations and statuses)` : ''}`;
  const cause: Cause = { summary, checks, rules, failures: items.length };
  if (items.some((i) => i.result.known !== undefined || i.failure.known !== undefined))
    cause.known = items.every((i) => i.failure.known ?? i.result.known);
  return cause;
}
