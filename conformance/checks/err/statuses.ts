import type { CheckContext, CheckDef } from '../../run/model.ts';
import type { Operation } from '../../../spec/runtime/contract.ts';
import type { RequestSpec } from '../../target/http.ts';
import type { Exchange } from '../../../judge/define.ts';
import { tinyPdf } from '../../run/fixtures.ts';
import type { Json, JsonObject } from '../../../spec/runtime/json-pointer.ts';
import {
  createAppointment,
  farFuture,
  uploadDocument,
  type Obj,
  objOf,
  body,
  got,
  fillPath,
  unusedNpi,
  limitUploads,
  readableError,
} from '../support/common.ts';
import { jsonWrites, own, opLabel, mockSession, pathParams, bodyFor, keyWithout, malformed, WRITE_METHODS } from '../support/operations.ts';
import { check } from '../support/define.ts';
import { oversizedJson } from '../support/error-bodies.ts';

export async function external_id_conflict_body(ctx: CheckContext): Promise<void> {
  const message = (ctx.contract.resolve('#/components/schemas/ExternalIdConflict') as { properties: { error: { const: string } } })
    .properties.error.const;
  const { patient } = await own(ctx);
  const pid = String(patient.id);
  const p = await ctx.fixtures.createPatient('conflict');
  const a = await createAppointment(ctx, pid, { start_at: farFuture() });
  const d = await uploadDocument(ctx, pid);
  const cases: Array<[string, Obj, () => Promise<Exchange>]> = [
    [
      'patient',
      p,
      () =>
        ctx.send({
          method: 'POST',
          path: '/patients',
          key: ctx.keys.main,
          json: { name: 'Conformance conflict', external_id: p.external_id },
        }),
    ],
    ['appointment', objOf(a), () => createAppointment(ctx, pid, { start_at: farFuture(), external_id: objOf(a).external_id })],
    ['document', objOf(d), () => uploadDocument(ctx, pid, String(objOf(d).external_id))],
  ];
  for (const [what, first, again] of cases) {
    if (
      !ctx.expect(typeof first.id === 'string' && typeof first.external_id === 'string', {
        expected: `a ${what} created to collide with`,
        actual: JSON.stringify(first),
        says: 'Patients, appointments and documents accept an optional external_id on creation.',
      })
    )
      continue;
    const ex = await again();
    const b = body(ex);
    const existing = b.existing as Obj | undefined;
    // Nothing beside the quoted fields only by the kit's reading of the body as closed (GEN-011): --profile all.
    const closed =
      ctx.profile === 'documented' ||
      (Object.keys(b).sort().join() === 'error,existing' &&
        Object.keys(existing ?? {})
          .sort()
          .join() === 'external_id,id');
    ctx.expect(
      ex.response.status === 409 &&
        (!readableError(ex) ||
          (b.error === message && !!existing && existing.id === first.id && existing.external_id === first.external_id && closed)),
      {
        expected: `409 { error: ${JSON.stringify(message)}, existing: { id: ${JSON.stringify(first.id)}, external_id: ${JSON.stringify(first.external_id)} } } for a second ${what} with the same external_id`,
        actual: got(ex),
        exchange: ex,
        says: "{ error: 'external_id already in use', existing: { id, external_id } }",
      },
    );
  }
}

export async function json_write_wrong_content_type_415(ctx: CheckContext): Promise<void> {
  const { targets, left } = await jsonWrites(ctx);
  if (!targets.length) ctx.skip(`no JSON write to send (${left.join(', ')} need --mock or are unknown to the check)`);
  for (const t of targets)
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const ex = await ctx.send({
        method: t.op.method,
        path: t.path,
        key: ctx.keys.main,
        bodyText: JSON.stringify(t.body()),
        headers: { 'Content-Type': type },
      });
      ctx.expect(ex.response.status === 415, {
        expected: `415 for ${opLabel(t.op)} with a JSON body sent as Content-Type: ${type}`,
        actual: got(ex),
        exchange: ex,
        says: 'kit: a JSON write sent as another Content-Type is refused 415 (the document says what clients send, not the status)',
      });
    }
  // The upload is the one multipart/form-data write: a patient create sent as a form is refused too (moved here from
  // upload_is_multipart_form_data, GEN-007: the document says what clients send, not what a server does with a form).
  const form = await ctx.send({
    method: 'POST',
    path: '/patients',
    key: ctx.keys.main,
    form: { fields: { name: 'Conformance multipart', external_id: ctx.externalId('form-patient') } },
  });
  ctx.expect(form.response.status === 415, {
    expected: '415 for POST /patients sent as multipart/form-data (only the upload is)',
    actual: got(form),
    exchange: form,
    says: 'kit: only the upload takes multipart/form-data; a JSON write sent as a form is refused 415',
  });
}

