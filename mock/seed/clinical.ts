// The seed's clinical part: templates, client histories, sessions with transcripts and notes of several types, then
// the documents (clinical-documents.ts), for both organizations of the core seed. Called by generate.ts with the core
// seed and its random generator, so the output is deterministic.
import type { SeedFile } from '../platform/deps.ts';
import type { SeedClientHistory, SeedNote, SeedSession, SeedTemplate } from '../features/notes/seed.ts';
import { DAY, HOUR, SEED_DAY, iso, type PatientRow, type Row } from './calendar.ts';
import { documentsSeed } from './clinical-documents.ts';
import { uuid, type Rng } from './random.ts';

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
    const start = SEED_DAY - (10 - i) * DAY + (9 + (i % 6)) * HOUR;
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

  // Documents draw from the generator after the notes, as they always have: the default seed stays byte for byte.
  return { templates, client_histories: histories, sessions, notes, documents: documentsSeed(core, rng) };
}
