// The readings that change how a JSON request body is taken: what another team's server accepts that the kit refuses
// (rewritten into the kit's terms before the kit validates), and what it refuses that the kit accepts (after the kit's
// validation passed). Each branch names its reading; spec/readings.yaml says what the document allows.
import { APPOINTMENTS } from '../platform/collections.ts';
import type { BodyTarget, FieldErrors, ReadingRefusal, Store } from '../platform/deps.ts';
import type { ActiveReadings } from './active.ts';

type Body = Record<string, unknown>;
const isObj = (v: unknown): v is Body => !!v && typeof v === 'object' && !Array.isArray(v);

type BodyRefusal = ReadingRefusal;

const PATIENT_WRITES = new Set(['createPatient', 'updatePatient']);
const APPOINTMENT_WRITES = new Set(['createAppointment', 'updateAppointment']);
const NAME_FIELDS = ['name', 'first_name', 'last_name'];
const TRIMMED = ['name', 'first_name', 'last_name', 'notes', 'appointment_type'];
/** address-other-fields: that server's address fields, and the kit's field each is stored as. */
export const OTHER_ADDRESS: Record<string, string> = {
  street: 'line1',
  city: 'city',
  state: 'state',
  zip: 'postal_code',
  country: 'country',
};

/** Before the kit validates: the body as the kit would have to receive it to store what that server stores. */
export function rewriteBody(r: ActiveReadings, t: BodyTarget, body: unknown): { body: unknown } | BodyRefusal {
  if (!isObj(body)) return { body };
  const out: Body = { ...body };
  if (r.has('patient-nameless-accepted') && t.operationId === 'createPatient' && !NAME_FIELDS.some((f) => f in out))
    out.name = 'Unnamed patient';
  if (r.has('free-text-trimmed') && (PATIENT_WRITES.has(t.operationId) || APPOINTMENT_WRITES.has(t.operationId)))
    for (const f of TRIMMED) if (typeof out[f] === 'string') out[f] = (out[f] as string).trim();
  if (r.has('address-other-fields') && PATIENT_WRITES.has(t.operationId) && isObj(out.address)) {
    const unknown = Object.keys(out.address).filter((k) => !(k in OTHER_ADDRESS));
    if (unknown.length)
      return refusal(
        Object.fromEntries(unknown.map((k) => [`address.${k}`, `is not an address field (${Object.keys(OTHER_ADDRESS).join(', ')})`])),
      );
    out.address = Object.fromEntries(Object.entries(out.address).map(([k, v]) => [OTHER_ADDRESS[k]!, v]));
  }
  return { body: out };
}

const refusal = (details: FieldErrors): BodyRefusal => ({ status: 400, error: 'Validation failed', details });
const fromChecks = (details: FieldErrors): BodyRefusal | undefined => (Object.keys(details).length ? refusal(details) : undefined);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s().-]+$/;
const GENDERS = new Set(['female', 'male', 'other', 'unknown']);
const FREQUENCIES = new Set(['daily', 'weekly', 'monthly', 'yearly']);
const FINAL = new Set(['COMPLETED', 'CANCELLED', 'NO_SHOW']);
const today = () => new Date().toISOString().slice(0, 10);

function patientChecks(r: ActiveReadings, b: Body): FieldErrors {
  const d: FieldErrors = {};
  if (r.has('contact-forms-checked')) {
    if (typeof b.email === 'string' && !EMAIL.test(b.email)) d.email = 'is not an email address';
    const digits = typeof b.phone === 'string' ? b.phone.replace(/\D/g, '') : '';
    if (typeof b.phone === 'string' && (!PHONE.test(b.phone) || digits.length < 8 || digits.length > 15))
      d.phone = 'is not an E.164 phone number';
    if (typeof b.gender === 'string' && !GENDERS.has(b.gender.toLowerCase())) d.gender = `is not one of ${[...GENDERS].join(', ')}`;
  }
  if (r.has('dob-in-the-past') && typeof b.date_of_birth === 'string' && (b.date_of_birth > today() || b.date_of_birth < '1900-01-01'))
    d.date_of_birth = 'must lie between 1900-01-01 and today';
  return d;
}

