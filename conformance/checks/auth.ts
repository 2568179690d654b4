// AUTH: keys and scopes. A missing, invalid, expired or revoked key yields 401; a key without an operation's scope
// (x-required-scopes) yields 403, a key with it (or `*`) is never refused for scope.
import { randomBytes } from 'node:crypto';
import type { CheckContext, CheckDef } from '../run/model.ts';
import type { KeyRef, RequestSpec } from '../target/http.ts';
import type { Exchange } from '../../judge/define.ts';
import type { Operation } from '../../spec/runtime/contract.ts';
import { appointmentBody, fillPath, got, objOf, farFuture, uploadDocument, is2xx, sameId, listOf } from './support/common.ts';
import { own } from './support/operations.ts';
import { check } from './support/define.ts';
import { idText } from '../run/fixtures.ts';
import { sameField } from './support/resources.ts';

/** Every operation, once, with the given key (or none); reads only unless writes are allowed. */
async function expect401Everywhere(ctx: CheckContext, words: string, key: KeyRef | undefined, rawKey?: string): Promise<void> {
  const values = await samplePaths(ctx);
  for (const op of ctx.contract.operations) {
    if (op.method !== 'GET' && ctx.readOnly) continue;
    const path = probePath(op, values);
    const ex = await ctx.send({ method: op.method, path, key, rawKey, json: op.jsonBodyPointer ? {} : undefined });
    ctx.expect(ex.response.status === 401, {
      expected: `401 for ${op.method} ${op.template}`,
      actual: got(ex),
      exchange: ex,
      says: [words, 'All require the X-API-Key header.'],
    });
  }
}

/** A key of the run holding `scope` (not `*`), the one with the fewest scopes. */
function keyWith(ctx: CheckContext, scope: string): KeyRef | undefined {
  return ctx.keys.scoped
    .filter((s) => s.scopes.includes(scope) && !s.scopes.includes('*'))
    .sort((a, b) => a.scopes.length - b.scopes.length)[0]?.key;
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
    changed: (ex) => ex.response.status === 200 && sameField(field, objOf(ex)[field], value),
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
  create: {
    what: string;
    /** The document's words for what the scope grants (its row of the scope table). */
    says: string;
    send: (key: KeyRef) => Promise<Exchange>;
    steps: (id: string) => ScopedSteps;
  },
): Promise<void> {
  const key = keyWith(ctx, scope);
  if (!key) return ctx.skip(`needs a --scoped-key holding ${scope} (without *)`);
  const withKey = `with ${/^[aeiou]/.test(scope) ? 'an' : 'a'} ${scope} key`;
  const created = await create.send(key);
  if (
    !ctx.expect(is2xx(created) && idText(objOf(created).id) !== undefined, {
      expected: `2xx with the new resource for ${create.what} ${withKey}`,
      actual: got(created),
      exchange: created,
      says: create.says,
    })
  )
    return;
  const s = create.steps(idText(objOf(created).id)!);
  const changed = await ctx.send({ ...s.change, key });
  ctx.expect(s.changed(changed), {
    expected: `${s.changeExpected} ${withKey}`,
    actual: got(changed),
    exchange: changed,
    says: create.says,
  });
  const deleted = await ctx.send({ method: 'DELETE', path: s.path, key });
  ctx.expect(is2xx(deleted), {
    expected: `2xx for DELETE ${s.path} ${withKey}`,
    actual: got(deleted),
    exchange: deleted,
    says: create.says,
  });
  const lookup = s.lookup ?? { spec: { method: 'GET', path: s.path, key: ctx.keys.main }, what: `GET ${s.path}` };
  const gone = await ctx.send(lookup.spec);
  // A lookup's miss may answer 404 or (XID-010's to judge) an empty list: either way the resource is gone.
  const id = idText(objOf(created).id);
  ctx.expect(gone.response.status === 404 || (!!s.lookup && is2xx(gone) && !listOf(gone).some((x) => sameId(x.id, id))), {
    expected: `404 for ${lookup.what} after the delete`,
    actual: got(gone),
    exchange: gone,
    says: [create.says, '| 404 | resource does not exist'],
  });
}

const covers = (granted: string[], needed: string[]) => granted.includes('*') || needed.every((s) => granted.includes(s));

async function samplePaths(ctx: CheckContext) {
  const patient = ctx.readOnly ? undefined : await ctx.fixtures.patient();
  return { patientId: patient?.id as string | undefined };
}

/**
 * The path of a probe that expects a refusal: a read names the run's patient; a write names ids that do not exist,
 * so a server that wrongly accepts it changes nothing another check relies on.
 */
