// The notes list filters (names from the spec's listNotes parameters), applied to stored rows.
import type { NoteRow } from './rows.ts';

export interface NoteFilters {
  patient_id?: string;
  session_id?: string;
  template_id?: string;
  provider_id?: string;
  note_type?: string;
  created_after?: string;
  created_before?: string;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A bound as epoch ms: a bare date starts its day for "after" and ends it for "before" (UTC). */
function bound(value: string, edge: 'start' | 'end'): number {
  if (DATE_ONLY.test(value)) return Date.parse(`${value}T00:00:00.000Z`) + (edge === 'end' ? 86_400_000 - 1 : 0);
  return Date.parse(value);
}

const EXACT = ['patient_id', 'session_id', 'template_id', 'provider_id', 'note_type'] as const;

export function filterNotes(rows: readonly NoteRow[], f: NoteFilters): NoteRow[] {
  const after = f.created_after !== undefined ? bound(f.created_after, 'start') : undefined;
  const before = f.created_before !== undefined ? bound(f.created_before, 'end') : undefined;
  return rows.filter((n) => {
    for (const k of EXACT) if (f[k] !== undefined && n[k] !== f[k]) return false;
    const created = Date.parse(n.created_at);
    if (after !== undefined && created < after) return false;
    if (before !== undefined && created > before) return false;
    return true;
  });
}
