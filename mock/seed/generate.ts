// The deterministic seed generator: same code, same seed file, byte for byte. `tsx mock/seed/generate.ts --write`
// rewrites mock/seed/default.json; the bench calls generateSeed({ patients: 100_000 }).
// Keys are derived from the spec's scopes (x-required-scopes), never listed by hand.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { components } from '../../generated/types.ts';
import type { SeedFile } from '../platform/deps.ts';
import { specIndex } from '../platform/spec.ts';
import { clinicalSeed } from './clinical.ts';
import { createRng, digits, hex, npi, patientId, pick, uuid, type Rng } from './random.ts';

type Row<T> = T & { organization_id: string };
const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Katherine',
  'Linus',
  'Margaret',
  'Edsger',
  'Barbara',
  'Donald',
  'Frances',
  'John',
  'Radia',
  'Ken',
  'Shafi',
  'Tim',
  'Hedy',
  'Dennis',
  'Joan',
  'Niklaus',
  'Sophie',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Johnson',
  'Torvalds',
  'Hamilton',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Backus',
  'Perlman',
  'Thompson',
  'Goldwasser',
  'Berners-Lee',
  'Lamarr',
  'Ritchie',
  'Clarke',
  'Wirth',
  'Wilson',
];
const CITIES: Array<[string, string, string]> = [
  ['Springfield', 'IL', '62701'],
  ['Portland', 'OR', '97201'],
  ['Austin', 'TX', '73301'],
  ['Madison', 'WI', '53703'],
];
const GENDERS = ['female', 'male', 'non-binary', 'unspecified'];
const PRONOUNS = ['she/her', 'he/him', 'they/them', null];
const APPT_TYPES = ['Intake', 'Follow-up', 'Medication review', 'Therapy session'];
const BASE_DAY = Date.UTC(2026, 10, 2); // 2026-11-02, a Monday: seeded data never depends on today
const DAY = 86_400_000;

export interface SeedSize {
  /** Patients of the first organization (default 48: three pages of 20). */
  patients?: number;
}

