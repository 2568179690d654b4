// Path id formats, content types, error statuses, write scopes, the base address: one check per rule.
// Requests that could change data name the run's own resources, ids that do not exist, or carry no key; a request
// that would touch someone else's data (a real session's regeneration, a real provider) runs only with --mock.
import { randomUUID } from 'node:crypto';
import type { CheckContext, CheckDef } from '../model.ts';
import type { Exchange, KeyRef, RequestSpec } from '../http.ts';
import type { Operation } from '../contract.ts';
import type { Json, JsonObject } from '../../spec/runtime/json-pointer.ts';
import { tinyPdf } from '../fixtures.ts';
import { body, createAppointment, farFuture, fillPath, got, is2xx, is4xx, isValidationError, listOf, objOf, unusedNpi, uploadDocument, type Obj } from './util.ts';
import { limitUploads, uploadLimits } from './documents.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DIGITS = /^\d+$/;
const WRITE_METHODS = ['POST', 'PATCH', 'PUT'];
/** An `{ error }` body with a non-empty string (the only thing fixed about most error texts). */
const hasError = (ex: Exchange) => typeof body(ex).error === 'string' && (body(ex).error as string).length > 0;
const opName = (op: Operation) => `${op.method} ${op.template}`;

/** Path parameters of a template, in order. */
const pathParams = (op: Operation) => [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/** Values of the wrong form for a path parameter (patientId: not digits; the others: not a UUID). */
const malformed = (name: string) => (name === 'patientId' ? 'abc' : 'not-a-uuid');

/** The run's own patient and appointment, shared by the checks of this file. */
function own(ctx: CheckContext): Promise<{ patient: Obj; appointment: Obj }> {
  return ctx.fixtures.shared('contract-surface-own', async () => {
    const patient = await ctx.fixtures.patient();
    if (ctx.readOnly) return { patient, appointment: {} };
    const a = await createAppointment(ctx, String(patient.id), { start_at: farFuture() });
    if (!is2xx(a) || typeof objOf(a).id !== 'string') ctx.skip(`could not create an appointment to work on: POST /appointments answered ${a.response.status}`);
    return { patient, appointment: objOf(a) };
  });
}

/** A session whose note a 202 may regenerate: only the mock's (its data is the run's to change). */
async function mockSession(ctx: CheckContext): Promise<string | undefined> {
  if (!ctx.mock) return undefined;
  const note = (await ctx.fixtures.notes())[0];
  return note ? String(note.session_id) : undefined;
}

/** A valid body for a JSON write, by operation; undefined for one this file does not know. */
function bodyFor(ctx: CheckContext, op: Operation, patientId: string): Obj | undefined {
  switch (op.operationId) {
    case 'createPatient':
      return { name: 'Conformance contract surface', external_id: ctx.externalId('surface') };
    case 'createAppointment':
      return { patient_id: patientId, start_at: farFuture(), duration_minutes: 30, external_id: ctx.externalId('surface-appt') };
    case 'updatePatient':
      return { phone: '+1-555-0142' };
    case 'updateAppointment':
      return { notes: 'Conformance contract surface' };
    case 'regenerateSessionNote':
      return {};
    default:
      return undefined;
  }
}

interface JsonWrite {
  op: Operation;
  path: string;
  body: () => Obj;
}

/**
 * Every JSON write of the spec against the run's own resources, each with a fresh valid body; the regenerate
 * operation only with --mock (a 2xx there regenerates a note the run does not own).
 */
async function jsonWrites(ctx: CheckContext): Promise<{ targets: JsonWrite[]; left: string[] }> {
  const { patient, appointment } = await own(ctx);
  const sessionId = await mockSession(ctx);
  const values = { patientId: String(patient.id), appointmentId: String(appointment.id), sessionId };
  const targets: JsonWrite[] = [];
  const left: string[] = [];
  for (const op of ctx.contract.operations) {
    if (!op.jsonBodyPointer || !WRITE_METHODS.includes(op.method)) continue;
    if (pathParams(op).some((p) => !(p in values) || values[p as keyof typeof values] === undefined) || bodyFor(ctx, op, values.patientId) === undefined) {
      left.push(opName(op));
      continue;
    }
    targets.push({ op, path: fillPath(op, values), body: () => bodyFor(ctx, op, values.patientId)! });
  }
  return { targets, left };
}

/** One request per JSON write with a body past the largest body the document mentions (the upload's x-max-bytes). */
function oversizedJson(ctx: CheckContext) {
  return ctx.fixtures.shared('contract-surface-oversized-json', async () => {
    const limit = uploadLimits(ctx).maxBytes;
    if (limit === undefined) ctx.skip('the spec gives no body size (x-max-bytes) to go past');
    const { targets } = await jsonWrites(ctx);
    const out: Array<{ op: Operation; path: string; size: number; ex: Exchange }> = [];
    for (const t of targets) {
      // The padding is an unknown field, so a server without a size limit refuses the body (400) rather than
      // storing it: the check still fails, and nothing is written.
      const text = JSON.stringify({ ...t.body(), crc_padding: 'x'.repeat(limit! + 1) });
      const ex = await ctx.send({ method: t.op.method, path: t.path, key: ctx.keys.main, bodyText: text });
      out.push({ op: t.op, path: t.path, size: text.length, ex });
    }
    return out;
  });
}

/** A key of the run holding `scope` (not `*`), the one with the fewest scopes. */
function keyWith(ctx: CheckContext, scope: string): KeyRef | undefined {
  return ctx.keys.scoped.filter((s) => s.scopes.includes(scope) && !s.scopes.includes('*')).sort((a, b) => a.scopes.length - b.scopes.length)[0]?.key;
}

/** A key of the run lacking every scope of `needed`. */
function keyWithout(ctx: CheckContext, needed: string[]): { key: KeyRef; scopes: string[] } | undefined {
  return ctx.keys.scoped.find((s) => !s.scopes.includes('*') && !needed.some((n) => s.scopes.includes(n)));
}

/** What a write scope's check does after the create, given the new id. */
interface ScopedSteps {
  /** The new resource's path, DELETEd with the scoped key. */
  path: string;
  /** A change of the resource, sent with the scoped key, and what it must answer. */
  change: Omit<RequestSpec, 'key'>;
  changed: (ex: Exchange) => boolean;
  changeExpected: string;
  /** How the main key looks for it after the delete (a 404 expected); GET {path} unless given. */
  lookup?: { spec: RequestSpec; what: string };
}

/** The change of a patient or appointment: a PATCH of one field, answered 200 with the new value. */
function patchOne(path: string, field: string, value: string): ScopedSteps {
  return {
    path,
    change: { method: 'PATCH', path, json: { [field]: value } },
    changed: (ex) => ex.response.status === 200 && objOf(ex)[field] === value,
    changeExpected: `200 with the new ${field} for PATCH ${path}`,
  };
}

/**
 * The lifecycle a :write scope must allow, every write with a key holding `scope` (skipped without one): the create
 * (201 with an id), a change, a DELETE (200), then the resource gone for the main key (404). One place for the
 * three *_write_scope_grants checks; `create.what` names the create in messages ("POST /patients").
 */
async function scopedLifecycle(
  ctx: CheckContext,
  scope: string,
  create: { what: string; send: (key: KeyRef) => Promise<Exchange>; steps: (id: string) => ScopedSteps },
): Promise<void> {
  const key = keyWith(ctx, scope);
  if (!key) return ctx.skip(`needs a --scoped-key holding ${scope} (without *)`);
  const withKey = `with ${/^[aeiou]/.test(scope) ? 'an' : 'a'} ${scope} key`;
  const created = await create.send(key);
  if (!ctx.expect(created.response.status === 201 && typeof objOf(created).id === 'string', { expected: `201 for ${create.what} ${withKey}`, actual: got(created), exchange: created })) return;
  const s = create.steps(String(objOf(created).id));
  const changed = await ctx.send({ ...s.change, key });
  ctx.expect(s.changed(changed), { expected: `${s.changeExpected} ${withKey}`, actual: got(changed), exchange: changed });
  const deleted = await ctx.send({ method: 'DELETE', path: s.path, key });
  ctx.expect(deleted.response.status === 200, { expected: `200 for DELETE ${s.path} ${withKey}`, actual: got(deleted), exchange: deleted });
  const lookup = s.lookup ?? { spec: { method: 'GET', path: s.path, key: ctx.keys.main }, what: `GET ${s.path}` };
  const gone = await ctx.send(lookup.spec);
  ctx.expect(gone.response.status === 404, { expected: `404 for ${lookup.what} after the delete`, actual: got(gone), exchange: gone });
}

/**
 * A path id check: the id the API gives has the documented form and the path takes it (2xx); the same path with
 * ids of another form (including the real id with a character appended, which a lenient parser would still
 * resolve) never answers 2xx but a 4xx (400 or 404: which one is ERR-019's business).
 */
async function pathIdForm(
  ctx: CheckContext,
  o: { param: string; form: RegExp; formName: string; id: string; requests: Array<{ method: string; path: (id: string) => string; json?: Obj }>; ok?: boolean },
) {
  ctx.expect(o.form.test(o.id), { expected: `${o.param} ${o.formName}`, actual: JSON.stringify(o.id) });
  for (const r of o.requests) {
    if (o.ok !== false) {
      const ex = await ctx.send({ method: r.method, path: r.path(o.id), key: ctx.keys.main, json: r.json });
      ctx.expect(is2xx(ex), { expected: `2xx for ${r.method} ${r.path(`{${o.param}}`)} with the ${o.param} ${o.id} the API gave`, actual: got(ex), exchange: ex });
    }
    for (const bad of [`${o.id}x`, malformed(o.param)]) {
      const ex = await ctx.send({ method: r.method, path: r.path(encodeURIComponent(bad)), key: ctx.keys.main, json: r.json });
      ctx.expect(is4xx(ex), {
        expected: `a 4xx (never 2xx) for ${r.method} ${r.path(`{${o.param}}`)} with ${o.param} ${JSON.stringify(bad)}, which is not ${o.formName}`,
        actual: got(ex),
        exchange: ex,
      });
    }
  }
}

/** Ids to fill the GET paths with: the run's patient, and the first listed appointment, provider, note and session. */
async function readablePathValues(ctx: CheckContext): Promise<Record<string, string | undefined>> {
  const patient = await ctx.fixtures.patient();
  const note = (await ctx.fixtures.notes())[0];
  const provider = (await ctx.fixtures.providers())[0];
  const appointment = listOf(await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { limit: 1 } }))[0];
  return {
    patientId: String(patient.id),
    appointmentId: appointment?.id as string | undefined,
    providerId: provider?.id as string | undefined,
    noteId: note?.id as string | undefined,
    sessionId: note?.session_id as string | undefined,
  };
}