const probePath = (op: Operation, values: Record<string, string | undefined>) => fillPath(op, op.method === 'GET' ? values : {});

// ----- the mock's own choices -----
export async function mock_key_prefix_crk(ctx: CheckContext): Promise<void> {
  const keys = await ctx.mock!.keys();
  if (!keys.length) return ctx.skip('the mock lists no keys');
  // Never print a key: its first four characters say enough.
  const off = keys.filter((k) => !k.key.startsWith('crk_'));
  ctx.expect(!off.length, {
    expected: 'every key the mock issues begins with crk_',
    says: 'kit: the mock issues keys with the prefix crk_ (<KEY_PREFIX> is not shown)',
    actual: `${off.length} of ${keys.length} do not: ${off.map((k) => `${k.key.slice(0, 4)}… (${k.state})`).join(', ')}`,
  });
  // The prefix is part of the opaque value: the key works as issued, and the prefix alone is no key.
  const ok = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main, query: { limit: 1 } });
  ctx.expect(ok.response.status === 200, {
    expected: '200 for GET /providers with the key as issued',
    actual: got(ok),
    exchange: ok,
    says: 'Keys begin with a fixed service prefix (written <KEY_PREFIX>_ here) followed by the secret part.',
  });
  const bare = await ctx.send({ method: 'GET', path: '/providers', rawKey: `crk_${randomBytes(12).toString('hex')}`, query: { limit: 1 } });
  ctx.expect(bare.response.status === 401, {
    expected: '401 for the prefix crk_ with a secret part no key has',
    actual: got(bare),
    exchange: bare,
    says: ['followed by the secret part', 'A missing or invalid key yields 401.'],
  });
}

export function missing_key_rejected(ctx: CheckContext): Promise<void> {
  return expect401Everywhere(ctx, 'A missing or invalid key yields 401.', undefined);
}

export function invalid_key_rejected(ctx: CheckContext): Promise<void> {
  return expect401Everywhere(ctx, 'A missing or invalid key yields 401.', undefined, 'crc-not-a-valid-key-0000000000');
}

export function expired_key_rejected(ctx: CheckContext): Promise<void> {
  return expect401Everywhere(ctx, 'An expired or revoked key yields 401.', ctx.keys.expired);
}

export function revoked_key_rejected(ctx: CheckContext): Promise<void> {
  return expect401Everywhere(ctx, 'An expired or revoked key yields 401.', ctx.keys.revoked);
}

export async function patients_write_scope_grants(ctx: CheckContext): Promise<void> {
  await scopedLifecycle(ctx, 'patients:write', {
    what: 'POST /patients',
    says: '| patients:write | create, update, delete patients |',
    send: (key) =>
      ctx.send({
        method: 'POST',
        path: '/patients',
        key,
        json: { name: 'Conformance patients:write', external_id: ctx.externalId('scope-patient') },
      }),
    steps: (id) => patchOne(`/patients/${id}`, 'phone', '+1 202 555 0143'),
  });
}

export async function appointments_write_scope_grants(ctx: CheckContext): Promise<void> {
  await scopedLifecycle(ctx, 'appointments:write', {
    what: 'POST /appointments',
    says: '| appointments:write | create, update, delete appointments |',
    send: async (key) => {
      const { patient } = await own(ctx);
      const json = appointmentBody(ctx, String(patient.id), { start_at: farFuture(), external_id: ctx.externalId('scope-appt') });
      return ctx.send({ method: 'POST', path: '/appointments', key, json });
    },
    steps: (id) => patchOne(`/appointments/${id}`, 'notes', 'updated with appointments:write'),
  });
}

export async function documents_write_scope_grants(ctx: CheckContext): Promise<void> {
  let pid = '';
  let ext = '';
  await scopedLifecycle(ctx, 'documents:write', {
    what: 'an upload',
    says: '| documents:write | upload and delete documents (also required for re-extraction, a POST) |',
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
        // Taken, not refused: the extract endpoint's statuses for success and failure are not shown (a run that
        // failed may answer a 4xx or 5xx of its own), so only a refusal of the key (401, 403) or the document (404) fails.
        changed: (ex) => ![401, 403, 404].includes(ex.response.status),
        changeExpected: `an answer other than 401, 403 or 404 (the statuses of success and failure are not shown) for POST ${path}/extract`,
        // A deleted document has no GET of its own: its external_id lookup answers 404.
        lookup: {
          spec: { method: 'GET', path: `/patients/${pid}/documents`, key: ctx.keys.main, query: { external_id: ext } },
          what: `the lookup of ${ext}`,
        },
      };
    },
  });
}

