// Documents: list (with external_id lookup), multipart upload, extract, delete, and the extraction state machine.
import type { Hono } from 'hono';
import { PATIENTS } from '../../platform/collections.ts';
import { ExternalIdConflict, type EngineApp, type EngineContext, type EngineDeps, type Feature } from '../../platform/deps.ts';
import { orgOf, queryOf } from '../../platform/http.ts';
import { contentDisposition } from './disposition.ts';
import { faultScope } from '../../platform/faults.ts';
import { createExtractor, type Extractor } from './extraction.ts';
import { MAX_UPLOAD_BYTES, documentsOf, toApi as toApiWith, type DocumentRow } from './rows.ts';
import { loadDocumentSeed } from './seed.ts';
import { MIME, sniffFileKind } from '../../../spec/runtime/file-types.ts';
import type { DocumentsIO, UploadReader } from './io.ts';
import { answerError } from '../../platform/responses.ts';
import { MESSAGES } from './messages.ts';
import { checkStoredFiles, storedBytes } from './stored-file.ts';

/**
 * Does the run this request starts fail by a scoped extraction-fails fault? Taken now, while the request (and its
 * X-Mock-Fault-Scope) is known; an unscoped fault is still taken when the run is picked up.
 */
const doomed = (c: EngineContext, deps: EngineDeps) => {
  const scope = faultScope(c);
  return scope !== undefined && deps.faults.takeScoped('extraction-fails', scope);
};

/** Path ids checked against the spec, then the patient looked up in the caller's organization. */
function resolvePatient(c: EngineContext, deps: EngineDeps, operationId: string): { patientId: string; documentId?: string } | Response {
  const checked = deps.validator.params(operationId, c.req.param() as Record<string, string>);
  if (!checked.ok) return deps.responses.validation(c, checked.details);
  const { patientId, documentId } = checked.value as { patientId: string; documentId?: string };
  if (!deps.store.collection(PATIENTS).get(orgOf(c), patientId)) return deps.responses.error(c, 404, 'Patient not found');
  return { patientId, ...(documentId ? { documentId } : {}) };
}

function findDocument(c: EngineContext, deps: EngineDeps, patientId: string, documentId: string | undefined): DocumentRow | undefined {
  const row = documentId ? documentsOf(deps).get(orgOf(c), documentId) : undefined;
  return row && row.patient_id === patientId ? row : undefined;
}