// ----- the checks -----

export const contractSurfaceChecks: CheckDef[] = [
  {
    name: 'write_requests_json_content_type',
    area: 'validation',
    rule: 'GEN-006',
    needs: { write: true },
    async run(ctx) {
      const { targets, left } = await jsonWrites(ctx);
      for (const t of targets)
        for (const type of ['application/json', 'application/json; charset=utf-8']) {
          const ex = await ctx.send({ method: t.op.method, path: t.path, key: ctx.keys.main, json: t.body(), headers: { 'Content-Type': type } });
          ctx.expect(is2xx(ex), { expected: `2xx for ${opName(t.op)} with a valid body sent as Content-Type: ${type}`, actual: got(ex), exchange: ex });
        }
      if (!targets.length) ctx.skip(`no JSON write to send (${left.join(', ')} need --mock or are unknown to the check)`);
    },
  },
  {
    name: 'upload_is_multipart_form_data',
    area: 'documents',
    rule: 'GEN-007',
    needs: { write: true },
    async run(ctx) {
      const { patient } = await own(ctx);
      const pid = String(patient.id);
      const ok = await uploadDocument(ctx, pid);
      ctx.expect(ok.response.status === 201, { expected: '201 for a document upload sent as multipart/form-data', actual: got(ok), exchange: ok });
      // The same upload as JSON (the file base64-encoded) is not taken as an upload.
      const asJson = await ctx.send({
        method: 'POST',
        path: `/patients/${pid}/documents`,
        key: ctx.keys.main,
        json: { external_id: ctx.externalId('json-upload'), file: Buffer.from(tinyPdf()).toString('base64') },
      });
      ctx.expect(is4xx(asJson), { expected: 'a 4xx for a document upload sent as application/json (the upload is multipart/form-data)', actual: got(asJson), exchange: asJson });
      // And it is the one such write: a JSON create sent as multipart/form-data is not accepted.
      const patientAsForm = await ctx.send({
        method: 'POST',
        path: '/patients',
        key: ctx.keys.main,
        form: { fields: { name: 'Conformance multipart', external_id: ctx.externalId('form-patient') } },
      });
      ctx.expect(is4xx(patientAsForm), { expected: 'a 4xx for POST /patients sent as multipart/form-data (only the upload is)', actual: got(patientAsForm), exchange: patientAsForm });
    },
  },
  {
    name: 'response_objects_closed',
    area: 'responses',
    rule: 'GEN-011',
    provenance: 'assumed',
    async run(ctx) {
      const values = await readablePathValues(ctx);
      if (!ctx.readOnly) {
        const docs = await ctx.send({ method: 'GET', path: `/patients/${values.patientId}/documents`, key: ctx.keys.main });
        if (!listOf(docs).length) await uploadDocument(ctx, values.patientId!);
      }
      for (const op of ctx.contract.operations) {
        const ok = op.responses.get('200');
        if (op.method !== 'GET' || !(ok?.node.content as JsonObject | undefined)?.['application/json'] || pathParams(op).some((p) => !values[p])) continue;
        const query = ctx.contract.queryParam(op, 'limit') ? { limit: 100 } : undefined;
        const ex = await ctx.send({ method: 'GET', path: fillPath(op, values), key: ctx.keys.main, query });
        // The spec's own schema (ajv), only its closedness and required fields: other shape errors are GEN-003's.
        const found = ex.response.json === undefined ? [] : ctx.schemas.validate(`${ok!.pointer}/content/application~1json/schema`, ex.response.json, ['additionalProperties', 'required']);
        ctx.expect(ex.response.status === 200 && ex.response.json !== undefined && !found.length, {
          expected: `200 whose objects hold only the fields of the spec (closed), required fields present, for GET ${op.template}`,
          actual: ex.response.status === 200 ? found.join('; ') || got(ex) : got(ex),
          exchange: ex,
        });
      }
    },
  },
  {
    name: 'base_url_ends_with_version',
    area: 'responses',
    rule: 'VER-001',
    async run(ctx) {
      const base = ctx.contract.basePath();
      const path = new URL(ctx.http.baseUrl).pathname.replace(/\/$/, '');
      ctx.expect(!!base && path.endsWith(base), { expected: `the base address ends with ${base} (the spec's servers)`, actual: path || '/' });
      const versioned = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main, query: { limit: 1 } });
      ctx.expect(versioned.response.status === 200 && Array.isArray(body(versioned).data), { expected: `200 { data: [...] } for GET ${path}/providers`, actual: got(versioned), exchange: versioned });
      // Without the version segment the address is not the API.
      const bare = await ctx.send({ method: 'GET', path: '/../providers', key: ctx.keys.main, query: { limit: 1 } });
      ctx.expect(!is2xx(bare), { expected: `no 2xx for GET ${path.replace(/\/[^/]*$/, '')}/providers (the version left out of the address)`, actual: got(bare), exchange: bare });
    },
  },
  {
    name: 'paths_relative_to_base_url',
    area: 'responses',
    rule: 'VER-003',
    async run(ctx) {
      const values = await readablePathValues(ctx);
      for (const op of ctx.contract.operations) {
        if (op.method === 'GET') {
          if (pathParams(op).some((p) => !values[p])) continue;
          const ex = await ctx.send({ method: 'GET', path: fillPath(op, values), key: ctx.keys.main });
          ctx.expect(ex.response.status === 200, { expected: `200 for GET {base_url}${op.template} (the path appended to the base address)`, actual: got(ex), exchange: ex });
        } else if (!ctx.readOnly) {
          // Writes without a key: the operation is there (401), and nothing can be written.
          const ex = await ctx.send({ method: op.method, path: fillPath(op, {}), json: op.jsonBodyPointer ? {} : undefined });
          ctx.expect(ex.response.status === 401 && hasError(ex), { expected: `401 { error } for ${op.method} {base_url}${op.template} without a key (the operation lives there)`, actual: got(ex), exchange: ex });
        }
      }
    },
  },
  {
    name: 'external_id_conflict_body',
    area: 'external-id',
    rule: 'ERR-006',
    needs: { write: true },
    async run(ctx) {
      const message = (ctx.contract.resolve('#/components/schemas/ExternalIdConflict') as { properties: { error: { const: string } } }).properties.error.const;
      const { patient } = await own(ctx);
      const pid = String(patient.id);
      const p = await ctx.fixtures.createPatient('conflict');
      const a = await createAppointment(ctx, pid, { start_at: farFuture() });
      const d = await uploadDocument(ctx, pid);
      const cases: Array<[string, Obj, () => Promise<Exchange>]> = [
        ['patient', p, () => ctx.send({ method: 'POST', path: '/patients', key: ctx.keys.main, json: { name: 'Conformance conflict', external_id: p.external_id } })],
        ['appointment', objOf(a), () => createAppointment(ctx, pid, { start_at: farFuture(), external_id: objOf(a).external_id })],
        ['document', objOf(d), () => uploadDocument(ctx, pid, String(objOf(d).external_id))],
      ];
      for (const [what, first, again] of cases) {
        if (!ctx.expect(typeof first.id === 'string' && typeof first.external_id === 'string', { expected: `a ${what} created to collide with`, actual: JSON.stringify(first) })) continue;
        const ex = await again();
        const b = body(ex);
        const existing = b.existing as Obj | undefined;
        ctx.expect(
          ex.response.status === 409 &&
            b.error === message &&
            Object.keys(b).sort().join() === 'error,existing' &&
            !!existing &&
            existing.id === first.id &&
            existing.external_id === first.external_id &&
            Object.keys(existing).sort().join() === 'external_id,id',
          {
            expected: `409 { error: ${JSON.stringify(message)}, existing: { id: ${JSON.stringify(first.id)}, external_id: ${JSON.stringify(first.external_id)} } } for a second ${what} with the same external_id`,
            actual: got(ex),
            exchange: ex,
          },
        );
      }
    },
  },
  {
    name: 'json_write_wrong_content_type_415',
    area: 'validation',
    rule: 'ERR-013',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      const { targets, left } = await jsonWrites(ctx);
      if (!targets.length) ctx.skip(`no JSON write to send (${left.join(', ')} need --mock or are unknown to the check)`);
      for (const t of targets)
        for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
          const ex = await ctx.send({ method: t.op.method, path: t.path, key: ctx.keys.main, bodyText: JSON.stringify(t.body()), headers: { 'Content-Type': type } });
          ctx.expect(ex.response.status === 415 && hasError(ex), { expected: `415 { error } for ${opName(t.op)} with a JSON body sent as Content-Type: ${type}`, actual: got(ex), exchange: ex });
        }
    },
  },
  {
    name: 'json_body_too_large_413',
    area: 'validation',
    rule: 'ERR-014',
    provenance: 'assumed',
    needs: { write: true },
    async run(ctx) {
      const sent = await oversizedJson(ctx);
      if (!sent.length) ctx.skip('no JSON write to send');
      for (const s of sent)
        // No exchange: its curl line would carry the whole oversized body.
        ctx.expect(s.ex.response.status === 413 && hasError(s.ex), {
          message: `${s.op.method} ${s.path} with a ${s.size}-byte JSON body`,
          expected: `413 { error } for ${opName(s.op)} with a JSON body of ${s.size} bytes (more than the upload's x-max-bytes, the largest body the document allows)`,
          actual: got(s.ex),
        });
    },
  },
  {
    name: 'per_operation_error_statuses',
    area: 'validation',
    rule: 'ERR-015',
    provenance: 'assumed',
    needs: { write: true },
    exclusive: true,
    async run(ctx) {
      const { patient, appointment } = await own(ctx);
      const pid = String(patient.id);
      const sessionId = await mockSession(ctx);
      const providers = await ctx.fixtures.providers();
      const check = (op: Operation, status: number, why: string, ex: Exchange, note = '') =>
        ctx.expect(ex.response.status === status && hasError(ex), { expected: `${status} { error } for ${opName(op)} ${why}${note}`, actual: got(ex), exchange: ex });
      // Ids that exist (the run's own) where a request must get past the lookup; random ones otherwise.
      const existing = { patientId: pid, appointmentId: String(appointment.id), sessionId };
      const missing = (op: Operation) => (pathParams(op).includes('documentId') ? { patientId: pid } : {});
      const validBody = (op: Operation): Pick<RequestSpec, 'json' | 'form'> =>
        op.operationId === 'uploadDocument'
          ? { form: { fields: { external_id: ctx.externalId('status') }, file: { name: 'status.pdf', type: 'application/pdf', bytes: tinyPdf() } } }
          : op.jsonBodyPointer
            ? { json: bodyFor(ctx, op, pid) ?? {} }
            : {};
      for (const op of ctx.contract.operations) {
        const empty = op.jsonBodyPointer ? { json: {} } : {};
        // 401 and 403 (ids that do not exist, an empty body: nothing can be written even if the key were taken).
        check(op, 401, 'without a key', await ctx.send({ method: op.method, path: fillPath(op, {}), ...empty }));
        const lacking = keyWithout(ctx, op.scopes);
        if (lacking)
          check(op, 403, `with a key of scopes [${lacking.scopes.join(', ')}]`, await ctx.send({ method: op.method, path: fillPath(op, {}), key: lacking.key, ...empty }));
        // 404 where the path names a resource (well-formed ids nothing has), or a lookup misses.
        if (pathParams(op).length)
          check(op, 404, 'for ids that name nothing', await ctx.send({ method: op.method, path: fillPath(op, missing(op)), key: ctx.keys.main, ...validBody(op) }));
        if (ctx.contract.queryParam(op, 'external_id'))
          check(op, 404, 'for an external_id lookup that matches nothing', await ctx.send({ method: 'GET', path: fillPath(op, existing), key: ctx.keys.main, query: { external_id: `${ctx.prefix}no-such` } }));
        if (ctx.contract.queryParam(op, 'npi'))
          check(op, 404, 'for an npi lookup that matches nothing', await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { npi: unusedNpi(providers.map((p) => String(p.npi))) } }));
        // 400: a path id of the wrong form, a query value out of the spec, or a body missing its required fields.
        const params = pathParams(op);
        const enumParam = op.parameters.find((p) => p.in === 'query' && Array.isArray((ctx.contract.deref(p.schema as Json) as JsonObject | undefined)?.enum));
        let bad: RequestSpec | undefined;
        let why = '';
        if (params.length) {
          const p = params.at(-1)!;
          bad = { method: op.method, path: fillPath(op, { ...existing, [p]: malformed(p) }), key: ctx.keys.main, ...validBody(op) };
          why = `with ${p} ${JSON.stringify(malformed(p))}`;
        } else if (ctx.contract.queryParam(op, 'page')) {
          bad = { method: op.method, path: op.template, key: ctx.keys.main, query: { page: 0 } };
          why = 'with page=0';
        } else if (enumParam) {
          bad = { method: op.method, path: op.template, key: ctx.keys.main, query: { [String(enumParam.name)]: 'crc-not-in-the-enum' } };
          why = `with ${String(enumParam.name)} outside its enum`;
        } else if (op.jsonBodyPointer) {
          bad = { method: op.method, path: op.template, key: ctx.keys.main, json: {} };
          why = 'with an empty body';
        }
        if (bad) {
          const ex = await ctx.send(bad);
          ctx.expect(ex.response.status === 400 && hasError(ex), { expected: `400 { error } for ${opName(op)} ${why}`, actual: got(ex), exchange: ex });
        }
        // 415 and 413 on JSON writes and the upload (JSON writes against the run's own resources).
        const writable = pathParams(op).every((p) => existing[p as keyof typeof existing] !== undefined);
        if (op.operationId === 'uploadDocument') {
          const ex = await ctx.send({ method: 'POST', path: fillPath(op, existing), key: ctx.keys.main, json: { external_id: ctx.externalId('status-json') } });
          check(op, 415, 'with a JSON body instead of multipart/form-data', ex);
          // The upload checks' own oversized upload (one per run: it is 10 MB).
          const big = (await limitUploads(ctx)).oversize;
          if (big) ctx.expect(big.response.status === 413 && hasError(big), { expected: `413 { error } for ${opName(op)} with a file one byte past x-max-bytes`, actual: got(big), exchange: big });
        } else if (op.jsonBodyPointer && WRITE_METHODS.includes(op.method) && writable) {
          const ex = await ctx.send({ method: op.method, path: fillPath(op, existing), key: ctx.keys.main, bodyText: JSON.stringify(bodyFor(ctx, op, pid) ?? {}), headers: { 'Content-Type': 'text/plain' } });
          check(op, 415, 'with a JSON body sent as text/plain', ex);
        }
        // 429: every operation, when the mock can inject it (the limiter's answer to the next request).
        if (ctx.mock) {
          await ctx.mock.fault({ kind: 'rate-limited', count: 1 });
          check(op, 429, 'when rate limited', await ctx.send({ method: op.method, path: fillPath(op, {}), key: ctx.keys.main, ...empty, acceptRateLimited: true }));
        }
      }
      for (const s of await oversizedJson(ctx))
        ctx.expect(s.ex.response.status === 413 && hasError(s.ex), {
          message: `${s.op.method} ${s.path} with a ${s.size}-byte JSON body`,
          expected: `413 { error } for ${opName(s.op)} with an oversized JSON body`,
          actual: got(s.ex),
        });
    },
  },
  {
    name: 'error_text_non_empty_string',
    area: 'responses',
    rule: 'ERR-016',
    provenance: 'assumed',
    async run(ctx) {
      const patient = await ctx.fixtures.patient();
      const cases: Array<[string, RequestSpec]> = [
        ['401 without a key', { method: 'GET', path: '/patients' }],
        ['401 with an invalid key', { method: 'GET', path: '/patients', rawKey: 'crc-not-a-valid-key-0000000000' }],
        ['404 for a patient that does not exist', { method: 'GET', path: `/patients/${'9'.repeat(19)}`, key: ctx.keys.main }],
        ['404 for a lookup that misses', { method: 'GET', path: '/patients', key: ctx.keys.main, query: { external_id: `${ctx.prefix}no-such` } }],
        ['404 for a note that does not exist', { method: 'GET', path: `/notes/${randomUUID()}`, key: ctx.keys.main }],
        ['400 for page=0', { method: 'GET', path: '/patients', key: ctx.keys.main, query: { page: 0 } }],
        ['400 for a patientId of the wrong form', { method: 'GET', path: '/patients/abc', key: ctx.keys.main }],
        ['400 for an unknown export format', { method: 'GET', path: '/notes/export', key: ctx.keys.main, query: { format: 'crc-unknown' } }],
        ['404 for the documents of a patient that does not exist', { method: 'GET', path: `/patients/${'9'.repeat(19)}/documents`, key: ctx.keys.main }],
      ];
      const lacking = keyWithout(ctx, ['patients:read']);
      if (lacking) cases.push(['403 for a key without patients:read', { method: 'GET', path: `/patients/${String(patient.id)}`, key: lacking.key }]);
      for (const [what, spec] of cases) {
        const ex = await ctx.send(spec);
        const e = body(ex).error;
        // Only the status class and a non-empty error string: no text is compared.
        ctx.expect(ex.response.status >= 400 && ex.response.json !== undefined && typeof e === 'string' && e.trim().length > 0, {
          expected: `an error status with a JSON body { error: <non-empty string> } (${what})`,
          actual: got(ex),
          exchange: ex,
        });
      }
    },
  },
  {
    name: 'malformed_path_id_400',
    area: 'validation',
    rule: 'ERR-019',
    provenance: 'assumed',
    async run(ctx) {
      const patient = await ctx.fixtures.patient();
      const pid = String(patient.id);
      for (const op of ctx.contract.operations) {
        if (op.method !== 'GET' && ctx.readOnly) continue;
        const params = pathParams(op);
        for (const p of params) {
          // The other ids well formed (the run's own patient), the body valid: only the id is wrong.
          const path = fillPath(op, { patientId: pid, [p]: malformed(p) });
          const spec: RequestSpec = { method: op.method, path, key: ctx.keys.main };
          if (op.operationId === 'uploadDocument') spec.form = { fields: { external_id: ctx.externalId('badid') }, file: { name: 'badid.pdf', type: 'application/pdf', bytes: tinyPdf() } };
          else if (op.jsonBodyPointer) spec.json = bodyFor(ctx, op, pid) ?? {};
          const ex = await ctx.send(spec);
          ctx.expect(isValidationError(ex), { expected: `400 { error, details } (not 404) for ${opName(op)} with ${p} ${JSON.stringify(malformed(p))}`, actual: got(ex), exchange: ex });
        }
      }
    },
  },
  {
    name: 'patient_id_path_digits',
    area: 'patients',
    rule: 'PAT-025',
    async run(ctx) {
      const patient = await ctx.fixtures.patient();
      await pathIdForm(ctx, {
        param: 'patientId',
        form: DIGITS,
        formName: 'a string of digits',
        id: String(patient.id),
        requests: [
          { method: 'GET', path: (id) => `/patients/${id}` },
          { method: 'GET', path: (id) => `/patients/${id}/documents` },
        ],
      });
    },
  },
  {
    name: 'appointment_id_path_uuid',
    area: 'appointments',
    rule: 'APT-022',
    async run(ctx) {
      let appointment = listOf(await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { limit: 1 } }))[0];
      if (!appointment && !ctx.readOnly) appointment = (await own(ctx)).appointment;
      if (!appointment) return ctx.skip('the organization has no appointments to read');
      await pathIdForm(ctx, { param: 'appointmentId', form: UUID, formName: 'a UUID', id: String(appointment.id), requests: [{ method: 'GET', path: (id) => `/appointments/${id}` }] });
    },
  },
  {
    name: 'document_id_path_uuid',
    area: 'documents',
    rule: 'DOC-030',
    needs: { write: true },
    async run(ctx) {
      const { patient } = await own(ctx);
      const pid = String(patient.id);
      const up = await uploadDocument(ctx, pid);
      if (!ctx.expect(up.response.status === 201 && typeof objOf(up).id === 'string', { expected: '201 for an upload to read the id of', actual: got(up), exchange: up })) return;
      const id = String(objOf(up).id);
      await pathIdForm(ctx, { param: 'documentId', form: UUID, formName: 'a UUID', id, requests: [{ method: 'POST', path: (x) => `/patients/${pid}/documents/${x}/extract` }] });
      // A DELETE with the id of the wrong form is refused and deletes nothing (the document is the run's own).
      for (const bad of [`${id}x`, 'not-a-uuid']) {
        const ex = await ctx.send({ method: 'DELETE', path: `/patients/${pid}/documents/${encodeURIComponent(bad)}`, key: ctx.keys.main });
        ctx.expect(is4xx(ex), { expected: `a 4xx for DELETE /patients/{patientId}/documents/{documentId} with documentId ${JSON.stringify(bad)}`, actual: got(ex), exchange: ex });
      }
      const still = await ctx.send({ method: 'GET', path: `/patients/${pid}/documents`, key: ctx.keys.main, query: { external_id: String(objOf(up).external_id) } });
      ctx.expect(listOf(still)[0]?.id === id, { expected: `document ${id} still there after DELETEs naming ids of the wrong form`, actual: got(still), exchange: still });
    },
  },
  {
    name: 'provider_id_path_uuid',
    area: 'providers',
    rule: 'PRV-010',
    async run(ctx) {
      const provider = (await ctx.fixtures.providers())[0];
      if (!provider) return ctx.skip('the organization lists no providers');
      await pathIdForm(ctx, { param: 'providerId', form: UUID, formName: 'a UUID', id: String(provider.id), requests: [{ method: 'GET', path: (id) => `/providers/${id}` }] });
    },
  },
  {
    name: 'note_and_session_id_path_uuid',
    area: 'notes',
    rule: 'NOTE-023',
    async run(ctx) {
      const note = await ctx.fixtures.firstNote();
      await pathIdForm(ctx, { param: 'noteId', form: UUID, formName: 'a UUID', id: String(note.id), requests: [{ method: 'GET', path: (id) => `/notes/${id}` }] });
      await pathIdForm(ctx, { param: 'sessionId', form: UUID, formName: 'a UUID', id: String(note.session_id), requests: [{ method: 'GET', path: (id) => `/sessions/${id}/notes` }] });
    },
  },
  {
    name: 'regenerate_session_id_uuid',
    area: 'regeneration',
    rule: 'REGEN-002',
    needs: { write: true },
    async run(ctx) {
      // A real session only with --mock (a 202 regenerates its note); elsewhere ids no session has.
      const real = await mockSession(ctx);
      const path = (id: string) => `/sessions/${id}/notes/regenerate`;
      if (real) await pathIdForm(ctx, { param: 'sessionId', form: UUID, formName: 'a UUID', id: real, requests: [{ method: 'POST', path, json: {} }] });
      else
        for (const bad of [`${randomUUID()}x`, 'not-a-uuid']) {
          const ex = await ctx.send({ method: 'POST', path: path(encodeURIComponent(bad)), key: ctx.keys.main, json: {} });
          ctx.expect(is4xx(ex), { expected: `a 4xx for POST /sessions/{sessionId}/notes/regenerate with sessionId ${JSON.stringify(bad)}, not a UUID`, actual: got(ex), exchange: ex });
        }
      // Required: an empty sessionId segment is no regenerate request.
      const none = await ctx.send({ method: 'POST', path: path(''), key: ctx.keys.main, json: {} });
      ctx.expect(is4xx(none), { expected: 'a 4xx for POST /sessions//notes/regenerate (no sessionId)', actual: got(none), exchange: none });
    },
  },
  {
    name: 'providers_read_only',
    area: 'providers',
    rule: 'PRV-009',
    needs: { write: true },
    async run(ctx) {
      // A real provider only with --mock (its data is the run's to change); elsewhere an id no provider has.
      const providers = await ctx.fixtures.providers();
      const real = ctx.mock ? providers[0] : undefined;
      const id = real ? String(real.id) : randomUUID();
      const attempts: RequestSpec[] = [
        { method: 'POST', path: '/providers', key: ctx.keys.main, json: real ? { name: 'Conformance provider', npi: unusedNpi(providers.map((p) => String(p.npi))) } : {} },
        { method: 'PATCH', path: `/providers/${id}`, key: ctx.keys.main, json: real ? { name: 'Changed by the conformance suite' } : {} },
        { method: 'PUT', path: `/providers/${id}`, key: ctx.keys.main, json: real ? { ...real, name: 'Changed by the conformance suite' } : {} },
        { method: 'DELETE', path: `/providers/${id}`, key: ctx.keys.main },
      ];
      for (const spec of attempts) {
        const ex = await ctx.send(spec);
        ctx.expect(ex.response.status === 404 || ex.response.status === 405, {
          expected: `404 or 405 for ${spec.method} ${spec.path.replace(id, '{providerId}')} (no operation writes providers)`,
          actual: got(ex),
          exchange: ex,
        });
      }
      if (real) {
        const after = await ctx.send({ method: 'GET', path: `/providers/${id}`, key: ctx.keys.main });
        ctx.expect(after.response.status === 200 && JSON.stringify(objOf(after)) === JSON.stringify(real), { expected: `provider ${id} unchanged: ${JSON.stringify(real)}`, actual: got(after), exchange: after });
        const list = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main });
        ctx.expect(listOf(list).length === providers.length, { expected: `still ${providers.length} providers listed`, actual: got(list), exchange: list });
      }
    },
  },
  {
    name: 'patients_write_scope_grants',
    area: 'scopes',
    rule: 'AUTH-014',
    needs: { write: true, keys: ['scoped'] },
    async run(ctx) {
      await scopedLifecycle(ctx, 'patients:write', {
        what: 'POST /patients',
        send: (key) => ctx.send({ method: 'POST', path: '/patients', key, json: { name: 'Conformance patients:write', external_id: ctx.externalId('scope-patient') } }),
        steps: (id) => patchOne(`/patients/${id}`, 'phone', '+1-555-0143'),
      });
    },
  },
  {
    name: 'appointments_write_scope_grants',
    area: 'scopes',
    rule: 'AUTH-016',
    needs: { write: true, keys: ['scoped'] },
    async run(ctx) {
      await scopedLifecycle(ctx, 'appointments:write', {
        what: 'POST /appointments',
        send: async (key) => {
          const { patient } = await own(ctx);
          const json = { patient_id: String(patient.id), start_at: farFuture(), duration_minutes: 30, external_id: ctx.externalId('scope-appt') };
          return ctx.send({ method: 'POST', path: '/appointments', key, json });
        },
        steps: (id) => patchOne(`/appointments/${id}`, 'notes', 'updated with appointments:write'),
      });
    },
  },
  {
    name: 'documents_write_scope_grants',
    area: 'scopes',
    rule: 'AUTH-018',
    needs: { write: true, keys: ['scoped'] },
    async run(ctx) {
      let pid = '';
      let ext = '';
      await scopedLifecycle(ctx, 'documents:write', {
        what: 'an upload',
        send: async (key) => {
          pid = String((await own(ctx)).patient.id);
          ext = ctx.externalId('scope-doc');
          return uploadDocument(ctx, pid, ext, { key });
        },
        steps: (id) => {
          const path = `/patients/${pid}/documents/${id}`;
          return {
            path,
            change: { method: 'POST', path: `${path}/extract` },
            changed: is2xx,
            changeExpected: `2xx for POST ${path}/extract`,
            // A deleted document has no GET of its own: its external_id lookup answers 404.
            lookup: { spec: { method: 'GET', path: `/patients/${pid}/documents`, key: ctx.keys.main, query: { external_id: ext } }, what: `the lookup of ${ext}` },
          };
        },
      });
    },
  },
  {
    name: 'regenerate_auth_errors',
    area: 'regeneration',
    rule: 'REGEN-010',
    needs: { mock: true, keys: ['scoped'] },
    exclusive: true,
    async run(ctx) {
      // A session no one has: none of these requests can regenerate anything, whatever the answer.
      const path = `/sessions/${randomUUID()}/notes/regenerate`;
      const scopes = ctx.contract.byId('regenerateSessionNote').scopes;
      const cases: Array<[number, string, RequestSpec]> = [
        [401, 'without a key', { method: 'POST', path, json: {} }],
        [401, 'with an invalid key', { method: 'POST', path, rawKey: 'crc-not-a-valid-key-0000000000', json: {} }],
      ];
      const lacking = keyWithout(ctx, scopes);
      if (!lacking) return ctx.skip(`needs a --scoped-key without ${scopes.join(', ')}`);
      cases.push([403, `with a key of scopes [${lacking.scopes.join(', ')}] (needs ${scopes.join(', ')})`, { method: 'POST', path, key: lacking.key, json: {} }]);
      for (const [status, why, spec] of cases) {
        const ex = await ctx.send(spec);
        ctx.expect(ex.response.status === status && hasError(ex), { expected: `${status} { error } for POST /sessions/{sessionId}/notes/regenerate ${why}`, actual: got(ex), exchange: ex });
      }
      await ctx.mock!.fault({ kind: 'rate-limited', count: 1 });
      const limited = await ctx.send({ method: 'POST', path, key: ctx.keys.main, json: {}, acceptRateLimited: true });
      ctx.expect(limited.response.status === 429 && hasError(limited), { expected: '429 { error } for POST /sessions/{sessionId}/notes/regenerate when rate limited', actual: got(limited), exchange: limited });
    },
  },
];
