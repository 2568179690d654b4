// ERR: errors. Validation 400 with details, status codes per operation, 413/415, other organizations' ids, and the
// response checks applied to every exchange (documented status, no 5xx).
import { randomUUID } from 'node:crypto';
import type { CheckContext, CheckDef } from '../model.ts';
import type { Operation } from '../contract.ts';
import type { Exchange, RequestSpec } from '../http.ts';
import { tinyPdf } from '../fixtures.ts';
import type { Json, JsonObject } from '../../spec/runtime/json-pointer.ts';
import {
  uploadLimits,
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
  isValidationError,
  readableError,
  listOf,
  negative,
} from './support/common.ts';
import { jsonWrites, own, opLabel, mockSession, pathParams, bodyFor, keyWithout, malformed, WRITE_METHODS } from './support/operations.ts';
import { documented, errorBodyFindings } from './support/responses.ts';
import { check, type InspectedExchange, type InspectEnv, type Finding, type ResponseCheckDef, responseCheck } from './support/define.ts';

/** One request per JSON write with a body past the largest body the document mentions (the upload's x-max-bytes). */
function oversizedJson(ctx: CheckContext) {
  return ctx.fixtures.shared('oversized-json', async () => {
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

const opName = (op: Operation) => `${op.method} ${op.template} (${op.operationId})`;

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
      });
    }
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
    });
}

export async function per_operation_error_statuses(ctx: CheckContext): Promise<void> {
  const { patient, appointment } = await own(ctx);
  const pid = String(patient.id);
  const sessionId = await mockSession(ctx);
  const providers = await ctx.fixtures.providers();
  const check = (op: Operation, status: number, why: string, ex: Exchange, note = '') =>
    ctx.expect(ex.response.status === status, {
      expected: `${status} for ${opLabel(op)} ${why}${note}`,
      actual: got(ex),
      exchange: ex,
    });
  // Ids that exist (the run's own) where a request must get past the lookup; random ones otherwise.
  const existing = { patientId: pid, appointmentId: String(appointment.id), sessionId };
  const missing = (op: Operation) => (pathParams(op).includes('documentId') ? { patientId: pid } : {});
  const validBody = (op: Operation): Pick<RequestSpec, 'json' | 'form'> =>
    op.operationId === 'uploadDocument'
      ? {
          form: {
            fields: { external_id: ctx.externalId('status') },
            file: { name: 'status.pdf', type: 'application/pdf', bytes: tinyPdf() },
          },
        }
      : op.jsonBodyPointer
        ? { json: bodyFor(ctx, op, pid) ?? {} }
        : {};
  for (const op of ctx.contract.operations) {
    const empty = op.jsonBodyPointer ? { json: {} } : {};
    // 401 and 403 (ids that do not exist, an empty body: nothing can be written even if the key were taken).
    check(op, 401, 'without a key', await ctx.send({ method: op.method, path: fillPath(op, {}), ...empty }));
    const lacking = keyWithout(ctx, op.scopes);
    if (lacking)
      check(
        op,
        403,
        `with a key of scopes [${lacking.scopes.join(', ')}]`,
        await ctx.send({ method: op.method, path: fillPath(op, {}), key: lacking.key, ...empty }),
      );
    // 404 where the path names a resource (well-formed ids nothing has), or a lookup misses.
    if (pathParams(op).length)
      check(
        op,
        404,
        'for ids that name nothing',
        await ctx.send({ method: op.method, path: fillPath(op, missing(op)), key: ctx.keys.main, ...validBody(op) }),
      );
    if (ctx.contract.queryParam(op, 'external_id'))
      check(
        op,
        404,
        'for an external_id lookup that matches nothing',
        await ctx.send({ method: 'GET', path: fillPath(op, existing), key: ctx.keys.main, query: { external_id: `${ctx.prefix}no-such` } }),
      );
    if (ctx.contract.queryParam(op, 'npi'))
      check(
        op,
        404,
        'for an npi lookup that matches nothing',
        await ctx.send({
          method: 'GET',
          path: op.template,
          key: ctx.keys.main,
          query: { npi: unusedNpi(providers.map((p) => String(p.npi))) },
        }),
      );
    // 400: a path id of the wrong form, a query value out of the spec, or a body missing its required fields.
    const params = pathParams(op);
    const enumParam = op.parameters.find(
      (p) => p.in === 'query' && Array.isArray((ctx.contract.deref(p.schema as Json) as JsonObject | undefined)?.enum),
    );
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
      ctx.expect(ex.response.status === 400, {
        expected: `400 for ${opLabel(op)} ${why}`,
        actual: got(ex),
        exchange: ex,
      });
    }
    // 415 and 413 on JSON writes and the upload (JSON writes against the run's own resources).
    const writable = pathParams(op).every((p) => existing[p as keyof typeof existing] !== undefined);
    if (op.operationId === 'uploadDocument') {
      const ex = await ctx.send({
        method: 'POST',
        path: fillPath(op, existing),
        key: ctx.keys.main,
        json: { external_id: ctx.externalId('status-json') },
      });
      check(op, 415, 'with a JSON body instead of multipart/form-data', ex);
      // The upload checks' own oversized upload (one per run: it is 10 MB).
      const big = (await limitUploads(ctx)).oversize;
      if (big)
        ctx.expect(big.response.status === 413, {
          expected: `413 for ${opLabel(op)} with a file one byte past x-max-bytes`,
          actual: got(big),
          exchange: big,
        });
    } else if (op.jsonBodyPointer && WRITE_METHODS.includes(op.method) && writable) {
      const ex = await ctx.send({
        method: op.method,
        path: fillPath(op, existing),
        key: ctx.keys.main,
        bodyText: JSON.stringify(bodyFor(ctx, op, pid) ?? {}),
        headers: { 'Content-Type': 'text/plain' },
      });
      check(op, 415, 'with a JSON body sent as text/plain', ex);
    }
    // 429: every operation, when the mock can inject it (the limiter's answer to the next request).
    if (ctx.mock) {
      await ctx.mock.fault({ kind: 'rate-limited', count: 1 });
      check(
        op,
        429,
        'when rate limited',
        await ctx.send({ method: op.method, path: fillPath(op, {}), key: ctx.keys.main, ...empty, acceptRateLimited: true }),
      );
    }
  }
  for (const s of await oversizedJson(ctx))
    ctx.expect(s.ex.response.status === 413, {
      message: `${s.op.method} ${s.path} with a ${s.size}-byte JSON body`,
      expected: `413 for ${opLabel(s.op)} with an oversized JSON body`,
      actual: got(s.ex),
    });
}

