// How documents are kept in the store, and how a stored row becomes the API's Document.
import type { components } from '../../../generated/types.ts';
import { loadBundle } from '../../../spec/runtime/bundle.ts';
import type { JsonObject } from '../../../spec/runtime/json-pointer.ts';
import type { Collection, EngineDeps } from '../../platform/deps.ts';
import type { FileKind } from '../../../spec/runtime/file-types.ts';
import { DOCUMENTS } from '../../platform/collections.ts';

export type Document = components['schemas']['Document'];
export type DocumentStatus = components['schemas']['DocumentStatus'];

/** A stored document: the API object plus what the engine needs and never returns. */
export type DocumentRow = Document & {
  patient_id: string;
  kind: FileKind;
  /** Generation of the latest extraction run; a callback of an older run finds a newer number and stops. */
  run: number;
  /** Why the stored file may not be served: found missing or damaged at start (stored-file.ts). */
  file_problem?: string;
};

/** Extractions that must run (queued or processing), across organizations, so that resume() finds them. */
export type QueueEntry = { id: string; org: string };

const EXTRACTION_QUEUE = 'document-extractions';
/** The queue is engine bookkeeping, kept under one pseudo-organization no API key belongs to. */
export const ENGINE_ORG = '__engine__';

export const documentsOf = (deps: EngineDeps) => deps.store.collection<DocumentRow>(DOCUMENTS);
export const queueOf = (deps: EngineDeps): Collection<QueueEntry> => deps.store.collection<QueueEntry>(EXTRACTION_QUEUE);

const bundle = loadBundle();
const schemas = (bundle.components as JsonObject).schemas as JsonObject;
/** The Document fields, read from the spec so that a field added there is returned without an edit here. */
const documentFields = Object.keys(((schemas.Document as JsonObject).properties as JsonObject) ?? {});

/**
 * Where the mock serves a document's bytes (a control route: the spec has no download endpoint). Computed when a
 * document is shown, because the public address is known only once the server listens.
 */
function publicUrl(deps: EngineDeps, id: string): string | null {
  try {
    return `${new URL(deps.config.publicBaseUrl).origin}/__mock/documents/${id}/file`;
  } catch {
    return null;
  }
}

export function toApi(deps: EngineDeps, row: DocumentRow): Document {
  const out: Record<string, unknown> = {};
  for (const f of documentFields) if (f in row) out[f] = (row as Record<string, unknown>)[f];
  if ('public_url' in out) out.public_url = publicUrl(deps, row.id);
  return out as Document;
}

/** The upload limit, from `x-max-bytes` on DocumentUpload.file. */
export const MAX_UPLOAD_BYTES: number = (() => {
  const file = ((schemas.DocumentUpload as JsonObject).properties as JsonObject).file as JsonObject;
  const max = file['x-max-bytes'];
  if (typeof max !== 'number') throw new Error('spec: DocumentUpload.file lacks x-max-bytes');
  return max;
})();
