// GEN: general rules. {data} envelope, content types, tenancy, unknown fields, JSON writes, ids as digit strings.
import { tinyPdf } from '../run/fixtures.ts';
import type { JsonObject } from '../../spec/runtime/json-pointer.ts';
import type { CheckContext, CheckDef } from '../run/model.ts';
import { jsonWrites, opLabel, own, readablePathValues, pathParams, DIGITS } from './support/operations.ts';
import {
  is2xx,
  got,
  uploadDocument,
  is4xx,
  listOf,
  fillPath,
  objOf,
  dataOf,
  createAppointment,
  farFuture,
  negative,
  sameId,
  serverFailed,
  json,
} from './support/common.ts';
import { postPatient, getPatient, createdOk, getAppointment } from './support/resources.ts';
import { check } from './support/define.ts';

export async function write_requests_json_content_type(ctx: CheckContext): Promise<void> {
  const { targets, left } = await jsonWrites(ctx);
  for (const t of targets)
    for (const type of ['application/json', 'application/json; charset=utf-8']) {
      const ex = await ctx.send({
        method: t.op.method,
        path: t.path,
        key: ctx.keys.main,
        json: t.body(),
        headers: { 'Content-Type': type },
      });
      ctx.expect(is2xx(ex), {
        expected: `2xx for ${opLabel(t.op)} with a valid body sent as Content-Type: ${type}`,
        actual: got(ex),
        exchange: ex,
        says: 'Write requests (POST, PATCH, PUT) send Content-Type: application/json',
      });
    }
  if (!targets.length) ctx.skip(`no JSON write to send (${left.join(', ')} need --mock or are unknown to the check)`);
}

export async function upload_is_multipart_form_data(ctx: CheckContext): Promise<void> {
  const { patient } = await own(ctx);
  const pid = String(patient.id);
  const ok = await uploadDocument(ctx, pid);
  ctx.expect(is2xx(ok), {
    expected: '2xx for a document upload sent as multipart/form-data',
    actual: got(ok),
    exchange: ok,
    says: 'except document upload, which is multipart/form-data',
  });
  // The same upload as JSON (the file base64-encoded) is not taken as an upload.
  const asJson = await ctx.send({
    method: 'POST',
    path: `/patients/${pid}/documents`,
    key: ctx.keys.main,
    json: { external_id: ctx.externalId('json-upload'), file: Buffer.from(tinyPdf()).toString('base64') },
  });
  ctx.expect(is4xx(asJson), {
    expected: 'a 4xx for a document upload sent as application/json (the upload is multipart/form-data)',
    actual: got(asJson),
    exchange: asJson,
    says: ['except document upload, which is multipart/form-data', 'file (required, binary)'],
  });
  // Whether a JSON write sent as multipart/form-data is refused the document does not say (it says what clients
  // send): the kit's reading, judged by json_write_wrong_content_type_415 (ERR-013, assumed).
}

export async function response_objects_closed(ctx: CheckContext): Promise<void> {
  const values = await readablePathValues(ctx);
  if (!ctx.readOnly) {
    const docs = await ctx.send({ method: 'GET', path: `/patients/${values.patientId}/documents`, key: ctx.keys.main });
    if (!listOf(docs).length) await uploadDocument(ctx, values.patientId!);
  }
  for (const op of ctx.contract.operations) {
    const ok = op.responses.get('200');
    if (
      op.method !== 'GET' ||
      !(ok?.node.content as JsonObject | undefined)?.['application/json'] ||
      pathParams(op).some((p) => !values[p])
    )
      continue;
    const query = ctx.contract.queryParam(op, 'limit') ? { limit: 100 } : undefined;
    const ex = await ctx.send({ method: 'GET', path: fillPath(op, values), key: ctx.keys.main, query });
    // The spec's own schema (ajv), only its closedness and required fields: other shape errors are GEN-003's.
    const found =
      ex.response.json === undefined
        ? []
        : ctx.schemas.validate(`${ok!.pointer}/content/application~1json/schema`, ex.response.json, ['additionalProperties', 'required']);
    ctx.expect(ex.response.status === 200 && ex.response.json !== undefined && !found.length, {
      expected: `200 whose objects hold only the fields of the spec (closed), required fields present, for GET ${op.template}`,
      actual: ex.response.status === 200 ? found.join('; ') || got(ex) : got(ex),
      exchange: ex,
      says: "kit: the field tables read as exhaustive, each object closed (GEN-011); its required fields are the kit's",
    });
  }
}

