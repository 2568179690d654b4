// Stored rows -> the API's note shapes (list item, detail with embeds, export, patient context, session).
import type { EngineDeps } from '../../platform/deps.ts';
import {
  FIELDS,
  collections,
  pick,
  type NoteDetail,
  type NoteExport,
  type NoteListItem,
  type NotePatientContext,
  type NoteRow,
  type SessionRow,
} from './rows.ts';

export const toListItem = (n: NoteRow) => pick<NoteListItem>(n, FIELDS.listItem);
export const toExport = (n: NoteRow) => pick<NoteExport>(n, FIELDS.export);

/** The patient as a note shows it; a patient deleted since keeps only its id (the one required field). */
export function patientContext(deps: EngineDeps, org: string, patientId: string): NotePatientContext {
  const { patients, histories } = collections(deps);
  const patient = patients.get(org, patientId);
  const context = patient
    ? pick<NotePatientContext>(
        patient,
        FIELDS.patientContext.filter((f) => f !== 'client_history'),
      )
    : { id: patientId };
  const history = histories.get(org, patientId);
  return history ? { ...context, client_history: pick(history, FIELDS.history) } : context;
}

export function sessionView(s: SessionRow) {
  return pick<{ id: string; patient_id: string; transcript: SessionRow['transcript'] }>(s, FIELDS.session);
}

/** The detail: body and codes always; `transcript` and `patient` as `include` asks. */
export function toDetail(deps: EngineDeps, org: string, n: NoteRow, include: ReadonlySet<string>): NoteDetail {
  const detail = { ...toExport(n) } as NoteDetail;
  if (include.has('transcript')) {
    const session = collections(deps).sessions.get(org, n.session_id);
    if (session) detail.transcript = session.transcript;
  }
  if (include.has('patient')) detail.patient = patientContext(deps, org, n.patient_id);
  return detail;
}