function routes(app: EngineApp, deps: EngineDeps, extractor: Extractor, readUpload: UploadReader) {
  const docs = documentsOf(deps);
  const toApi = (row: DocumentRow) => toApiWith(deps, row);
  const base = '/patients/:patientId/documents';

  app.get(base, (c) => {
    const target = resolvePatient(c, deps, 'listDocuments');
    if (target instanceof Response) return target;
    const query = queryOf<{ external_id?: string }>(c, deps);
    if (query instanceof Response) return query;
    const externalId = query.external_id;
    const org = orgOf(c);
    if (externalId !== undefined) {
      const hit = docs.findByExternalId(org, externalId);
      if (!hit || hit.patient_id !== target.patientId) return deps.responses.error(c, 404, 'Document not found');
      return c.json({ data: [toApi(hit)] });
    }
    const mine = docs.all(org).filter((d) => d.patient_id === target.patientId);
    return c.json({ data: (deps.readings.has('newest-first') ? mine.reverse() : mine).map(toApi) });
  });

  app.post(base, async (c) => {
    const target = resolvePatient(c, deps, 'uploadDocument');
    if (target instanceof Response) return target;
    // ten-mib: "10 MB" read as 10 MiB, the other reading of the document's limit.
    const parsed = await readUpload(c.req.raw, deps.readings.has('ten-mib') ? 10 * 1024 * 1024 : MAX_UPLOAD_BYTES);
    if (!parsed.ok)
      return parsed.status === 400
        ? deps.responses.validation(c, parsed.details, parsed.message)
        : deps.responses.error(c, parsed.status, parsed.message);
    const { file, fields } = parsed;
    // The form's shape for the request journal, refused or not ("copy as curl" and the HAR; the bytes are not kept).
    c.set('form', { fields, ...(file ? { file: { filename: file.filename, bytes: file.bytes.length } } : {}) });
    // Form fields are checked against the spec's DocumentUpload schema (the file stands in as a placeholder).
    const checked = deps.validator.schema('DocumentUpload')({ ...fields, ...(file ? { file: '' } : {}) });
    if (!checked.ok) return deps.responses.validation(c, checked.details);
    if (!file) return deps.responses.validation(c, { file: 'is required' });
    if (fields.patient_id !== undefined && fields.patient_id !== target.patientId)
      return deps.responses.validation(c, { patient_id: 'must equal the patient id in the path' });
    if (file.bytes.length === 0) return deps.responses.validation(c, { file: 'is empty' });
    const kind = sniffFileKind(file.bytes);
    if (!kind) return deps.responses.error(c, 415, 'Unsupported file type: expected a PDF, JPEG, PNG or DOCX file');

    const org = orgOf(c);
    const id = crypto.randomUUID();
    const row: DocumentRow = {
      id,
      filename: file.filename,
      file_type: MIME[kind],
      file_size: file.bytes.length,
      public_url: null, // computed when shown (toApi)
      upload_date: deps.clock.stamp(),
      status: 'pending',
      extracted_date: null,
      extraction_error: null,
      has_extracted_text: false,
      extracted_text_length: null,
      external_id: fields.external_id ?? null,
      patient_id: target.patientId,
      kind,
      run: 0,
    };
    // Bytes first: a row never points at a file that is not stored.
    deps.store.blobs.put(id, file.bytes);
    try {
      docs.insert(org, row);
    } catch (err) {
      deps.store.blobs.delete(id);
      if (err instanceof ExternalIdConflict) return deps.responses.conflict(c, err.existing);
      throw err;
    }
    if (deps.faults.take('extraction-not-queued', faultScope(c))) return c.json({ data: toApi(row), message: MESSAGES.uploaded }, 201);
    const started = extractor.start(org, row, doomed(c, deps));
    return c.json({ data: toApi(started), message: MESSAGES.uploadedQueued }, 201);
  });

  app.post(`${base}/:documentId/extract`, (c) => {
    const target = resolvePatient(c, deps, 'extractDocument');
    if (target instanceof Response) return target;
    const row = findDocument(c, deps, target.patientId, target.documentId);
    if (!row) return deps.responses.error(c, 404, 'Document not found');
    const cannot = (details: string) =>
      answerError(
        c,
        { data: toApi(row), success: false, message: MESSAGES.extractNotStarted, error: 'Extraction could not be started', details },
        503,
      );
    if (!storedBytes(deps, row)) return cannot(row.file_problem ?? 'The stored file is unavailable.');
    if (deps.faults.take('extraction-not-queued', faultScope(c)))
      return cannot('The extraction queue is unavailable (simulated fault extraction-not-queued).');
    const started = extractor.start(orgOf(c), row, doomed(c, deps));
    return c.json({ data: toApi(started), success: true, message: MESSAGES.extractStarted }, 200);
  });

  app.delete(`${base}/:documentId`, (c) => {
    const target = resolvePatient(c, deps, 'deleteDocument');
    if (target instanceof Response) return target;
    const row = findDocument(c, deps, target.patientId, target.documentId);
    if (!row) return deps.responses.error(c, 404, 'Document not found');
    extractor.forget(row.id);
    docs.delete(orgOf(c), row.id);
    deps.store.blobs.delete(row.id);
    return c.json({ success: true as const }, 200);
  });
}

function control(app: Hono, deps: EngineDeps) {
  // Every document of every organization with its extraction status (the dashboard; the API lists per patient only).
  app.get('/documents', (c) => {
    const org = c.req.query('organization_id');
    if (org !== undefined && !deps.organizations.includes(org))
      return c.json({ error: 'Validation failed', details: { organization_id: 'is not a seeded organization' } }, 400);
    const data = (org ? [org] : deps.organizations).flatMap((o) =>
      documentsOf(deps)
        .all(o)
        .map((row) => ({ organization_id: o, patient_id: row.patient_id, ...toApiWith(deps, row) })),
    );
    return c.json({ data });
  });
  // The document's bytes, so that public_url points somewhere real in the mock.
  app.get('/documents/:documentId/file', (c) => {
    const id = c.req.param('documentId');
    const org = documentsOf(deps).orgOf(id);
    const row = org ? documentsOf(deps).get(org, id) : undefined;
    if (!row) return c.json({ error: 'Document not found' }, 404);
    // Listed, but its file is not what was uploaded: said so, never served short.
    const bytes = storedBytes(deps, row);
    if (!bytes) return c.json({ error: row.file_problem ?? 'The stored file is missing or damaged; upload the document again' }, 410);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': row.file_type,
      'Content-Disposition': contentDisposition(row.filename),
    });
  });
}

/** The feature, with the extractor it owns (one per engine: tests build many engines in one process). */
export type DocumentsFeature = Feature & { extractor: Extractor };

/** The feature's factory for a runtime's upload reader and text extractor (mock/runtime/). */
export const documentsFeature =
  (io: DocumentsIO) =>
  (deps: EngineDeps): DocumentsFeature => {
    const extractor = createExtractor(deps, io.extractText);
    return {
      name: 'documents',
      extractor,
      routes: (app) => routes(app, deps, extractor, io.readUpload),
      control: (app) => control(app, deps),
      seed: (seed) => loadDocumentSeed(seed, deps),
      resume: () => {
        checkStoredFiles(deps, extractor);
        extractor.resume();
      },
    };
  };
