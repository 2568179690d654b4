// The seed's clinical part: templates, client histories, sessions with transcripts, notes of several types and
// documents in every extraction status (with small real PDF/DOCX/PNG bytes), for both organizations of the core
// seed. Called by generate.ts with the core seed and its random generator, so the output is deterministic.
import type { SeedFile } from '../engine/deps.ts';
import type { SeedDocument } from '../documents/seed.ts';
import { normalizeText, simulatedOcr } from '../documents/extract-text.ts';
import { makeCorruptPdf, makeDocx, makePdf, makePng } from '../documents/sample-files.ts';
import type { SeedClientHistory, SeedNote, SeedSession, SeedTemplate } from '../notes/seed.ts';
import { uuid, type Rng } from './random.ts';

type Row = { id: string; organization_id: string };
type PatientRow = Row & { name?: string | null };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The core seed's base day (2026-11-02): seeded data never depends on today. */
const BASE = Date.UTC(2026, 10, 2);
const iso = (ms: number) => new Date(ms).toISOString();
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

const TEMPLATES: Array<[org: 0 | 1, name: string, noteType: string, specialty: string]> = [
  [0, 'SOAP', 'progress_note', 'Psychiatry'],
  [0, 'DAP', 'therapy_note', 'Clinical Psychology'],
  [0, 'Intake Assessment', 'intake', 'Psychiatry'],
  [1, 'Pediatric Well Visit', 'progress_note', 'Pediatrics'],
  [1, 'SOAP', 'progress_note', 'Family Medicine'],
];

const TOPICS = [
  [
    'Sleep and anxiety follow-up',
    'Patient reports improved sleep since the last visit; anxiety remains moderate at work.',
    { 'F41.1': 'Generalized anxiety disorder' },
    ['Insomnia', 'Work stress'],
    { '99214': 'Office visit, established patient, moderate complexity' },
  ],
  [
    'Mood check-in',
    'Low mood for three weeks; appetite reduced; no safety concerns voiced.',
    { 'F32.1': 'Major depressive disorder, single episode, moderate' },
    ['Low mood'],
    { '90834': 'Psychotherapy, 45 minutes' },
  ],
  [
    'Initial intake',
    'New patient referred by primary care for evaluation of attention difficulties.',
    { 'F90.0': 'ADHD, predominantly inattentive type' },
    ['Attention difficulties'],
    { '90791': 'Psychiatric diagnostic evaluation' },
  ],
  [
    'Medication review',
    'Tolerating sertraline 50 mg; mild nausea in the first week, now resolved.',
    { 'F41.1': 'Generalized anxiety disorder' },
    ['Medication side effects'],
    { '99213': 'Office visit, established patient, low complexity' },
  ],
  [
    'Coping skills session',
    'Practised grounding techniques; patient will keep a thought diary.',
    { 'F43.23': 'Adjustment disorder with mixed anxiety and depressed mood' },
    ['Stress'],
    { '90837': 'Psychotherapy, 60 minutes' },
  ],
  [
    'Well-child visit',
    'Growth on track; vaccinations up to date; parents ask about screen time.',
    { 'Z00.129': 'Routine child health exam without abnormal findings' },
    [],
    { '99392': 'Preventive visit, age 1-4' },
  ],
] as const;

export function clinicalSeed(core: SeedFile, rng: Rng): Record<string, unknown> {
  const orgs = core.organizations.map((o) => o.id);
  const patients = (core.patients ?? []) as PatientRow[];
  const providers = (core.providers ?? []) as Row[];
  const patientsOf = (org: string) => patients.filter((p) => p.organization_id === org);
  const providersOf = (org: string) => providers.filter((p) => p.organization_id === org);

  const templates: SeedTemplate[] = TEMPLATES.filter(([o]) => orgs[o]).map(([o, name, note_type, specialty]) => ({
    organization_id: orgs[o]!,
    id: uuid(rng),
    name,
    note_type,
    specialty,
  }));
  const templatesOf = (org: string) => templates.filter((t) => t.organization_id === org);

  const sessions: SeedSession[] = [];
  const notes: SeedNote[] = [];
  const histories: SeedClientHistory[] = [];

  /** One session; `note` false leaves it without a note; `ready` false leaves its transcript in progress. */
  const addSession = (org: string, i: number, opts: { note?: boolean; ready?: boolean; extraTemplate?: boolean } = {}) => {
    const ps = patientsOf(org);
    const patient = ps[i % ps.length]!;
    const provider = providersOf(org)[i % providersOf(org).length]!;
    const tpls = templatesOf(org);
    const template = tpls[i % tpls.length]!;
    const [title, summary, icd, problems, cpt] = TOPICS[(org === orgs[1] ? 5 : i) % TOPICS.length]!;
    const start = BASE - (10 - i) * DAY + (9 + (i % 6)) * HOUR;
    const ready = opts.ready ?? true;
    const session: SeedSession = {
      organization_id: org,
      id: uuid(rng),
      patient_id: patient.id,
      provider_id: provider.id,
      template_id: template.id,
      transcript: {
        title,
        summary,
        text: `Clinician: How have things been since we last met?\nPatient: ${summary}\nClinician: Let's go over the plan for the coming weeks.`,
        status: ready ? 'completed' : 'in_progress',
        session_date: iso(start).slice(0, 10),
        start_time: iso(start),
        end_time: ready ? iso(start + 50 * 60_000) : null,
      },
    };
    sessions.push(session);
    if (!histories.some((h) => h.patient_id === patient.id))
      histories.push({
        organization_id: org,
        patient_id: patient.id,
        medical_history: i % 2 ? 'Seasonal allergies.' : 'No significant medical history.',
        family_history: 'Mother: hypertension.',
        social_history: 'Lives with partner; works full time.',
        previous_treatment: i % 3 ? null : 'Brief CBT course in 2023.',
      });
    if (opts.note === false) return;
    const created = start + 2 * HOUR;
    const add = (t: SeedTemplate, at: number) =>
      notes.push({
        organization_id: org,
        id: uuid(rng),
        session_id: session.id,
        template_id: t.id,
        created_at: iso(at),
        updated_at: iso(at + (i % 2 ? HOUR : 0)),
        content: `${t.name} note: ${title}.\nS: ${summary}\nO: Alert, oriented, cooperative.\nA: See problems.\nP: Follow up in two weeks.`,
        problems: [...problems],
        procedures: i % 2 ? ['Psychotherapy'] : [],
        icd10_codes: { ...icd },
        cpt_codes: { ...cpt },
      });
    add(template, created);
    if (opts.extraTemplate) add(tpls[(i + 1) % tpls.length]!, created + 30 * 60_000);
  };

  const [first, second] = orgs;
  if (first) {
    for (let i = 0; i < 6; i++) addSession(first, i, { extraTemplate: i === 0 });
    addSession(first, 6, { note: false, ready: false }); // not ready for regeneration (transcript in progress)
    addSession(first, 7, { note: false }); // transcript done, note not yet written: finalize it
  }
  if (second) {
    addSession(second, 0);
    addSession(second, 1);
    addSession(second, 2, { note: false });
  }

  const documents: SeedDocument[] = [];
  const addDocument = (org: string, i: number, spec: DocSpec) => {
    const ps = patientsOf(org);
    const uploaded = BASE - (5 - i) * DAY + 14 * HOUR;
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

  return { templates, client_histories: histories, sessions, notes, documents };
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
