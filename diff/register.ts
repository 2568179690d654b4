// The rule register's changes between two refs. Read leniently (a ref from any time, with whatever fields its entries
// had then): only `rules` as a list of mappings with an `id` is required. Every field is compared, so a field this
// module has never heard of (added, removed or changed) is reported too, as a patch for the suite.
import { parse } from 'yaml';
import { InputError } from './git.ts';
import { type Bump, type Change, noImpact } from './model.ts';

export type RegisterEntry = Record<string, unknown>;

export function readRegister(text: string | undefined, label: string): Map<string, RegisterEntry> {
  const entries = new Map<string, RegisterEntry>();
  if (text === undefined) return entries;
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new InputError(`${label}: spec/rules.yaml does not parse: ${(e as Error).message.split('\n')[0]}`);
  }
  const list = (doc as { rules?: unknown } | null)?.rules ?? [];
  if (!Array.isArray(list)) throw new InputError(`${label}: spec/rules.yaml has no list under rules:`);
  for (const entry of list)
    if (entry && typeof entry === 'object' && typeof (entry as RegisterEntry).id === 'string')
      entries.set((entry as RegisterEntry).id as string, entry as RegisterEntry);
  return entries;
}

/** Can the suite judge this rule against someone else's server by default (documented, testable from outside)? */
const judgedByDefault = (e: RegisterEntry) => e.provenance === 'documented' && e.testable !== 'not-from-outside';

function change(id: string, kind: string, message: string, suite: Bump, why: string, field = ''): Change {
  return {
    source: 'register',
    kind,
    message,
    where: { pointer: `spec/rules.yaml#/${id}${field ? `/${field}` : ''}` },
    rules: [id],
    impacts: { ...noImpact(), implementations: suite },
    why,
  };
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function fieldChanges(id: string, base: RegisterEntry, head: RegisterEntry): Change[] {
  const out: Change[] = [];
  for (const field of [...new Set([...Object.keys(base), ...Object.keys(head)])]) {
    if (field === 'id' || JSON.stringify(base[field]) === JSON.stringify(head[field])) continue;
    const [was, now] = [base[field], head[field]];
    if (field === 'provenance') {
      const stricter = judgedByDefault(head) && !judgedByDefault(base);
      const message = `${id} moved from ${show(was)} to ${show(now)}`;
      const why = stricter ? 'the default profile now judges it' : 'the default profile judges it no more, or as before';
      out.push(change(id, 'provenance', message, stricter ? 'major' : 'minor', why, field));
    } else if (field === 'testable') {
      const stricter = judgedByDefault(head) && !judgedByDefault(base);
      out.push(
        change(id, 'testable', `${id} testable: ${show(was)} → ${show(now)}`, stricter ? 'major' : 'minor', 'who can judge it', field),
      );
    } else if (field === 'rule') out.push(change(id, 'reworded', `${id} reworded: ${show(now)}`, 'patch', 'wording', field));
    else {
      const what = was === undefined ? `set to ${show(now)}` : now === undefined ? 'removed' : `${show(was)} → ${show(now)}`;
      out.push(change(id, 'field', `${id} ${field}: ${what}`, 'patch', 'register text', field));
    }
  }
  return out;
}

/** Rules added, removed, and each field changed, in the head register's order (removed ones last). */
export function registerChanges(base: Map<string, RegisterEntry>, head: Map<string, RegisterEntry>): Change[] {
  const out: Change[] = [];
  for (const [id, entry] of head) {
    const was = base.get(id);
    if (was) {
      out.push(...fieldChanges(id, was, entry));
      continue;
    }
    const judged = judgedByDefault(entry);
    const suite: Bump = judged ? 'major' : entry.testable === 'not-from-outside' ? 'patch' : 'minor';
    const why = judged
      ? 'a server that passed may now fail it'
      : entry.testable === 'not-from-outside'
        ? 'not observable from outside'
        : 'not judged by the default profile';
    out.push(change(id, 'added', `${id} added (${show(entry.provenance)}): ${show(entry.rule)}`, suite, why));
  }
  for (const [id, entry] of base)
    if (!head.has(id)) out.push(change(id, 'removed', `${id} removed: ${show(entry.rule)}`, 'minor', 'the suite judges it no more'));
  return out;
}
