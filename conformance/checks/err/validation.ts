// ERR: error answers to invalid requests: the error text, malformed path ids, 429, another organization's ids, bodies
// missing, mistyped or out of bounds, malformed JSON. The response checks of every 400,
// status and 5xx are the judge's (judge/checks/err.ts).
import { randomUUID } from 'node:crypto';
import type { CheckContext, CheckDef } from '../../run/model.ts';
import type { RequestSpec } from '../../target/http.ts';
import { tinyPdf } from '../../run/fixtures.ts';
import { body, got, fillPath, isValidationError, readableError, listOf, negative } from '../support/common.ts';
import { opLabel, pathParams, bodyFor, keyWithout, malformed } from '../support/operations.ts';
import { check } from '../support/define.ts';

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
      says: ['Errors are { error: <string> }.', 'kit: the error text is not empty (ERR-016)'],
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
        says: 'kit: a path id of the wrong form is a validation failure, 400 (the status is not shown; ERR-019)',
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
    says: "{ error: 'Rate limit exceeded. Please retry after the window resets.' }",
  });
  const ra = ex.response.headers['retry-after'];
  // Present: its form (seconds or a date) is not shown (RATE-006 is the kit's reading, judged by rate_limit_headers).
  ctx.expect(ra !== undefined && ra.trim() !== '', {
    expected: 'a Retry-After header',
    actual: String(ra),
    exchange: ex,
    says: 'a 429 also carries Retry-After',
  });
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
        says: 'resource does not exist, or belongs to someone else (the two cases are indistinguishable)',
      });
    }
  }
}

export function missing_required_rejected(ctx: CheckContext): Promise<void> {
  return negative(['missing-required'], '| 400 | validation failure')(ctx);
}

export function wrong_type_rejected(ctx: CheckContext): Promise<void> {
  return negative(['wrong-type'], '| 400 | validation failure')(ctx);
}

export function out_of_bounds_rejected(ctx: CheckContext): Promise<void> {
  return negative(['out-of-bounds'], '| 400 | validation failure')(ctx);
}

export async function malformed_json_rejected(ctx: CheckContext): Promise<void> {
  const ex = await ctx.send({
    method: 'POST',
    path: '/patients',
    key: ctx.keys.main,
    bodyText: '{"name": "broken',
    headers: { 'Content-Type': 'application/json' },
  });
  ctx.expect(ex.response.status === 400, {
    expected: '400 for a malformed JSON body',
    actual: got(ex),
    exchange: ex,
    says: 'kit: malformed JSON is a validation failure, 400 (the status is not shown; ERR-012)',
  });
}

export const checks: CheckDef[] = [
  check(error_text_non_empty_string, { rule: 'ERR-016', provenance: 'assumed' }),
  check(malformed_path_id_400, { rule: 'ERR-019', provenance: 'assumed' }),
  check(rate_limited_429, { rule: 'ERR-008', covers: ['RATE-002', 'RATE-003', 'RATE-004'], needs: { mock: true } }),
  check(other_org_ids_not_found, { rule: 'ERR-004', needs: { keys: ['otherOrg'] } }),
  check(missing_required_rejected, { rule: 'ERR-001', needs: { write: true } }),
  check(wrong_type_rejected, { rule: 'ERR-001', needs: { write: true } }),
  check(out_of_bounds_rejected, { rule: 'ERR-001', covers: ['LIM-002', 'LIM-003', 'LIM-004'], needs: { write: true } }),
  check(malformed_json_rejected, { rule: 'ERR-012', provenance: 'assumed', needs: { write: true } }),
];