export async function patient_id_digit_string(ctx: CheckContext): Promise<void> {
  const list = await ctx.send({ method: 'GET', path: '/patients', key: ctx.keys.main, query: { limit: 20 } });
  // Raw text too: a number would lose digits in JSON.parse before any schema sees it.
  ctx.expect(!/"id"\s*:\s*\d/.test(list.response.text), {
    expected: 'every patient "id" a JSON string',
    actual: list.response.text.slice(0, 300),
    exchange: list,
    says: 'Patient id is a very large integer serialized as a string.',
  });
  for (const p of listOf(list))
    ctx.expect(typeof p.id === 'string' && DIGITS.test(p.id), {
      expected: 'id a string of digits',
      actual: JSON.stringify(p.id),
      exchange: list,
      says: ['Patient id is a very large integer serialized as a string.', 'opaque; digits only'],
    });
  const p = await ctx.fixtures.patient();
  const one = await ctx.send({ method: 'GET', path: `/patients/${String(p.id)}`, key: ctx.keys.main });
  ctx.expect(typeof objOf(one).id === 'string' && !/"id"\s*:\s*\d/.test(one.response.text), {
    expected: 'id a JSON string',
    actual: got(one),
    exchange: one,
    says: 'Patient id is a very large integer serialized as a string.',
  });
}

export async function success_wrapped_in_data(ctx: CheckContext): Promise<void> {
  const patient = await ctx.fixtures.patient();
  const note = (await ctx.fixtures.notes())[0];
  const provider = (await ctx.fixtures.providers())[0];
  const values = {
    patientId: String(patient.id),
    noteId: note?.id as string,
    sessionId: note?.session_id as string,
    providerId: provider?.id as string,
  };
  for (const op of ctx.contract.operations) {
    if (op.method !== 'GET' || op.operationId === 'exportNotes') continue;
    if (/\{(appointmentId|documentId)\}/.test(op.template)) continue;
    if (!note && /\{(noteId|sessionId)\}/.test(op.template)) continue; // no notes to read on this target
    const ex = await ctx.send({ method: 'GET', path: fillPath(op, values), key: ctx.keys.main });
    if (serverFailed(ex)) continue; // GEN-003 is about successful answers; the failure is the operation's own rule
    ctx.expect(ex.response.status === 200 && dataOf(ex) !== undefined, {
      expected: `200 { data: ... } for GET ${op.template}`,
      actual: got(ex),
      exchange: ex,
      says: 'Successful responses are wrapped as { data: ... }',
    });
  }
}

export async function one_key_covers_every_provider(ctx: CheckContext): Promise<void> {
  const providers = (await ctx.fixtures.providers()).filter((p) => typeof p.id === 'string');
  if (providers.length < 2)
    return ctx.skip(
      `the organization lists ${providers.length} provider(s): at least 2 are needed to assign records to different providers`,
    );
  // The key owner's provider last (when known), so the others are tried first.
  const order = [
    ...providers.filter((p) => p.id !== ctx.keys.mainProvider),
    ...providers.filter((p) => p.id === ctx.keys.mainProvider),
  ].slice(0, 10);
  for (const prv of order) {
    const pid = String(prv.id);
    const p = await postPatient(ctx, { name: 'Conformance provider record', provider_id: pid }, 'per-provider');
    if (
      !ctx.expect(is2xx(p) && objOf(p).provider_id === pid, {
        expected: `2xx with provider_id ${pid}`,
        actual: got(p),
        exchange: p,
        says: 'One key covers every provider of the organization; records are assigned to providers through the provider_id field.',
      })
    )
      continue;
    const read = await getPatient(ctx, objOf(p).id);
    ctx.expect(read.response.status === 200 && objOf(read).provider_id === pid, {
      expected: `the same key reads patient ${String(objOf(p).id)} of provider ${pid}, with that provider_id`,
      actual: got(read),
      exchange: read,
      says: 'One key covers every provider of the organization; records are assigned to providers through the provider_id field.',
    });
    if (prv !== order[0]) continue;
    // And an appointment of that provider (not the key's).
    const a = await createAppointment(ctx, String(objOf(p).id), { provider_id: pid, start_at: farFuture() });
    if (
      !ctx.expect(createdOk(a) && objOf(a).provider_id === pid, {
        expected: `2xx with an appointment of provider ${pid}`,
        actual: got(a),
        exchange: a,
        says: 'One key covers every provider of the organization; records are assigned to providers through the provider_id field.',
      })
    )
      continue;
    const ra = await getAppointment(ctx, objOf(a).id);
    ctx.expect(ra.response.status === 200 && objOf(ra).provider_id === pid, {
      expected: `the same key reads the appointment of provider ${pid}`,
      actual: got(ra),
      exchange: ra,
      says: 'One key covers every provider of the organization; records are assigned to providers through the provider_id field.',
    });
  }
}