export async function error_text_non_empty_string(ctx: CheckContext): Promise<void> {
  const patient = await ctx.fixtures.patient();
  const cases: Array<[string, RequestSpec]> = [
    ['401 without a key', { method: 'GET', path: '/patients' }],
    ['401 with an invalid key', { method: 'GET', path: '/patients', rawKey: 'crc-not-a-valid-key-0000000000' }],
    ['404 for a patient that does not exist', { method: 'GET', path: `/patients/${'9'.repeat(19)}`, key: ctx.keys.main }],
    [
      '404 for a lookup that misses',
      { method: 'GET', path: '/patients', key: ctx.keys.main, query: { external_id: `${ctx.prefix}no-such` } },
    ],
    ['404 for a note that does not exist', { method: 'GET', path: `/notes/${randomUUID()}`, key: ctx.keys.main }],
    ['400 for page=0', { method: 'GET', path: '/patients', key: ctx.keys.main, query: { page: 0 } }],
    ['400 for a patientId of the wrong form', { method: 'GET', path: '/patients/abc', key: ctx.keys.main }],
    ['400 for an unknown export format', { method: 'GET', path: '/notes/export', key: ctx.keys.main, query: { format: 'crc-unknown' } }],
    [
      '404 for the documents of a patient that does not exist',
      { method: 'GET', path: `/patients/${'9'.repeat(19)}/documents`, key: ctx.keys.main },
    ],
  ];
  const lacking = keyWithout(ctx, ['patients:read']);
  if (lacking)
    cases.push(['403 for a key without patients:read', { method: 'GET', path: `/patients/${String(patient.id)}`, key: lacking.key }]);
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
}

export async function malformed_path_id_400(ctx: CheckContext): Promise<void> {
  const patient = await ctx.fixtures.patient();
  const pid = String(patient.id);
  for (const op of ctx.contract.operations) {
    if (op.method !== 'GET' && ctx.readOnly) continue;
    const params = pathParams(op);
    for (const p of params) {
      // The other ids well formed (the run's own patient), the body valid: only the id is wrong.
      const path = fillPath(op, { patientId: pid, [p]: malformed(p) });
      const spec: RequestSpec = { method: op.method, path, key: ctx.keys.main };
      if (op.operationId === 'uploadDocument')
        spec.form = {
          fields: { external_id: ctx.externalId('badid') },
          file: { name: 'badid.pdf', type: 'application/pdf', bytes: tinyPdf() },
        };
      else if (op.jsonBodyPointer) spec.json = bodyFor(ctx, op, pid) ?? {};
      const ex = await ctx.send(spec);
      ctx.expect(isValidationError(ex), {
        expected: `400 { error, details } (not 404) for ${opLabel(op)} with ${p} ${JSON.stringify(malformed(p))}`,
        actual: got(ex),
        exchange: ex,
      });
    }
  }
}

export async function rate_limited_429(ctx: CheckContext): Promise<void> {
  const message = (ctx.contract.resolve('#/components/schemas/RateLimitError') as { properties: { error: { const: string } } }).properties
    .error.const;
  await ctx.mock!.fault({ kind: 'rate-limited', count: 1 });
  const ex = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main, acceptRateLimited: true });
  ctx.expect(ex.response.status === 429 && (!readableError(ex) || body(ex).error === message), {
    expected: `429 { error: "${message}" }`,
    actual: got(ex),
    exchange: ex,
  });
  const ra = ex.response.headers['retry-after'];
  ctx.expect(ra !== undefined && (/^\d+$/.test(ra) || !Number.isNaN(Date.parse(ra))), {
    expected: 'Retry-After: delta-seconds or an HTTP date',
    actual: String(ra),
    exchange: ex,
  });
}