export async function json_body_too_large_413(ctx: CheckContext): Promise<void> {
  const sent = await oversizedJson(ctx);
  if (!sent.length) ctx.skip('no JSON write to send');
  // No exchange: its curl line would carry the whole oversized body.
  for (const s of sent)
    ctx.expect(s.ex.response.status === 413, {
      message: `${s.op.method} ${s.path} with a ${s.size}-byte JSON body`,
      expected: `413 for ${opLabel(s.op)} with a JSON body of ${s.size} bytes (more than the upload's x-max-bytes, the largest body the document allows)`,
      actual: got(s.ex),
      says: 'kit: a JSON body larger than the service accepts is refused 413 (status not shown)',
    });
}

/** What the per-operation probes address: the run's own patient, the ids that exist, the organization's providers. */
interface StatusRun {
  pid: string;
  /** Ids that exist (the run's own) where a request must get past the lookup; random ones otherwise. */
  existing: Record<'patientId' | 'appointmentId' | 'sessionId', string | undefined>;
  providers: Obj[];
}

/** The check's demand that `op` answers `status` (`why`: the fault sent), its words in the check (demands.test.ts). */
type StatusDemand = (op: Operation, status: number, why: string, ex: Exchange, note?: string) => void;

/** A body `op` takes (the upload: a small PDF), so that only the fault under test can be what it is refused for. */
function validBody(ctx: CheckContext, op: Operation, pid: string): Pick<RequestSpec, 'json' | 'form'> {
  return op.operationId === 'uploadDocument'
    ? {
        form: {
          fields: { external_id: ctx.externalId('status') },
          file: { name: 'status.pdf', type: 'application/pdf', bytes: tinyPdf() },
        },
      }
    : op.jsonBodyPointer
      ? { json: bodyFor(ctx, op, pid) ?? {} }
      : {};
}

/** 401 and 403 (ids that do not exist, an empty body: nothing can be written even if the key were taken). */
async function refusedAccess(ctx: CheckContext, op: Operation, demand: StatusDemand): Promise<void> {
  const empty = op.jsonBodyPointer ? { json: {} } : {};
  demand(op, 401, 'without a key', await ctx.send({ method: op.method, path: fillPath(op, {}), ...empty }));
  const lacking = keyWithout(ctx, op.scopes);
  if (lacking)
    demand(
      op,
      403,
      `with a key of scopes [${lacking.scopes.join(', ')}]`,
      await ctx.send({ method: op.method, path: fillPath(op, {}), key: lacking.key, ...empty }),
    );
}

/** 404 where the path names a resource (well-formed ids nothing has), or a lookup misses. */
async function notFound(ctx: CheckContext, op: Operation, run: StatusRun, demand: StatusDemand): Promise<void> {
  // Each request built as it is sent (its random ids and external_ids drawn in the order they always were).
  const misses: Array<[why: string, request: () => RequestSpec]> = [];
  const missing = pathParams(op).includes('documentId') ? { patientId: run.pid } : {};
  if (pathParams(op).length)
    misses.push([
      'for ids that name nothing',
      () => ({ method: op.method, path: fillPath(op, missing), key: ctx.keys.main, ...validBody(ctx, op, run.pid) }),
    ]);
  if (ctx.contract.queryParam(op, 'external_id'))
    misses.push([
      'for an external_id lookup that matches nothing',
      () => ({ method: 'GET', path: fillPath(op, run.existing), key: ctx.keys.main, query: { external_id: `${ctx.prefix}no-such` } }),
    ]);
  if (ctx.contract.queryParam(op, 'npi'))
    misses.push([
      'for an npi lookup that matches nothing',
      () => ({ method: 'GET', path: op.template, key: ctx.keys.main, query: { npi: unusedNpi(run.providers.map((p) => String(p.npi))) } }),
    ]);
  for (const [why, request] of misses) demand(op, 404, why, await ctx.send(request()));
}

/**
 * The request a 400 is due for (and why): a path id of the wrong form, a query value out of the spec, or a body missing
 * its required fields.
 */
function badRequest(ctx: CheckContext, op: Operation, run: StatusRun): { spec: RequestSpec; why: string } | undefined {
  const params = pathParams(op);
  const enumParam = op.parameters.find(
    (p) => p.in === 'query' && Array.isArray((ctx.contract.deref(p.schema as Json) as JsonObject | undefined)?.enum),
  );
  if (params.length) {
    const p = params.at(-1)!;
    const path = fillPath(op, { ...run.existing, [p]: malformed(p) });
    return {
      spec: { method: op.method, path, key: ctx.keys.main, ...validBody(ctx, op, run.pid) },
      why: `with ${p} ${JSON.stringify(malformed(p))}`,
    };
  }
  if (ctx.contract.queryParam(op, 'page'))
    return { spec: { method: op.method, path: op.template, key: ctx.keys.main, query: { page: 0 } }, why: 'with page=0' };
  if (enumParam) {
    const query = { [String(enumParam.name)]: 'crc-not-in-the-enum' };
    return {
      spec: { method: op.method, path: op.template, key: ctx.keys.main, query },
      why: `with ${String(enumParam.name)} outside its enum`,
    };
  }
  if (op.jsonBodyPointer)
    return { spec: { method: op.method, path: op.template, key: ctx.keys.main, json: {} }, why: 'with an empty body' };
  return undefined;
}

