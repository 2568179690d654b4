// How templates, sessions and notes are kept in the store, and the spec's field lists that shape every output.
import type { components } from '../../../generated/types.ts';
import { loadBundle } from '../../../spec/runtime/bundle.ts';
import type { JsonObject } from '../../../spec/runtime/json-pointer.ts';
import type { EngineDeps } from '../../platform/deps.ts';
import { PATIENTS } from '../../platform/collections.ts';

type S = components['schemas'];
export type Transcript = S['Transcript'];
export type ClientHistory = S['ClientHistory'];
export type NoteExport = S['NoteExport'];
export type NoteDetail = S['NoteDetail'];
export type NoteListItem = S['NoteListItem'];
export type NotePatientContext = S['NotePatientContext'];

/** A note template of the organization (the API has no template endpoint; notes name theirs). */
export interface TemplateRow {
  id: string;
  name: string;
  note_type: string;
  specialty: string | null;
}

/**
 * A recorded session. Ready for regeneration when its transcript is `completed` and it has a note;
 * `regen_runs` numbers its regeneration requests so that a late run never overwrites a newer one.
 */
export interface SessionRow {
  id: string;
  patient_id: string;
  provider_id: string;
  template_id: string;
  transcript: Transcript;
  regen_runs: number;
}

/**
 * A note: the export shape plus what filters need and the API never returns. Every note of the mock has a
 * template, because the note events' `template_id` is a required UUID.
 */
export type NoteRow = NoteExport & { template_id: string; provider_id: string; regenerated_run: number };

/** A note written from a session with a template; what the note comes from fixes the rest. */
export function noteRow(
  session: Pick<SessionRow, 'id' | 'patient_id' | 'provider_id'>,
  template: Pick<TemplateRow, 'id' | 'name' | 'note_type' | 'specialty'>,
  written: Pick<NoteRow, 'id' | 'created_at' | 'updated_at' | 'content'> &
    Partial<Pick<NoteRow, 'problems' | 'procedures' | 'icd10_codes' | 'cpt_codes'>>,
): NoteRow {
  return {
    id: written.id,
    patient_id: session.patient_id,
    session_id: session.id,
    note_type: template.note_type,
    specialty: template.specialty,
    template_id: template.id,
    template_name: template.name,
    created_at: written.created_at,
    updated_at: written.updated_at,
    content: written.content,
    problems: written.problems ?? [],
    procedures: written.procedures ?? [],
    icd10_codes: written.icd10_codes ?? {},
    cpt_codes: written.cpt_codes ?? {},
    provider_id: session.provider_id,
    regenerated_run: 0,
  };
}

/** Clinical history per patient, for the note's patient context. */
export type HistoryRow = ClientHistory & { id: string };

/** A remembered Idempotency-Key: id is `<sessionId>:<key>`. */
export interface IdempotencyRow {
  id: string;
  session_id: string;
  created_at: string;
}

/** A regeneration waiting for its delay, kept so that resume() can re-queue it after a restart. */
export interface RegenerationEntry {
  id: string;
  org: string;
  session_id: string;
  run: number;
  template_id: string;
  model: string;
}

export const ENGINE_ORG = '__engine__';
export const TRANSCRIPT_READY = 'completed';

export const collections = (deps: EngineDeps) => ({
  templates: deps.store.collection<TemplateRow>('templates'),
  sessions: deps.store.collection<SessionRow>('sessions'),
  notes: deps.store.collection<NoteRow>('notes'),
  histories: deps.store.collection<HistoryRow>('client-histories'),
  idempotency: deps.store.collection<IdempotencyRow>('regeneration-keys'),
  regenerations: deps.store.collection<RegenerationEntry>('note-regenerations'),
  patients: deps.store.collection<{ id: string } & Record<string, unknown>>(PATIENTS),
});

const schemas = (loadBundle().components as JsonObject).schemas as JsonObject;
/** A component schema's property names, in the spec's order. */
function fieldsOf(schema: string): string[] {
  return Object.keys(((schemas[schema] as JsonObject | undefined)?.properties as JsonObject | undefined) ?? {});
}

export const FIELDS = {
  listItem: fieldsOf('NoteListItem'),
  detail: fieldsOf('NoteDetail'),
  export: fieldsOf('NoteExport'),
  patientContext: fieldsOf('NotePatientContext'),
  session: fieldsOf('Session'),
  history: fieldsOf('ClientHistory'),
};
/** The embeddable parts of a detail (`include` values): in the detail, not in the export. */
export const EMBEDS = FIELDS.detail.filter((f) => !FIELDS.export.includes(f));
/** What a note edit may change: the body and codes (in the export, not in the list item). */
export const EDITABLE = FIELDS.export.filter((f) => !FIELDS.listItem.includes(f));

export function pick<T>(row: object, fields: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in row && (row as Record<string, unknown>)[f] !== undefined) out[f] = (row as Record<string, unknown>)[f];
  return out as T;
}