export async function generateSeed(size: SeedSize = {}): Promise<SeedFile> {
  const rng = createRng();
  const orgs = [
    { id: uuid(rng), name: 'Northwind Behavioral Health' },
    { id: uuid(rng), name: 'Southgate Family Practice' },
  ];
  const providerSpecs: Array<[number, string, string, string, string]> = [
    [0, 'Dr. Maya Okafor', 'MD', 'Psychiatry', 'admin'],
    [0, 'Dr. Tomas Lindqvist', 'PhD', 'Clinical Psychology', 'clinician'],
    [0, 'Priya Raman', 'LCSW', 'Social Work', 'clinician'],
    [0, 'Dr. Ellen Achebe', 'DO', 'Family Medicine', 'clinician'],
    [1, 'Dr. Rafael Moreno', 'MD', 'Pediatrics', 'admin'],
    [1, 'Jun Park', 'NP', 'Family Medicine', 'clinician'],
  ];
  const providers: Row<components['schemas']['Provider']>[] = providerSpecs.map(([o, name, title, specialty, role], i) => ({
    organization_id: orgs[o]!.id,
    id: uuid(rng),
    name,
    email: `${name
      .replace(/^Dr\. /, '')
      .toLowerCase()
      .replace(/[^a-z]+/g, '.')}@${o === 0 ? 'northwind' : 'southgate'}.example.org`,
    npi: npi(rng),
    title,
    specialty,
    role,
    joined_at: new Date(BASE_DAY - (400 + i * 37) * DAY + 9 * 3600_000).toISOString(),
  }));
  const providersOf = (org: string) => providers.filter((p) => p.organization_id === org);

  const patients: Row<components['schemas']['Patient']>[] = [];
  const makePatient = (org: string, i: number) => {
    const first = FIRST[i % FIRST.length]!;
    const last = LAST[(i * 7 + Math.floor(i / FIRST.length)) % LAST.length]!;
    const [city, state, zip] = pick(rng, CITIES);
    const dob = new Date(Date.UTC(1940 + Math.floor(rng() * 65), Math.floor(rng() * 12), 1 + Math.floor(rng() * 28)))
      .toISOString()
      .slice(0, 10);
    patients.push({
      organization_id: org,
      id: patientId(rng),
      name: `${first} ${last}`,
      first_name: first,
      last_name: last,
      date_of_birth: dob,
      gender: pick(rng, GENDERS),
      phone: `+1-555-${digits(rng, 4)}`,
      email: `${first}.${last}.${i}@example.org`.toLowerCase(),
      address: {
        line1: `${1 + Math.floor(rng() * 999)} ${pick(rng, ['Oak', 'Elm', 'Pine', 'Cedar'])} St`,
        city,
        state,
        postal_code: zip,
        country: 'US',
      },
      // Every third patient has no MRN.
      mrn: i % 3 === 2 ? null : `MRN-${String(i + 1).padStart(5, '0')}`,
      created_at: new Date(BASE_DAY - (size.patients ?? 48) * 60_000 + i * 60_000).toISOString(),
      pronouns: pick(rng, PRONOUNS),
      notes: i % 4 === 0 ? 'Prefers morning appointments.' : null,
      consent: i % 5 !== 4,
      external_id: i % 2 === 0 ? `ehr-patient-${String(i + 1).padStart(4, '0')}` : null,
      provider_id: pick(rng, providersOf(org)).id,
    });
  };
  for (let i = 0; i < (size.patients ?? 48); i++) makePatient(orgs[0]!.id, i);
  for (let i = 0; i < 6; i++) makePatient(orgs[1]!.id, i);

  const statuses = ['SCHEDULED', 'COMPLETED', 'CANCELLED', 'NO_SHOW'] as const;
  const visitTypes = ['Telehealth', 'In-Person', 'Both', 'Other'] as const;
  const appointments: Row<components['schemas']['Appointment']>[] = [];
  const makeAppointment = (org: string, i: number) => {
    const ps = patients.filter((p) => p.organization_id === org);
    const day = BASE_DAY + (i % 5) * DAY; // five dates: 2026-11-02 .. 2026-11-06
    const start = new Date(day + (9 + (i % 8)) * 3600_000).toISOString();
    appointments.push({
      organization_id: org,
      id: uuid(rng),
      patient_id: ps[i % ps.length]!.id,
      provider_id: providersOf(org)[i % providersOf(org).length]!.id,
      appointment_type: APPT_TYPES[i % APPT_TYPES.length]!,
      visit_type: visitTypes[i % visitTypes.length]!,
      start_at: start,
      duration_minutes: [30, 45, 60][i % 3]!,
      notes: i % 3 === 0 ? 'Bring current medication list.' : null,
      status: statuses[Math.floor(i / 5) % statuses.length]!,
      created_at: new Date(BASE_DAY - 7 * DAY).toISOString(),
      updated_at: new Date(BASE_DAY - 7 * DAY).toISOString(),
      repeat_rule: i % 6 === 0 ? { frequency: 'weekly', interval: 1, end_date: '2027-01-31' } : null,
      external_id: i % 2 === 0 ? `ehr-appt-${String(i + 1).padStart(4, '0')}` : null,
    });
  };
  for (let i = 0; i < 24; i++) makeAppointment(orgs[0]!.id, i);
  for (let i = 0; i < 4; i++) makeAppointment(orgs[1]!.id, i);

  const core: SeedFile = { organizations: orgs, keys: makeKeys(rng, orgs, providers), providers, patients, appointments };
  const seed: SeedFile = { ...core, ...(await clinicalSeed(core, rng)) };
  for (const [name, rows] of Object.entries(seed))
    if (name !== 'organizations' && name !== 'keys' && Array.isArray(rows)) seed[name] = rows.map(organizationLast);
  return seed;
}

/** A row's `organization_id` written last: the loader then drops it in place instead of copying the row (memory). */
function organizationLast<T extends { organization_id?: unknown }>(row: T): T {
  const { organization_id, ...rest } = row;
  return { ...rest, organization_id } as T;
}

/**
 * First organization: `*`, every `:read` scope, one key per single scope, one expired, one revoked.
 * Second organization: one `*` key.
 */
function makeKeys(rng: Rng, orgs: Array<{ id: string }>, providers: Array<{ id: string; organization_id: string }>): SeedFile['keys'] {
  const scopes = specIndex().scopes;
  const [a, b] = orgs as [{ id: string }, { id: string }];
  const owner = (org: string) => providers.find((p) => p.organization_id === org)!.id;
  const key = (label: string) => `crk_${label.replace(/[^a-z0-9]+/gi, '_')}_${hex(rng, 24)}`;
  const k = (org: string, label: string, s: string[], state: 'active' | 'expired' | 'revoked' = 'active') => ({
    key: key(label),
    organization_id: org,
    provider_id: owner(org),
    scopes: s,
    state,
    label,
  });
  return [
    k(a.id, 'all', ['*']),
    k(
      a.id,
      'read',
      scopes.filter((s) => s.endsWith(':read')),
    ),
    ...scopes.map((s) => k(a.id, s, [s])),
    k(a.id, 'expired', ['*'], 'expired'),
    k(a.id, 'revoked', ['*'], 'revoked'),
    k(b.id, 'org2_all', ['*']),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const seed = await generateSeed();
  const out = new URL('./default.json', import.meta.url);
  const text = `${JSON.stringify(seed, null, 2)}\n`;
  if (process.argv.includes('--write')) writeFileSync(out, text);
  else process.stdout.write(text);
}