/** 415 on the upload sent as JSON, and on JSON writes sent as text/plain (against the run's own resources). */
async function unsupportedMediaType(ctx: CheckContext, op: Operation, run: StatusRun, demand: StatusDemand): Promise<void> {
  const writable = pathParams(op).every((p) => run.existing[p as keyof StatusRun['existing']] !== undefined);
  if (op.operationId === 'uploadDocument') {
    const ex = await ctx.send({
      method: 'POST',
      path: fillPath(op, run.existing),
      key: ctx.keys.main,
      json: { external_id: ctx.externalId('status-json') },
    });
    demand(op, 415, 'with a JSON body instead of multipart/form-data', ex);
  } else if (op.jsonBodyPointer && WRITE_METHODS.includes(op.method) && writable) {
    const ex = await ctx.send({
      method: op.method,
      path: fillPath(op, run.existing),
      key: ctx.keys.main,
      bodyText: JSON.stringify(bodyFor(ctx, op, run.pid) ?? {}),
      headers: { 'Content-Type': 'text/plain' },
    });
    demand(op, 415, 'with a JSON body sent as text/plain', ex);
  }
}

/** 429: every operation, when the mock can inject it (the limiter's answer to the next request). */
async function rateLimited(ctx: CheckContext, op: Operation, demand: StatusDemand): Promise<void> {
  if (!ctx.mock) return;
  const empty = op.jsonBodyPointer ? { json: {} } : {};
  await ctx.mock.fault({ kind: 'rate-limited', count: 1 });
  demand(
    op,
    429,
    'when rate limited',
    await ctx.send({ method: op.method, path: fillPath(op, {}), key: ctx.keys.main, ...empty, acceptRateLimited: true }),
  );
}

/** Per operation: 401 and 403, 404, 400, 415 (and the upload's 413), 429; then 413 for each oversized JSON write. */
export async function per_operation_error_statuses(ctx: CheckContext): Promise<void> {
  const { patient, appointment } = await own(ctx);
  const pid = String(patient.id);
  const sessionId = await mockSession(ctx);
  const run: StatusRun = {
    pid,
    existing: { patientId: pid, appointmentId: String(appointment.id), sessionId },
    providers: await ctx.fixtures.providers(),
  };
  const check: StatusDemand = (op, status, why, ex, note = '') =>
    ctx.expect(ex.response.status === status, {
      expected: `${status} for ${opLabel(op)} ${why}${note}`,
      actual: got(ex),
      exchange: ex,
      says: 'kit: per-endpoint status codes beyond the error table (ERR-015)',
    });
  for (const op of ctx.contract.operations) {
    await refusedAccess(ctx, op, check);
    await notFound(ctx, op, run, check);
    const bad = badRequest(ctx, op, run);
    if (bad) {
      const ex = await ctx.send(bad.spec);
      ctx.expect(ex.response.status === 400, {
        expected: `400 for ${opLabel(op)} ${bad.why}`,
        actual: got(ex),
        exchange: ex,
        says: 'kit: per-endpoint status codes beyond the error table (ERR-015): 400 for a bad path id, query value or body',
      });
    }
    await unsupportedMediaType(ctx, op, run, check);
    // The upload checks' own oversized upload (one per run: it is 10 MB).
    const big = op.operationId === 'uploadDocument' ? (await limitUploads(ctx)).oversize : undefined;
    if (big)
      ctx.expect(big.response.status === 413, {
        expected: `413 for ${opLabel(op)} with a file one byte past x-max-bytes`,
        actual: got(big),
        exchange: big,
        says: 'kit: per-endpoint status codes beyond the error table (ERR-015): 413 for a file too large',
      });
    await rateLimited(ctx, op, check);
  }
  for (const s of await oversizedJson(ctx))
    ctx.expect(s.ex.response.status === 413, {
      message: `${s.op.method} ${s.path} with a ${s.size}-byte JSON body`,
      expected: `413 for ${opLabel(s.op)} with an oversized JSON body`,
      actual: got(s.ex),
      says: 'kit: per-endpoint status codes beyond the error table (ERR-015): 413 for an oversized JSON body',
    });
}

export const checks: CheckDef[] = [
  check(external_id_conflict_body, { rule: 'ERR-006', needs: { write: true } }),
  check(json_write_wrong_content_type_415, { rule: 'ERR-013', provenance: 'assumed', needs: { write: true } }),
  check(json_body_too_large_413, { rule: 'ERR-014', provenance: 'assumed', needs: { write: true } }),
  check(per_operation_error_statuses, { rule: 'ERR-015', provenance: 'assumed', needs: { write: true }, exclusive: true }),
];