export async function other_org_patient_not_found(ctx: CheckContext): Promise<void> {
  const other = ctx.keys.otherOrg!;
  // A patient of its own: the PATCH and DELETE below must change nothing another check reads, should the server act.
  const mine = await ctx.fixtures.createPatient('tenancy');
  const id = String(mine.id);
  const foreignPhone = '+1-555-0000';
  for (const [method, path, json] of [
    ['GET', `/patients/${id}`, undefined],
    ['PATCH', `/patients/${id}`, { phone: foreignPhone }],
    ['GET', `/patients/${id}/documents`, undefined],
    ['DELETE', `/patients/${id}`, undefined],
  ] as const) {
    const ex = await ctx.send({ method, path, key: other, json });
    ctx.expect(ex.response.status === 404, {
      expected: `404 for ${method} ${path} with another organization's key`,
      actual: got(ex),
      exchange: ex,
      says: [
        'All data is scoped to the organization that owns the API key.',
        'resource does not exist, or belongs to someone else (the two cases are indistinguishable)',
      ],
    });
  }
  const lookup = await ctx.send({ method: 'GET', path: '/patients', key: other, query: { external_id: String(mine.external_id) } });
  const unseen = lookup.response.status === 404 || (is2xx(lookup) && !listOf(lookup).some((p) => sameId(p.id, id)));
  ctx.expect(unseen, {
    expected: "another organization's external_id lookup finds nothing (404)",
    actual: got(lookup),
    exchange: lookup,
    says: ['All data is scoped to the organization that owns the API key.', 'on a miss the response is 404'],
  });
  const list = await ctx.send({ method: 'GET', path: '/patients', key: other, query: { limit: 100 } });
  ctx.expect(!listOf(list).some((p) => p.id === id), {
    expected: "another organization's list without this organization's patient",
    actual: `patient ${id} listed`,
    exchange: list,
    says: 'All data is scoped to the organization that owns the API key.',
  });
  // "Never changes records of another organization": a 404 is not enough if the write happened all the same.
  const after = await getPatient(ctx, id);
  ctx.expect(after.response.status === 200 && objOf(after).phone !== foreignPhone, {
    expected: "the patient as it was after another organization's PATCH and DELETE (both answered 404)",
    actual: after.response.status === 200 ? `phone ${json(objOf(after).phone)}` : got(after),
    exchange: after,
    says: 'All data is scoped to the organization that owns the API key.',
  });
}

export function unknown_field_rejected(ctx: CheckContext): Promise<void> {
  return negative(['unknown-property'], 'An unknown extra field causes a 400 validation error.')(ctx);
}

export const checks: CheckDef[] = [
  check(write_requests_json_content_type, { rule: 'GEN-006', needs: { write: true } }),
  check(upload_is_multipart_form_data, { rule: 'GEN-007', needs: { write: true } }),
  check(response_objects_closed, { rule: 'GEN-011', provenance: 'assumed' }),
  check(patient_id_digit_string, { rule: 'GEN-008' }),
  check(success_wrapped_in_data, { rule: 'GEN-003' }),
  check(one_key_covers_every_provider, { rule: 'GEN-002', needs: { write: true } }),
  check(other_org_patient_not_found, { rule: 'GEN-001', needs: { keys: ['otherOrg'], write: true } }),
  check(unknown_field_rejected, { rule: 'GEN-010', needs: { write: true } }),
];
