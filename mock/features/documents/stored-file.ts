// A document's stored file, never served other than as uploaded. Under --state the files live beside the state file,
// where they can be cut short or removed by hand: at start each is checked (size and SHA-256, BlobStore.verify), and
// a document whose file is missing or damaged is marked failed with the reason, printed once, and its file is no
// longer served or extracted (the file itself is left where it is, for a look).
import type { BlobProblem, EngineDeps } from '../../platform/deps.ts';
import type { Extractor } from './extraction.ts';
import { type DocumentRow, documentsOf } from './rows.ts';

/** The document's bytes as uploaded, or undefined: missing, not its size, or found damaged at start. */
export function storedBytes(deps: EngineDeps, row: DocumentRow): Uint8Array | undefined {
  if (row.file_problem) return undefined;
  const bytes = deps.store.blobs.get(row.id);
  return bytes && bytes.length === row.file_size ? bytes : undefined;
}

/** What the document says of a file found missing or damaged. */
function reasonOf(problem: BlobProblem, row: DocumentRow): string {
  const again = 'checked at start; upload the document again';
  if (problem.kind === 'missing') return `The stored file is missing (${again})`;
  if (problem.kind === 'size') return `The stored file is damaged: ${problem.bytes} of the ${row.file_size} bytes uploaded (${again})`;
  return `The stored file is damaged: its SHA-256 differs from the one written with it (${again})`;
}

/** At start from a --state file: every document's file checked; one that fails is marked failed, and said so. */
export function checkStoredFiles(deps: EngineDeps, extractor: Extractor, warn: (line: string) => void = console.warn): void {
  const docs = documentsOf(deps);
  for (const org of deps.organizations)
    for (const row of docs.all(org)) {
      if (row.file_problem) continue;
      const problem = deps.store.blobs.verify(row.id, row.file_size);
      if (!problem) continue;
      const reason = reasonOf(problem, row);
      extractor.forget(row.id);
      docs.put(org, {
        ...row,
        status: 'failed',
        extracted_date: null,
        extraction_error: reason,
        has_extracted_text: false,
        extracted_text_length: null,
        file_problem: reason,
      });
      warn(`[documents] --state: document ${row.id} ("${row.filename}", patient ${row.patient_id}) is marked failed: ${reason}.`);
    }
}
