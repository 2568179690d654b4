// Patients: list (pagination, external_id lookup, free-text search), create, get, update, delete.
import type { components } from '../../../generated/types.ts';
import { PATIENTS, PROVIDERS } from '../../platform/collections.ts';
import { DuplicateId, ExternalIdConflict, type EngineContext, type EngineDeps, type FeatureFactory } from '../../platform/deps.ts';
import { checkReference, dataJson, jsonText, listPage, orgOf, pageBody, pageJson, queryOf, type PageQuery } from '../../platform/http.ts';
import { createJsonCache } from '../../platform/json-cache.ts';
import { seedRows } from '../../platform/seed-rows.ts';

type Patient = components['schemas']['Patient'];
type PatientUpdate = components['schemas']['PatientUpdate'];
// openapi-typescript widens PatientCreate's "one of the names is required" anyOf to `unknown`; its fields are
// PatientUpdate's (the validator has already enforced the anyOf).
type PatientCreate = PatientUpdate;

/** List items leave out pronouns, notes and consent. */
function listItem(p: Patient): components['schemas']['PatientListItem'] {
  const { pronouns: _p, notes: _n, consent: _c, ...item } = p;
  return item;
}

/** The display name: as given, else first and/or last name. */
function displayName(name: string | undefined, first?: string | null, last?: string | null): string {
  return name ?? [first, last].filter(Boolean).join(' ');
}

/** An empty mrn means "none", stored as null. */
const mrnOf = (m: string | null | undefined) => (m ? m : null);

const SEARCHED = ['name', 'first_name', 'last_name', 'mrn', 'email', 'date_of_birth'] as const;

/**
 * Random 64-bit values drawn from a pool refilled 512 ids at a time: one draw per create made a getrandom call per
 * request, the largest single cost of a POST (randomUUID pools the same way). Web Crypto, so it runs in a page too.
 */
const idPool = new BigUint64Array(512);
let idPoolAt = idPool.length;

/** A patient id: a 19-digit string (very large integer), never starting with 0. */
export function newPatientId(): string {
  if (idPoolAt === idPool.length) crypto.getRandomValues(idPool), (idPoolAt = 0);
  const n = idPool[idPoolAt++]! % 9_000_000_000_000_000_000n;
  return String(1_000_000_000_000_000_000n + n);
}

/** 400 when provider_id is not a provider of the organization. */
const checkProvider = (c: EngineContext, deps: EngineDeps, providerId: string) =>
  checkReference(c, deps, PROVIDERS, 'provider_id', providerId, 'provider');

export const patientsFeature: FeatureFactory = (deps) => ({
  name: 'patients',
  seed(seed) {
    const coll = deps.store.collection<Patient>(PATIENTS);
    seedRows<Patient>(seed, 'patients', 'Patient', deps, (org, row) => coll.insert(org, row));
  },
  routes(app) {
    const coll = deps.store.collection<Patient>(PATIENTS);
    const notFound = (c: EngineContext) => deps.responses.error(c, 404, 'Patient not found');
    // Each row read is serialized once as a list item and once whole (GET by id). The answer to a create or update is
    // serialized for that answer alone: caching every new row kept its text alive for nothing until a read came.
    const items = createJsonCache<Patient>((p) => JSON.stringify(listItem(p)));
    const whole = createJsonCache<Patient>();

    app.get('/patients', (c) => {
      const q = queryOf<PageQuery & { external_id?: string; search?: string }>(c, deps);
      if (q instanceof Response) return q;
      const org = orgOf(c);
      if (q.external_id !== undefined) {
        const hit = coll.findByExternalId(org, q.external_id);
        return hit
          ? c.json(pageBody([listItem(hit)], { page: 1, limit: q.limit }, 1))
          : deps.responses.error(c, 404, 'No patient with this external_id');
      }
      const needle = q.search?.toLowerCase();
      const filter = needle ? (p: Patient) => SEARCHED.some((f) => p[f]?.toLowerCase().includes(needle)) : undefined;
      const { rows, total } = listPage(coll, org, q, filter);
      return jsonText(
        c,
        pageJson(
          rows.map((p) => items.json(p)),
          q,
          total,
        ),
      );
    });

    app.post('/patients', async (c) => {
      const read = await deps.responses.readJson(c, 'createPatient');
      if (read instanceof Response) return read;
      const body = read.body as PatientCreate;
      const auth = c.get('auth');
      const providerId = body.provider_id ?? auth.provider_id;
      const refused = checkProvider(c, deps, providerId);
      if (refused) return refused;
      const row: Patient = {
        id: newPatientId(),
        name: displayName(body.name, body.first_name, body.last_name),
        first_name: body.first_name ?? null,
        last_name: body.last_name ?? null,
        date_of_birth: body.date_of_birth ?? null,
        gender: body.gender ?? null,
        phone: body.phone ?? null,
        email: body.email ?? null,
        address: body.address ?? null,
        mrn: mrnOf(body.mrn),
        created_at: deps.clock.stamp(),
        pronouns: null,
        notes: null,
        // The create body has no consent field: a patient created through the API has not consented.
        consent: false,
        external_id: body.external_id ?? null,
        provider_id: providerId,
      };
      // insert checks the id is new (one look-up in each organization's rows); drawn twice (1 in 10^13 with a million
      // rows), another is drawn, a few times at most: more would be a broken random source, a bug (500).
      for (let draws = 1; ; draws++)
        try {
          return jsonText(c, dataJson(JSON.stringify(coll.insert(auth.organization_id, row))), 201);
        } catch (e) {
          if (e instanceof ExternalIdConflict) return deps.responses.conflict(c, e.existing);
          if (!(e instanceof DuplicateId) || draws === 3) throw e;
          row.id = newPatientId();
        }
    });

    app.get('/patients/:patientId', (c) => {
      const p = coll.get(orgOf(c), c.req.param('patientId'));
      return p ? jsonText(c, dataJson(whole.json(p))) : notFound(c);
    });

    app.patch('/patients/:patientId', async (c) => {
      const org = orgOf(c);
      const read = await deps.responses.readJson(c, 'updatePatient');
      if (read instanceof Response) return read;
      const old = coll.get(org, c.req.param('patientId'));
      if (!old) return notFound(c);
      // external_id is immutable: sent on PATCH it is silently ignored.
      const { external_id: _ignored, ...patch } = read.body as PatientUpdate;
      if (patch.provider_id !== undefined) {
        const refused = checkProvider(c, deps, patch.provider_id);
        if (refused) return refused;
      }
      const next: Patient = { ...old, ...patch, mrn: 'mrn' in patch ? mrnOf(patch.mrn) : old.mrn };
      // A name that was built from the first/last names follows them unless a name is sent.
      if (patch.name === undefined && old.name === displayName(undefined, old.first_name, old.last_name))
        next.name = displayName(undefined, next.first_name, next.last_name) || old.name;
      return jsonText(c, dataJson(JSON.stringify(coll.put(org, next))));
    });

    app.delete('/patients/:patientId', (c) => (coll.delete(orgOf(c), c.req.param('patientId')) ? c.json({ success: true }) : notFound(c)));
  },
});
