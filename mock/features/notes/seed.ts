// The seed's `templates`, `sessions`, `notes` and `client_histories` sections. Every row names its organization;
// a note takes its patient, provider, type and template name from its session and template, so a hand-written
// seed states each fact once. Problems are SeedErrors naming the row.
import type { EngineDeps, SeedFile } from '../../platform/deps.ts';
import { describeDetails } from '../../platform/seed-rows.ts';
import { SeedError, seedSection } from '../../seed/check.ts';
import { FIELDS, collections, noteRow, pick, type ClientHistory, type TemplateRow, type Transcript } from './rows.ts';
import { toExport } from './views.ts';

export interface SeedTemplate extends TemplateRow {
  organization_id: string;
}
export interface SeedSession {
  organization_id: string;
  id: string;
  patient_id: string;
  provider_id: string;
  template_id: string;
  transcript: Transcript;
}
export interface SeedNote {
  organization_id: string;
  id: string;
  session_id: string;
  /** Defaults to the session's template. */
  template_id?: string;
  created_at: string;
  /** Defaults to created_at. */
  updated_at?: string;
  content: string;
  problems?: string[];
  procedures?: string[];
  icd10_codes?: Record<string, string>;
  cpt_codes?: Record<string, string>;
}
export type SeedClientHistory = ClientHistory & { organization_id: string; patient_id: string };

export function loadNotesSeed(seed: SeedFile, deps: EngineDeps): void {
  const c = collections(deps);
  const orgs = new Set(seed.organizations.map((o) => o.id));
  const orgOf = (section: string, i: number, org: unknown): string => {
    if (typeof org !== 'string' || !orgs.has(org))
      throw new SeedError(`seed: ${section}[${i}].organization_id must name an organization of the seed`);
    return org;
  };
  const fail = (section: string, i: number, why: string): never => {
    throw new SeedError(`seed: ${section}[${i}] ${why}`);
  };

  seedSection<SeedTemplate>(seed, 'templates').forEach((t, i) => {
    const org = orgOf('templates', i, t?.organization_id);
    if (typeof t.id !== 'string' || typeof t.name !== 'string' || typeof t.note_type !== 'string')
      fail('templates', i, 'needs string id, name and note_type');
    c.templates.insert(org, { id: t.id, name: t.name, note_type: t.note_type, specialty: t.specialty ?? null });
  });

  seedSection<SeedClientHistory>(seed, 'client_histories').forEach((h, i) => {
    const org = orgOf('client_histories', i, h?.organization_id);
    if (!c.patients.get(org, h.patient_id)) fail('client_histories', i, `names patient ${h.patient_id}, not a patient of ${org}`);
    const history = pick<ClientHistory>(h, FIELDS.history);
    const checked = deps.validator.schema('ClientHistory')(history);
    if (!checked.ok) fail('client_histories', i, `does not match ClientHistory: ${describeDetails(checked.details)}`);
    c.histories.insert(org, { ...history, id: h.patient_id });
  });

  const checkTranscript = deps.validator.schema('Transcript');
  seedSection<SeedSession>(seed, 'sessions').forEach((s, i) => {
    const org = orgOf('sessions', i, s?.organization_id);
    if (!c.patients.get(org, s.patient_id)) fail('sessions', i, `names patient ${s.patient_id}, not a patient of ${org}`);
    if (!c.templates.get(org, s.template_id)) fail('sessions', i, `names template ${s.template_id}, not a template of ${org}`);
    const checked = checkTranscript(s.transcript);
    if (!checked.ok) fail('sessions', i, `transcript does not match Transcript: ${describeDetails(checked.details)}`);
    c.sessions.insert(org, {
      id: s.id,
      patient_id: s.patient_id,
      provider_id: s.provider_id,
      template_id: s.template_id,
      transcript: s.transcript,
      regen_runs: 0,
    });
  });

  const checkNote = deps.validator.schema('NoteExport');
  seedSection<SeedNote>(seed, 'notes').forEach((n, i) => {
    const org = orgOf('notes', i, n?.organization_id);
    const session = c.sessions.get(org, n.session_id) ?? fail('notes', i, `names session ${n.session_id}, not a session of ${org}`);
    const template = c.templates.get(org, n.template_id ?? session.template_id) ?? fail('notes', i, 'names an unknown template');
    const row = noteRow(session, template, { ...n, updated_at: n.updated_at ?? n.created_at });
    const checked = checkNote(toExport(row));
    if (!checked.ok) fail('notes', i, `does not make a valid note: ${describeDetails(checked.details)}`);
    c.notes.insert(org, row);
  });
}
