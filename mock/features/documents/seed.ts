// The seed's `documents` section: rows with their bytes (base64). Seeded runs do not progress on their own: a seeded
// `pending` or `processing` document is a snapshot, and moves only when the extract endpoint is called.
import type { EngineDeps, SeedFile } from '../../platform/deps.ts';
import { PATIENTS } from '../../platform/collections.ts';
import { describeDetails } from '../../platform/seed-rows.ts';
import { SeedError, seedSection } from '../../seed/check.ts';
import { documentsOf, type DocumentRow, type DocumentStatus } from './rows.ts';
import { MIME, sniffFileKind } from '../../../spec/runtime/file-types.ts';

export interface SeedDocument {
  id: string;
  organization_id: string;
  patient_id: string;
  filename: string;
  external_id?: string | null;
  upload_date: string;
  status: DocumentStatus;
  extracted_date?: string | null;
  extraction_error?: string | null;
  has_extracted_text: boolean;
  extracted_text_length?: number | null;
  content_base64: string;
}

export function loadDocumentSeed(seed: SeedFile, deps: EngineDeps): void {
  const docs = documentsOf(deps);
  const orgs = new Set(seed.organizations.map((o) => o.id));
  const check = deps.validator.schema('Document');
  seedSection<SeedDocument>(seed, 'documents').forEach((d, i) => {
    const fail = (why: string): never => {
      throw new SeedError(`seed: documents[${i}] ${why}`);
    };
    if (!orgs.has(d?.organization_id)) fail('.organization_id must name an organization of the seed');
    if (!deps.store.collection(PATIENTS).get(d.organization_id, d.patient_id))
      fail(`names patient ${d.patient_id}, not a patient of its organization`);
    const bytes = fromBase64(typeof d.content_base64 === 'string' ? d.content_base64 : '') ?? fail('.content_base64 is not base64');
    const kind = sniffFileKind(bytes) ?? fail('.content_base64 is not a PDF, JPEG, PNG or DOCX file');
    deps.store.blobs.put(d.id, bytes);
    const row: DocumentRow = {
      id: d.id,
      filename: d.filename,
      file_type: MIME[kind],
      file_size: bytes.length,
      public_url: null, // computed when shown (toApi)
      upload_date: d.upload_date,
      status: d.status,
      extracted_date: d.extracted_date ?? null,
      extraction_error: d.extraction_error ?? null,
      has_extracted_text: d.has_extracted_text,
      extracted_text_length: d.extracted_text_length ?? null,
      external_id: d.external_id ?? null,
      patient_id: d.patient_id,
      kind,
      run: 0,
    };
    const { patient_id: _p, kind: _k, run: _r, ...shown } = row;
    const checked = check(shown);
    if (!checked.ok) fail(`is not a valid Document: ${describeDetails(checked.details)}`);
    docs.insert(d.organization_id, row);
  });
}

/** Base64 to bytes with web APIs only (atob), so a page seeds alike; undefined when it is not base64. */
function fromBase64(text: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(text.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}