export function not_a_server_error(ex: InspectedExchange): Finding | undefined {
  const s = ex.response.status;
  if (s < 500 || documented(ex.operation, s)) return;
  return { expected: `no 5xx from ${opName(ex.operation)}`, actual: `${s} ${ex.response.text.slice(0, 200)}`, where: 'response.status' };
}

export function status_code_conformance(ex: InspectedExchange): Finding | undefined {
  const s = ex.response.status;
  if (documented(ex.operation, s)) return;
  return {
    expected: `one of ${[...ex.operation.responses.keys()].join(', ')} for ${opName(ex.operation)}`,
    actual: String(s),
    where: 'response.status',
  };
}

export async function other_org_ids_not_found(ctx: CheckContext): Promise<void> {
  // Ids the other organization can see must not resolve with this organization's key (reads only).
  const other = ctx.keys.otherOrg!;
  for (const [list, detail] of [
    ['/patients', '/patients/'],
    ['/appointments', '/appointments/'],
    ['/notes', '/notes/'],
    ['/providers', '/providers/'],
  ] as const) {
    const ex = await ctx.send({ method: 'GET', path: list, key: other, query: { limit: 3 } });
    for (const item of listOf(ex).slice(0, 2)) {
      const mine = await ctx.send({ method: 'GET', path: `${detail}${String(item.id)}`, key: ctx.keys.main });
      ctx.expect(mine.response.status === 404, {
        expected: `404 for another organization's ${detail}${String(item.id)}`,
        actual: got(mine),
        exchange: mine,
      });
    }
  }
}

export function missing_required_rejected(ctx: CheckContext): Promise<void> {
  return negative(['missing-required'])(ctx);
}

export function wrong_type_rejected(ctx: CheckContext): Promise<void> {
  return negative(['wrong-type'])(ctx);
}

export function out_of_bounds_rejected(ctx: CheckContext): Promise<void> {
  return negative(['out-of-bounds'])(ctx);
}

export async function malformed_json_rejected(ctx: CheckContext): Promise<void> {
  const ex = await ctx.send({
    method: 'POST',
    path: '/patients',
    key: ctx.keys.main,
    bodyText: '{"name": "broken',
    headers: { 'Content-Type': 'application/json' },
  });
  ctx.expect(ex.response.status === 400, { expected: '400 for a malformed JSON body', actual: got(ex), exchange: ex });
}

export const checks: CheckDef[] = [
  check(external_id_conflict_body, { rule: 'ERR-006', needs: { write: true } }),
  check(json_write_wrong_content_type_415, { rule: 'ERR-013', provenance: 'assumed', needs: { write: true } }),
  check(json_body_too_large_413, { rule: 'ERR-014', provenance: 'assumed', needs: { write: true } }),
  check(per_operation_error_statuses, { rule: 'ERR-015', provenance: 'assumed', needs: { write: true }, exclusive: true }),
  check(error_text_non_empty_string, { rule: 'ERR-016', provenance: 'assumed' }),
  check(malformed_path_id_400, { rule: 'ERR-019', provenance: 'assumed' }),
  check(rate_limited_429, { rule: 'ERR-008', covers: ['RATE-002', 'RATE-003', 'RATE-004'], needs: { mock: true } }),
  check(other_org_ids_not_found, { rule: 'ERR-004', needs: { keys: ['otherOrg'] } }),
  check(missing_required_rejected, { rule: 'ERR-001', needs: { write: true } }),
  check(wrong_type_rejected, { rule: 'ERR-001', needs: { write: true } }),
  check(out_of_bounds_rejected, { rule: 'ERR-001', covers: ['LIM-002', 'LIM-003', 'LIM-004'], needs: { write: true } }),
  check(malformed_json_rejected, { rule: 'ERR-012', provenance: 'assumed', needs: { write: true } }),
];

/** A 400's details: "error plus details, a map of field errors" (the status is the sending check's, the rest GEN-005's). */
export function validation_error_details(ex: InspectedExchange, { schemas }: InspectEnv): Finding | undefined {
  if (ex.response.status !== 400) return;
  const f = errorBodyFindings(ex, schemas);
  if (!f?.json || !f.owned.details.length) return;
  return { expected: '400 { error, details }: details a map of field errors', actual: f.owned.details.join('; ') };
}

export const responseChecks: ResponseCheckDef[] = [
  responseCheck(validation_error_details, { rule: 'ERR-001', reads: ['response.headers', 'response.body'] }),
  responseCheck(not_a_server_error, { rule: 'ERR-018', reads: [] }),
  responseCheck(status_code_conformance, { rule: 'ERR-017', reads: [] }),
];
