// Appointments: list (pagination, external_id lookup, date filters), create, get, update/reassign, delete.
// patient_name, provider_name and provider_npi are read-only: derived from the referenced rows when answering.
import type { components } from '../../../generated/types.ts';
import { APPOINTMENTS, PATIENTS, PROVIDERS } from '../../platform/collections.ts';
import { ExternalIdConflict, type EngineContext, type FeatureFactory } from '../../platform/deps.ts';
import { checkReference, listPage, orgOf, pageBody, queryOf, type PageQuery } from '../../platform/http.ts';
import { seedRows } from '../../platform/seed-rows.ts';
import { schemaDefaults, specIndex } from '../../platform/spec.ts';

type Appointment = components['schemas']['Appointment'];
type AppointmentCreate = components['schemas']['AppointmentCreate'];
type AppointmentUpdate = components['schemas']['AppointmentUpdate'];
type Patient = components['schemas']['Patient'];
type Provider = components['schemas']['Provider'];

type Filters = PageQuery & { external_id?: string; date?: string; start_date?: string; end_date?: string };

/** The UTC date (YYYY-MM-DD) of a date-time. */
const dayOf = (iso: string) => new Date(iso).toISOString().slice(0, 10);

export const appointmentsFeature: FeatureFactory = (deps) => ({
  name: 'appointments',
  seed(seed) {
    const coll = deps.store.collection<Appointment>(APPOINTMENTS);
    seedRows<Appointment>(seed, 'appointments', 'Appointment', deps, (org, row) => coll.insert(org, row));
  },
  routes(app) {
    const coll = deps.store.collection<Appointment>(APPOINTMENTS);
    const patients = deps.store.collection<Patient>(PATIENTS);
    const providers = deps.store.collection<Provider>(PROVIDERS);
    const { bundle } = specIndex();
    const createDefaults = schemaDefaults(bundle, 'AppointmentCreate') as Partial<AppointmentCreate>;
    const repeatDefaults = schemaDefaults(bundle, 'RepeatRule') as { interval?: number };
    const notFound = (c: EngineContext) => deps.responses.error(c, 404, 'Appointment not found');

    const view = (org: string, a: Appointment): Appointment => {
      const provider = providers.get(org, a.provider_id);
      return {
        ...a,
        patient_name: patients.get(org, a.patient_id)?.name ?? null,
        provider_name: provider?.name ?? null,
        provider_npi: provider?.npi ?? null,
      };
    };
    const checkPatient = (c: EngineContext, id: string) => checkReference(c, deps, PATIENTS, 'patient_id', id, 'patient');
    const checkProvider = (c: EngineContext, id: string) => checkReference(c, deps, PROVIDERS, 'provider_id', id, 'provider');

    app.get('/appointments', (c) => {
      const q = queryOf<Filters>(c, deps);
      if (q instanceof Response) return q;
      const org = orgOf(c);
      if (q.external_id !== undefined) {
        const hit = coll.findByExternalId(org, q.external_id);
        return hit
          ? c.json(pageBody([view(org, hit)], { page: 1, limit: q.limit }, 1))
          : deps.responses.error(c, 404, 'No appointment with this external_id');
      }
      const { date, start_date, end_date } = q;
      const filter =
        date || start_date || end_date
          ? (a: Appointment) => {
              const d = dayOf(a.start_at);
              return (!date || d === date) && (!start_date || d >= start_date) && (!end_date || d <= end_date);
            }
          : undefined;
      const { rows, total } = listPage(coll, org, q, filter);
      return c.json(
        pageBody(
          rows.map((a) => view(org, a)),
          q,
          total,
        ),
      );
    });

    app.post('/appointments', async (c) => {
      const read = await deps.responses.readJson(c, 'createAppointment');
      if (read instanceof Response) return read;
      const body = { ...createDefaults, ...(read.body as AppointmentCreate) };
      const auth = c.get('auth');
      const providerId = body.provider_id ?? auth.provider_id;
      const refused = checkPatient(c, body.patient_id) ?? checkProvider(c, providerId);
      if (refused) return refused;
      const now = deps.clock.stamp();
      const row: Appointment = {
        id: crypto.randomUUID(),
        patient_id: body.patient_id,
        provider_id: providerId,
        appointment_type: body.appointment_type ?? null,
        visit_type: body.visit_type!,
        start_at: body.start_at,
        duration_minutes: body.duration_minutes,
        notes: body.notes ?? null,
        status: body.status!,
        created_at: now,
        updated_at: now,
        repeat_rule: body.repeat_rule
          ? {
              frequency: body.repeat_rule.frequency,
              interval: body.repeat_rule.interval ?? repeatDefaults.interval ?? 1,
              end_date: body.repeat_rule.end_date ?? null,
            }
          : null,
        external_id: body.external_id ?? null,
      };
      try {
        return c.json({ data: view(auth.organization_id, coll.insert(auth.organization_id, row)) }, 201);
      } catch (e) {
        if (e instanceof ExternalIdConflict) return deps.responses.conflict(c, e.existing);
        throw e;
      }
    });

    app.get('/appointments/:appointmentId', (c) => {
      const org = orgOf(c);
      const a = coll.get(org, c.req.param('appointmentId'));
      return a ? c.json({ data: view(org, a) }) : notFound(c);
    });

    app.patch('/appointments/:appointmentId', async (c) => {
      const org = orgOf(c);
      const read = await deps.responses.readJson(c, 'updateAppointment');
      if (read instanceof Response) return read;
      const old = coll.get(org, c.req.param('appointmentId'));
      if (!old) return notFound(c);
      // external_id is immutable: sent on PATCH it is silently ignored.
      const { external_id: _ignored, ...patch } = read.body as AppointmentUpdate;
      const refused =
        (patch.patient_id !== undefined ? checkPatient(c, patch.patient_id) : undefined) ??
        (patch.provider_id !== undefined ? checkProvider(c, patch.provider_id) : undefined);
      if (refused) return refused;
      const next: Appointment = { ...old, ...patch, updated_at: deps.clock.stamp() };
      return c.json({ data: view(org, coll.put(org, next)) });
    });

    app.delete('/appointments/:appointmentId', (c) =>
      coll.delete(orgOf(c), c.req.param('appointmentId')) ? c.json({ success: true }) : notFound(c),
    );
  },
});
