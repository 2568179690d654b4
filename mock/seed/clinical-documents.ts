// The seed's documents: every extraction status, with small real PDF, DOCX and PNG bytes whose extracted text length
// is what the documents feature's extraction reports for them.
import type { SeedFile } from '../platform/deps.ts';
import type { SeedDocument } from '../features/documents/seed.ts';
import { normalizeText, simulatedOcr } from '../features/documents/extract-text.ts';
import { makeCorruptPdf, makeDocx, makePdf, makePng } from '../features/documents/sample-files.ts';
import { DAY, HOUR, SEED_DAY, iso, type PatientRow } from './calendar.ts';
import { uuid, type Rng } from './random.ts';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

export function documentsSeed(core: SeedFile, rng: Rng): SeedDocument[] {
  const orgs = core.organizations.map((o) => o.id);
  const patients = (core.patients ?? []) as PatientRow[];
  const patientsOf = (org: string) => patients.filter((p) => p.organization_id === org);
  const [first, second] = orgs;

  const documents: SeedDocument[] = [];
  const addDocument = (org: string, i: number, spec: DocSpec) => {
    const ps = patientsOf(org);
    const uploaded = SEED_DAY - (5 - i) * DAY + 14 * HOUR;
    documents.push({
      organization_id: org,
      id: uuid(rng),
      patient_id: ps[spec.patient % ps.length]!.id,
      filename: spec.filename,
      external_id: spec.external_id ?? null,
      upload_date: iso(uploaded),
      status: spec.status,
      extracted_date: spec.status === 'completed' ? iso(uploaded + 20_000) : null,
      extraction_error: spec.status === 'failed' ? spec.error! : null,
      has_extracted_text: spec.status === 'completed' && (spec.textLength ?? 0) > 0,
      extracted_text_length: spec.status === 'completed' ? (spec.textLength ?? 0) : null,
      content_base64: b64(spec.bytes),
    });
  };
  const referral = [
    'Referral letter',
    'Dear colleague, please see this patient for evaluation of anxiety and sleep.',
    'Kind regards, Dr. Smith',
  ];
  const discharge = [
    'Discharge summary',
    'Admitted for observation; discharged home in stable condition.',
    'Follow up with psychiatry in two weeks.',
  ];
  const labs = ['Laboratory results', 'TSH 2.1 mIU/L (normal). Vitamin D 24 ng/mL (low).'];
  const scan = makePng(8, 8, [240, 240, 235]);
  if (first) {
    const docs: DocSpec[] = [
      {
        patient: 0,
        filename: 'referral-letter.pdf',
        external_id: 'ehr-doc-0001',
        status: 'completed',
        bytes: makePdf(referral),
        textLength: textLength(referral),
      },
      {
        patient: 0,
        filename: 'discharge-summary.docx',
        external_id: 'ehr-doc-0002',
        status: 'completed',
        bytes: makeDocx(discharge),
        textLength: textLength(discharge),
      },
      { patient: 0, filename: 'insurance-card.png', status: 'completed', bytes: scan, textLength: imageTextLength(scan) },
      {
        patient: 1,
        filename: 'scanned-consent.pdf',
        external_id: 'ehr-doc-0004',
        status: 'failed',
        bytes: makeCorruptPdf(),
        error: 'Text extraction failed: Invalid PDF structure.',
      },
      { patient: 1, filename: 'lab-results.pdf', external_id: 'ehr-doc-0005', status: 'processing', bytes: makePdf(labs) },
      {
        patient: 2,
        filename: 'intake-form.pdf',
        external_id: 'ehr-doc-0006',
        status: 'pending',
        bytes: makePdf(['Intake form', 'Reason for visit: trouble concentrating.']),
      },
    ];
    for (const [i, d] of docs.entries()) addDocument(first, i, d);
  }
  if (second) {
    const docs: DocSpec[] = [
      {
        patient: 0,
        filename: 'growth-chart.pdf',
        external_id: 'ehr-doc-0001',
        status: 'completed',
        bytes: makePdf(['Growth chart', 'Height and weight on the 60th percentile.']),
        textLength: textLength(['Growth chart', 'Height and weight on the 60th percentile.']),
      },
      { patient: 1, filename: 'vaccination-record.png', status: 'pending', bytes: makePng(4, 4) },
    ];
    for (const [i, d] of docs.entries()) addDocument(second, i, d);
  }

  return documents;
}

interface DocSpec {
  patient: number;
  filename: string;
  external_id?: string;
  status: SeedDocument['status'];
  bytes: Uint8Array;
  textLength?: number;
  error?: string;
}

/** The length extraction reports for a generated PDF or DOCX: its lines, whitespace-normalised. */
const textLength = (lines: string[]) => normalizeText(lines.join(' ')).length;
const imageTextLength = (bytes: Uint8Array) => {
  const r = simulatedOcr('png', bytes);
  return r.ok ? r.textLength : 0;
};
