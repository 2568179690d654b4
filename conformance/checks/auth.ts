// Authentication: a missing, invalid, expired or revoked key yields 401 on every operation.
import type { CheckContext, CheckDef } from '../model.ts';
import type { KeyRef } from '../http.ts';
import { fillPath, got } from './util.ts';

/** Every operation, once, with the given key (or none); reads only unless writes are allowed. */
async function expect401Everywhere(ctx: CheckContext, key: KeyRef | undefined, rawKey?: string): Promise<void> {
  const patient = ctx.readOnly ? undefined : await ctx.fixtures.patient();
  for (const op of ctx.contract.operations) {
    if (op.method !== 'GET' && ctx.readOnly) continue;
    const path = fillPath(op, { patientId: patient?.id as string | undefined });
    const ex = await ctx.send({ method: op.method, path, key, rawKey, json: op.jsonBodyPointer ? {} : undefined });
    ctx.expect(ex.response.status === 401, { expected: `401 for ${op.method} ${op.template}`, actual: got(ex), exchange: ex });
  }
}

export const authChecks: CheckDef[] = [
  { name: 'missing_key_rejected', area: 'auth', rule: 'AUTH-001', covers: ['AUTH-003', 'ERR-002'], run: (ctx) => expect401Everywhere(ctx, undefined) },
  { name: 'invalid_key_rejected', area: 'auth', rule: 'AUTH-002', run: (ctx) => expect401Everywhere(ctx, undefined, 'crc-not-a-valid-key-0000000000') },
  { name: 'expired_key_rejected', area: 'auth', rule: 'AUTH-009', needs: { keys: ['expired'] }, run: (ctx) => expect401Everywhere(ctx, ctx.keys.expired) },
  { name: 'revoked_key_rejected', area: 'auth', rule: 'AUTH-010', needs: { keys: ['revoked'] }, run: (ctx) => expect401Everywhere(ctx, ctx.keys.revoked) },
];
