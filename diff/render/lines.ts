// One change as one line of text, shared by the console, Markdown and changelog renderers: where, what, and the rule
// ids it touches. Register changes of one kind are folded into one line listing their ids (a first release adds 300).
import type { Change } from '../model.ts';

const MAX_RULES = 8;

export function rulesText(ids: string[], max = MAX_RULES): string {
  if (!ids.length) return '';
  const shown = ids.slice(0, max).join(', ');
  return ids.length > max ? `${shown} +${ids.length - max} more` : shown;
}

export const whereText = (c: Change): string =>
  c.source === 'register' ? 'rules.yaml' : c.where.path ? `${c.where.method ? `${c.where.method} ` : ''}${c.where.path}` : c.where.pointer;

function changeLine(c: Change, maxRules = MAX_RULES): string {
  const rules = c.source === 'contract' && c.rules.length ? ` (rules: ${rulesText(c.rules, maxRules)})` : '';
  return `${whereText(c)}: ${c.message}${rules}`;
}

/** Contract changes one per line; register changes one line per kind and reason, with every id. */
export function groupedLines(changes: Change[], maxRules = MAX_RULES): string[] {
  const lines = changes.filter((c) => c.source === 'contract').map((c) => changeLine(c, maxRules));
  const folded = new Map<string, string[]>();
  for (const c of changes.filter((c) => c.source === 'register')) {
    if (c.kind !== 'added' && c.kind !== 'removed') {
      lines.push(c.message);
      continue;
    }
    const key = `Rules ${c.kind} (${c.why})`;
    folded.set(key, [...(folded.get(key) ?? []), ...c.rules]);
  }
  for (const [key, ids] of folded) lines.push(`${key}: ${ids.join(', ')}`);
  return lines;
}