function textChecks(r: ActiveReadings, b: Body): FieldErrors {
  const d: FieldErrors = {};
  if (!r.has('free-text-bounded')) return d;
  for (const f of TRIMMED) {
    const max = f === 'notes' ? 2000 : 255;
    if (typeof b[f] === 'string' && (b[f] as string).length > max) d[f] = `is longer than ${max} characters`;
  }
  return d;
}

function appointmentCreateChecks(r: ActiveReadings, b: Body): FieldErrors {
  const d: FieldErrors = {};
  if (r.has('appointment-types-required')) for (const f of ['appointment_type', 'visit_type']) if (!(f in b)) d[f] = 'is required';
  const start = typeof b.start_at === 'string' ? Date.parse(b.start_at) : Number.NaN;
  if (r.has('appointment-in-the-future') && (b.status ?? 'SCHEDULED') === 'SCHEDULED' && start < Date.now())
    d.start_at = 'must lie in the future for a scheduled appointment';
  const rule = b.repeat_rule;
  if (r.has('repeat-rule-checked') && isObj(rule)) {
    if (typeof rule.frequency === 'string' && !FREQUENCIES.has(rule.frequency.toLowerCase()))
      d['repeat_rule.frequency'] = `is not one of ${[...FREQUENCIES].join(', ')}`;
    if (typeof rule.end_date === 'string' && Number.isFinite(start) && Date.parse(`${rule.end_date}T23:59:59Z`) < start)
      d['repeat_rule.end_date'] = 'lies before start_at';
  }
  return d;
}

function appointmentUpdateChecks(r: ActiveReadings, b: Body): FieldErrors {
  const d: FieldErrors = {};
  if (r.has('time-change-together') && 'start_at' in b !== 'duration_minutes' in b)
    d['start_at' in b ? 'duration_minutes' : 'start_at'] =
      'is required when the appointment moves (start_at and duration_minutes together)';
  return d;
}

/** status-transitions-checked: created SCHEDULED only; no change out of a final status. */
function transition(r: ActiveReadings, store: Store, t: BodyTarget, b: Body): BodyRefusal | undefined {
  if (!r.has('status-transitions-checked') || typeof b.status !== 'string') return undefined;
  if (t.operationId === 'createAppointment')
    return b.status === 'SCHEDULED' ? undefined : refusal({ status: `must be SCHEDULED on create, not ${b.status}` });
  const id = t.params.appointmentId ?? '';
  const current = store.collection<{ id: string; status?: string }>(APPOINTMENTS).get(t.org, id)?.status;
  if (current && FINAL.has(current) && b.status !== current)
    return { status: 409, error: `A ${current} appointment cannot become ${b.status}` };
  return undefined;
}

/** After the kit's validation passed: what that server refuses besides. */
export function refuseBody(r: ActiveReadings, store: Store, t: BodyTarget, body: unknown): BodyRefusal | undefined {
  if (!isObj(body)) return undefined;
  const op = t.operationId;
  if (PATIENT_WRITES.has(op)) {
    const d = { ...patientChecks(r, body), ...textChecks(r, body) };
    if (r.has('patch-no-reassign') && op === 'updatePatient' && 'provider_id' in body) d.provider_id = 'cannot be changed';
    return fromChecks(d);
  }
  if (op === 'createAppointment')
    return fromChecks({ ...appointmentCreateChecks(r, body), ...textChecks(r, body) }) ?? transition(r, store, t, body);
  if (op === 'updateAppointment')
    return fromChecks({ ...appointmentUpdateChecks(r, body), ...textChecks(r, body) }) ?? transition(r, store, t, body);
  return undefined;
}
