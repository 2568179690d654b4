// One change as one line of text, shared by the console, Markdown and changelog renderers: where, what, and the rule
// ids it touches. Register changes of one kind are folded into one entry listing their ids (a first release adds 300).
import type { Change } from '../model.ts';

const MAX_RULES = 8;

export function rulesText(ids: string[], max = MAX_RULES): string {
  if (!ids.length) return '';
  const shown = ids.slice(0, max).join(', ');
  return ids.length > max ? `${shown} +${ids.length - max} more` : shown;
}

/** The operation (and how many more reach the change), else the pointer; 'rules.yaml' for the register. */
export function whereText(c: Change): string {
  if (c.source === 'register') return 'rules.yaml';
  const own = c.where.path ? `${c.where.method ? `${c.where.method} ` : ''}${c.where.path}` : undefined;
  const ops = c.where.operations ?? [];
  const first = own ?? ops[0];
  if (!first) return c.where.pointer;
  const more = ops.filter((o) => o !== first).length;
  return more ? `${first} (+${more} more)` : first;
}

/** The one line a register change folds under, if it folds: rules added or removed for one reason, one field changed. */
function foldTitle(c: Change): string | undefined {
  if (c.source !== 'register') return undefined;
  if (c.kind === 'added' || c.kind === 'removed') return `Rules ${c.kind} (${c.why})`;
  if (c.kind === 'field') return `Rules whose \`${c.where.pointer.split('/').pop()}\` changed`;
  return undefined;
}

/** Register changes that fold (same title and bumps) become one change listing every id; the rest stay as they are. */
export function foldRegister(changes: Change[]): Change[] {
  const folded = new Map<string, Change>();
  const out: Change[] = [];
  for (const c of changes) {
    const title = foldTitle(c);
    if (!title) {
      out.push(c);
      continue;
    }
    const key = `${title} ${JSON.stringify(c.impacts)}`;
    const seen = folded.get(key);
    if (seen) seen.rules.push(...c.rules);
    else {
      const group = { ...c, rules: [...c.rules], message: title };
      folded.set(key, group);
      out.push(group);
    }
  }
  return out;
}

/** Contract changes one per line with up to `maxRules` ids; folded register changes with every id. */
export function groupedLines(changes: Change[], maxRules = MAX_RULES): string[] {
  return foldRegister(changes).map((c) => {
    if (c.source === 'register') return foldTitle(c) ? `${c.message}: ${c.rules.join(', ')}` : c.message;
    const rules = c.rules.length ? ` (rules: ${rulesText(c.rules, maxRules)})` : '';
    return `${whereText(c)}: ${c.message}${rules}`;
  });
}
