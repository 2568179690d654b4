// The document upload judged on its recorded form (multipart.ts, or HAR's params): the types and size the document
// accepts (DOC-010, DOC-011) and refuses (LIM-001), and its form fields external_id (XID-012, LIM-002) and patient_id
// (XID-013). A form, a file's size or first bytes the recorder did not keep is not judged.
import type { Contract, Operation } from '../spec/runtime/contract.ts';
import type { JsonObject } from '../spec/runtime/json-pointer.ts';
import type { Finding, InspectEnv, InspectedExchange, ResponseCheckDef } from './define.ts';
import { responseCheck } from './define.ts';

/** The file extensions of the document's type names (PDF, JPEG, PNG, DOCX), by their media types. */
const EXTENSIONS: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
/** Part types that say nothing of the file's kind. */
const GENERIC_TYPES = ['', 'application/octet-stream'];

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const ok = (ex: InspectedExchange) => ex.response.status >= 200 && ex.response.status <= 299;

/** The upload's documented terms (accepted media types, the readings of its size limit), when the operation is one. */
function terms(op: Operation, contract: Contract): { types: string[]; readings: number[] } | undefined {
  const content = contract.resolve(`${op.pointer}/requestBody/content/multipart~1form-data`) as JsonObject | undefined;
  if (!content) return undefined;
  const encoding = (content.encoding as JsonObject | undefined)?.file as JsonObject | undefined;
  const schema = contract.deref(content.schema as JsonObject) as JsonObject | undefined;
  const file = (schema?.properties as JsonObject | undefined)?.file as JsonObject | undefined;
  const types = String(encoding?.contentType ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  const readings = ((file?.['x-max-bytes-readings'] as number[] | undefined) ?? []).slice().sort((a, b) => a - b);
  return { types, readings };
}

/**
 * The first bytes of each type's files (as a body kept as text shows them: a byte no text holds is U+FFFD). A file is
 * what its bytes are, whatever its part says: a type is judged only where its first bytes were kept.
 */
const SIGNATURES: Record<string, string[]> = {
  'application/pdf': ['%PDF-'],
  'image/png': ['\x89PNG\r\n', '\uFFFDPNG\r\n'],
  'image/jpeg': ['\xFF\xD8\xFF', '\uFFFD\uFFFD'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['PK\x03\x04'],
};
const startsAs = (head: string, type: string) => (SIGNATURES[type] ?? []).some((sig) => head.startsWith(sig));

/** Is the file one of the accepted types: true, false, or undefined when its label or its bytes leave it open. */
function accepted(file: { name: string; type: string; head?: string }, types: string[]): boolean | undefined {
  if (file.head === undefined) return undefined;
  const byName = EXTENSIONS[/\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? ''];
  const type = file.type.split(';')[0]!.trim();
  const labelled = types.includes(type) ? type : GENERIC_TYPES.includes(type) && byName && types.includes(byName) ? byName : undefined;
  const isOne = types.some((t) => startsAs(file.head!, t));
  // Labelled one of the types and its bytes that type's; labelled another type (name and part) and its bytes none.
  if (labelled) return startsAs(file.head, labelled) ? true : undefined;
  return !isOne && !GENERIC_TYPES.includes(type) && !(byName && types.includes(byName)) ? false : undefined;
}

const upload = (ex: InspectedExchange, contract: Contract) => {
  const form = ex.request.form;
  const t = form && terms(ex.operation, contract);
  return t && form ? { form, ...t } : undefined;
};

/** DOC-010: a file of an accepted type refused 415 (its type). */
function accepted_type_refused(ex: InspectedExchange, { contract }: InspectEnv): Finding | undefined {
  const u = upload(ex, contract);
  if (!u?.form.file || ex.response.status !== 415 || accepted(u.form.file, u.types) !== true) return;
  const { name, type } = u.form.file;
  return {
    expected: `${u.types.join(', ')} accepted`,
    actual: `415 to ${JSON.stringify(name)} (${type || 'no part type'})`,
    where: 'response.status',
  };
}

/** DOC-011: a file within 10 MB under either reading (the smaller) refused 413. */
function accepted_size_refused(ex: InspectedExchange, { contract }: InspectEnv): Finding | undefined {
  const u = upload(ex, contract);
  const bytes = u?.form.file?.bytes;
  if (!u || bytes === undefined || !u.readings.length || ex.response.status !== 413 || bytes > u.readings[0]!) return;
  return { expected: `files up to ${u.readings[0]} bytes accepted`, actual: `413 to a file of ${bytes} bytes`, where: 'response.status' };
}

/** LIM-001: a file past 10 MB under either reading (the larger), or of another type, answered 2xx. */
function upload_limit_accepted(ex: InspectedExchange, { contract }: InspectEnv): Finding | undefined {
  const u = upload(ex, contract);
  const file = u?.form.file;
  if (!u || !file || !ok(ex)) return;
  const max = u.readings.at(-1);
  if (max !== undefined && file.bytes !== undefined && file.bytes > max)
    return {
      expected: `a file past ${max} bytes refused`,
      actual: `${ex.response.status} to ${file.bytes} bytes`,
      where: 'response.status',
    };
  if (accepted(file, u.types) === false)
    return {
      expected: `a file other than ${u.types.join(', ')} refused`,
      actual: `${ex.response.status} to ${JSON.stringify(file.name)} (${file.type})`,
      where: 'response.status',
    };
  return undefined;
}

/** XID-012: the upload's external_id form field is the document's external_id (the answer does not show another). */
function form_external_id_kept(ex: InspectedExchange, { contract }: InspectEnv): Finding | undefined {
  const sent = upload(ex, contract)?.form.fields.external_id;
  const data = isObj(ex.response.json) ? ex.response.json.data : undefined;
  if (sent === undefined || !ok(ex) || !isObj(data) || !('external_id' in data) || data.external_id === sent) return;
  return {
    expected: `data.external_id ${JSON.stringify(sent)} (the form field)`,
    actual: JSON.stringify(data.external_id),
    where: 'response.body/data/external_id',
  };
}

/** LIM-002 on the upload: an external_id form field outside 1 to 255 characters answered 2xx. */
function form_external_id_bounds(ex: InspectedExchange, { contract }: InspectEnv): Finding | undefined {
  const sent = upload(ex, contract)?.form.fields.external_id;
  if (sent === undefined || !ok(ex) || (sent.length >= 1 && sent.length <= 255)) return;
  return {
    expected: '400 for an external_id outside 1 to 255 characters',
    actual: `${ex.response.status} to ${sent.length} characters`,
    where: 'response.status',
  };
}

/** XID-013: the form may carry patient_id alongside file: the path's own patient id refused 400 for it. */
function form_patient_id_refused(ex: InspectedExchange, { contract }: InspectEnv): Finding | undefined {
  const sent = upload(ex, contract)?.form.fields.patient_id;
  const inPath = /\/patients\/([^/?]+)\/documents/.exec(ex.request.path)?.[1];
  if (sent === undefined || !inPath || ex.response.status !== 400 || !/patient_id/.test(ex.response.text)) return;
  // Another patient's id is the kit's reading (XID-015): not judged under the documented rule.
  if (sent.trim() !== decodeURIComponent(inPath) && !(/^\d+$/.test(sent) && /^\d+$/.test(inPath) && BigInt(sent) === BigInt(inPath)))
    return;
  return {
    expected: 'patient_id (the path’s) accepted alongside file',
    actual: `400 naming patient_id: ${ex.response.text.slice(0, 200)}`,
    where: 'response.status',
  };
}

export const uploadChecks: ResponseCheckDef[] = [
  responseCheck(accepted_type_refused, { rule: 'DOC-010', reads: ['request.body'] }),
  responseCheck(accepted_size_refused, { rule: 'DOC-011', reads: ['request.body'] }),
  responseCheck(upload_limit_accepted, { rule: 'LIM-001', reads: ['request.body'] }),
  responseCheck(form_external_id_kept, { rule: 'XID-012', reads: ['request.body', 'response.body'] }),
  responseCheck(form_external_id_bounds, { rule: 'LIM-002', reads: ['request.body'] }),
  responseCheck(form_patient_id_refused, { rule: 'XID-013', reads: ['request.body', 'response.body'] }),
];
