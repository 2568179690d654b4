// The note export's layouts (NOTE-025, notes_export_layouts): the export in each format, what it is made of, and how
// its ndjson lines, csv cells and items are read.
import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../../../judge/define.ts';
import type { CheckContext } from '../../run/model.ts';
import type { Obj } from './common.ts';

/** Does a CSV cell hold `value` (null/absent empty, arrays and objects JSON-encoded, the rest as text)? */
export function cellHolds(cell: string | undefined, value: unknown): boolean {
  if (value === null || value === undefined) return cell === '';
  if (typeof value === 'object') {
    try {
      return isDeepStrictEqual(JSON.parse(cell ?? ''), value);
    } catch {
      return false;
    }
  }
  return cell === String(value);
}

/** The export's fields in schema order, its list item's, and what an export adds to its item. */
export function exportFields(ctx: CheckContext): { fields: string[]; itemFields: string[]; extra: string[] } {
  const schema = ctx.contract.resolve('#/components/schemas/NoteExport') as { properties: Obj };
  const fields = Object.keys(schema.properties);
  const itemFields = Object.keys((ctx.contract.resolve('#/components/schemas/NoteListItem') as { properties: Obj }).properties);
  // What an export adds to its list item: the body and codes (the spec's NoteExport fields beyond NoteListItem's).
  return { fields, itemFields, extra: fields.filter((f) => !itemFields.includes(f)) };
}

/** The export in each format, asked in this order: without a format, json, ndjson, csv. */
export async function exportsByFormat(ctx: CheckContext): Promise<Record<'plain' | 'asJson' | 'nd' | 'csv', Exchange>> {
  const get = (format?: string) => ctx.send({ method: 'GET', path: '/notes/export', key: ctx.keys.main, query: format ? { format } : {} });
  return { plain: await get(), asJson: await get('json'), nd: await get('ndjson'), csv: await get('csv') };
}

/** An ndjson body's lines, each parsed; undefined when one is not JSON. */
export function ndjsonLines(text: string): Obj[] | undefined {
  try {
    return text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Obj);
  } catch {
    return undefined;
  }
}

/** How exported note `n` differs from its list item: fields of other values, fields beyond the item's and the extra. */
export function itemMismatch(n: Obj, item: Obj, itemFields: string[], extra: string[]): { ok: boolean; actual: string } {
  const differ = itemFields.filter((f) => !isDeepStrictEqual(n[f] ?? null, item[f] ?? null));
  const beyond = Object.keys(n).filter((k) => !itemFields.includes(k) && !extra.includes(k));
  return {
    ok: !differ.length && !beyond.length && extra.every((k) => k in n),
    actual: `${differ.length ? `differs in ${differ.join(', ')}` : ''}${beyond.length ? ` extra ${beyond.join(', ')}` : ''}${extra.every((k) => k in n) ? '' : ' without the body and codes'}`,
  };
}