export async function missing_scope_forbidden(ctx: CheckContext): Promise<void> {
  const values = await samplePaths(ctx);
  for (const { scopes, key } of ctx.keys.scoped)
    for (const op of ctx.contract.operations) {
      if (covers(scopes, op.scopes) || (op.method !== 'GET' && ctx.readOnly)) continue;
      const ex = await ctx.send({ method: op.method, path: probePath(op, values), key, json: op.jsonBodyPointer ? {} : undefined });
      ctx.expect(ex.response.status === 403, {
        expected: `403 for ${op.method} ${op.template} with a key of scopes [${scopes.join(', ')}] (needs ${op.scopes.join(', ')})`,
        actual: got(ex),
        exchange: ex,
        says: [
          'GET and HEAD need the read scope of the resource; POST, PATCH and DELETE need the write scope.',
          'A valid key lacking the scope yields 403.',
        ],
      });
    }
}

export async function granted_scope_allowed(ctx: CheckContext): Promise<void> {
  // Reads only: a key holding the read scope of a list is not refused.
  for (const { scopes, key } of ctx.keys.scoped)
    for (const op of ctx.contract.operations) {
      if (op.method !== 'GET' || op.template.includes('{') || !covers(scopes, op.scopes)) continue;
      const ex = await ctx.send({ method: 'GET', path: op.template, key });
      ctx.expect(ex.response.status !== 403 && ex.response.status !== 401, {
        expected: `not 401/403 for GET ${op.template} with a key of scopes [${scopes.join(', ')}]`,
        actual: got(ex),
        exchange: ex,
        says: 'GET and HEAD need the read scope of the resource',
      });
    }
}

export async function wildcard_scope_covers_all(ctx: CheckContext): Promise<void> {
  const values = await samplePaths(ctx);
  for (const op of ctx.contract.operations) {
    if (op.method !== 'GET') continue; // writes are exercised by every other area with this key
    const ex = await ctx.send({ method: 'GET', path: fillPath(op, values), key: ctx.keys.main });
    ctx.expect(ex.response.status !== 403 && ex.response.status !== 401, {
      expected: `the full-access key is not refused on GET ${op.template}`,
      actual: got(ex),
      exchange: ex,
      says: '| * | all resources |',
    });
  }
}

export async function other_org_document_not_found(ctx: CheckContext): Promise<void> {
  const patient = await ctx.fixtures.patient();
  const up = await uploadDocument(ctx, String(patient.id));
  const doc = (up.response.json as { data?: { id?: string } })?.data;
  if (!doc?.id) return ctx.skip(`upload answered ${up.response.status}`);
  const ex = await ctx.send({
    method: 'POST',
    path: `/patients/${String(patient.id)}/documents/${doc.id}/extract`,
    key: ctx.keys.otherOrg!,
  });
  ctx.expect(ex.response.status === 404, {
    expected: "404 for extract on another organization's document",
    actual: got(ex),
    exchange: ex,
    says: ['A key is bound to its organization', 'resource does not exist, or belongs to someone else'],
  });
}

export const checks: CheckDef[] = [
  check(mock_key_prefix_crk, { rule: 'AUTH-026', provenance: 'assumed', needs: { mock: true } }),
  check(missing_key_rejected, { rule: 'AUTH-001', covers: ['AUTH-003', 'ERR-002'] }),
  check(invalid_key_rejected, { rule: 'AUTH-002', covers: ['ERR-002'] }),
  check(expired_key_rejected, { rule: 'AUTH-009', covers: ['ERR-002'], needs: { keys: ['expired'] } }),
  check(revoked_key_rejected, { rule: 'AUTH-010', covers: ['ERR-002'], needs: { keys: ['revoked'] } }),
  check(patients_write_scope_grants, { rule: 'AUTH-014', needs: { write: true, keys: ['scoped'] } }),
  check(appointments_write_scope_grants, { rule: 'AUTH-016', needs: { write: true, keys: ['scoped'] } }),
  check(documents_write_scope_grants, { rule: 'AUTH-018', needs: { write: true, keys: ['scoped'] } }),
  check(missing_scope_forbidden, { rule: 'AUTH-023', covers: ['AUTH-022', 'AUTH-024', 'ERR-003'], needs: { keys: ['scoped'] } }),
  check(granted_scope_allowed, {
    rule: 'AUTH-021',
    covers: ['AUTH-013', 'AUTH-015', 'AUTH-019', 'AUTH-020'],
    needs: { keys: ['scoped'] },
  }),
  check(wildcard_scope_covers_all, { rule: 'AUTH-012' }),
  check(other_org_document_not_found, { rule: 'AUTH-008', needs: { keys: ['otherOrg'], write: true } }),
];
