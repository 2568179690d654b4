// Event payloads exactly as the spec's webhook schemas: identifiers only, never clinical content (source: Events >
// Payload shapes). Fields are emitted in schema order so JSON, XML and Form Data bodies list them alike.
import type { Events, NoteEventKind } from '../../platform/deps.ts';
import { describeErrors, eventsContract, type EventsContract } from './contract.ts';

export type Payload = Record<string, string | null>;
export type NoteInput = Parameters<Events['note']>[2];
export type DocumentInput = Parameters<Events['documentStatusChanged']>[1];

export type Built = { ok: true; event: string; payload: Payload } | { ok: false; event: string; error: string; payload: Payload };

/** When a failed extraction reports no reason; the source says `error` describes the failure. */
const DEFAULT_EXTRACTION_ERROR = 'Text extraction failed';

function base(publicBaseUrl: string): string {
  return publicBaseUrl.replace(/\/+$/, '');
}

/** Orders the fields as the schema lists them and validates; a payload that breaks the spec is never sent. */
function finish(contract: EventsContract, event: string, values: Payload): Built {
  const c = contract.byEvent.get(event);
  if (!c) return { ok: false, event, payload: values, error: `event ${event} is not in the spec's webhooks` };
  const payload: Payload = {};
  for (const f of c.fields) if (f in values) payload[f] = values[f]!;
  for (const f of Object.keys(values)) if (!(f in payload)) payload[f] = values[f]!; // left for the validator to refuse
  if (!c.validate(payload))
    return { ok: false, event, payload, error: `payload does not match ${c.schemaName}: ${describeErrors(c.validate)}` };
  return { ok: true, event, payload };
}

export function notePayload(
  kind: NoteEventKind,
  note: NoteInput,
  source: string | null,
  at: Date,
  publicBaseUrl: string,
  contract: EventsContract = eventsContract(),
): Built {
  return finish(contract, kind, {
    event: kind,
    note_id: note.id,
    session_id: note.session_id,
    patient_id: note.patient_id,
    template_id: note.template_id,
    source,
    note_url: `${base(publicBaseUrl)}/notes/${encodeURIComponent(note.id)}`,
    timestamp: at.toISOString(), // always with milliseconds
  });
}

export function documentPayload(doc: DocumentInput, at: Date, publicBaseUrl: string, contract: EventsContract = eventsContract()): Built {
  const collection = `${base(publicBaseUrl)}/patients/${encodeURIComponent(doc.patient_id)}/documents`;
  return finish(contract, 'DOCUMENT_STATUS_CHANGED', {
    event: 'DOCUMENT_STATUS_CHANGED',
    document_id: doc.id,
    patient_id: doc.patient_id,
    external_id: doc.external_id,
    status: doc.status,
    error: doc.status === 'completed' ? null : (doc.error ?? DEFAULT_EXTRACTION_ERROR),
    document_url: doc.external_id ? `${collection}?external_id=${encodeURIComponent(doc.external_id)}` : collection,
    timestamp: at.toISOString(),
  });
}
