// The readings that change how a query is taken: other names for the filters the document names but does not spell,
// a page size served at that server's own maximum, and a format the export requires. The kit's names become unknown
// parameters under query-names-other, which the engine ignores, as it ignores any unknown parameter.
import type { ActiveReadings } from './active.ts';

type Query = Record<string, string | undefined>;

/** query-names-other: per operation, that server's name → the kit's. */
const OTHER_NAMES: Record<string, Record<string, string>> = {
  listPatients: { q: 'search' },
  listAppointments: { on: 'date', from: 'start_date', to: 'end_date' },
  listNotes: {
    patient: 'patient_id',
    session: 'session_id',
    template: 'template_id',
    clinician: 'provider_id',
    type: 'note_type',
    from: 'created_after',
    to: 'created_before',
  },
};

/** limit-clamped: that server's largest page. */
const CLAMPED_LIMIT = 50;

/** The query as the kit's validation must see it to answer what that server answers. */
export function rewriteQuery(r: ActiveReadings, operationId: string, query: Query): Query {
  let out = query;
  const names = OTHER_NAMES[operationId];
  if (r.has('query-names-other') && names) {
    const kit = new Set(Object.values(names));
    out = Object.fromEntries(Object.entries(query).filter(([k]) => !kit.has(k)));
    for (const [theirs, ours] of Object.entries(names)) if (query[theirs] !== undefined) out[ours] = query[theirs];
  }
  if (r.has('limit-clamped') && out.limit !== undefined && /^\d+$/.test(out.limit) && Number(out.limit) > CLAMPED_LIMIT)
    out = { ...out, limit: String(CLAMPED_LIMIT) };
  return out;
}

/** What that server refuses in a query the kit takes: the field errors of a 400, or nothing. */
export function refuseQuery(r: ActiveReadings, operationId: string, query: Query): Record<string, string> | undefined {
  if (r.has('export-other-layout') && operationId === 'exportNotes' && !query.format)
    return { format: 'is required (json, csv or ndjson)' };
  return undefined;
}
