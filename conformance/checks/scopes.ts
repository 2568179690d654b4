// Scopes: each operation against a key without its scope (x-required-scopes) → 403; a key with it, or with `*`,
// is never refused for scope. Paths name the run's own resources or ids that do not exist, so a server that
// fails to enforce a scope changes nothing it does not own.
import type { CheckContext, CheckDef } from '../model.ts';
import { fillPath, got } from './util.ts';

const covers = (granted: string[], needed: string[]) => granted.includes('*') || needed.every((s) => granted.includes(s));

async function samplePaths(ctx: CheckContext) {
  const patient = ctx.readOnly ? undefined : await ctx.fixtures.patient();
  return { patientId: patient?.id as string | undefined };
}

export const scopeChecks: CheckDef[] = [
  {
    name: 'missing_scope_forbidden',
    area: 'scopes',
    rule: 'AUTH-023',
    covers: ['AUTH-022', 'AUTH-024', 'ERR-003'],
    needs: { keys: ['scoped'] },
    async run(ctx) {
      const values = await samplePaths(ctx);
      for (const { scopes, key } of ctx.keys.scoped)
        for (const op of ctx.contract.operations) {
          if (covers(scopes, op.scopes) || (op.method !== 'GET' && ctx.readOnly)) continue;
          const ex = await ctx.send({ method: op.method, path: fillPath(op, values), key, json: op.jsonBodyPointer ? {} : undefined });
          ctx.expect(ex.response.status === 403, {
            expected: `403 for ${op.method} ${op.template} with a key of scopes [${scopes.join(', ')}] (needs ${op.scopes.join(', ')})`,
            actual: got(ex),
            exchange: ex,
          });
        }
    },
  },
  {
    name: 'granted_scope_allowed',
    area: 'scopes',
    rule: 'AUTH-021',
    covers: ['AUTH-013', 'AUTH-015', 'AUTH-017', 'AUTH-019', 'AUTH-020'],
    needs: { keys: ['scoped'] },
    async run(ctx) {
      // Reads only: a key holding the read scope of a list is not refused.
      for (const { scopes, key } of ctx.keys.scoped)
        for (const op of ctx.contract.operations) {
          if (op.method !== 'GET' || op.template.includes('{') || !covers(scopes, op.scopes)) continue;
          const ex = await ctx.send({ method: 'GET', path: op.template, key });
          ctx.expect(ex.response.status !== 403 && ex.response.status !== 401, {
            expected: `not 401/403 for GET ${op.template} with a key of scopes [${scopes.join(', ')}]`,
            actual: got(ex),
            exchange: ex,
          });
        }
    },
  },
  {
    name: 'wildcard_scope_covers_all',
    area: 'scopes',
    rule: 'AUTH-012',
    async run(ctx) {
      const values = await samplePaths(ctx);
      for (const op of ctx.contract.operations) {
        if (op.method !== 'GET') continue; // writes are exercised by every other area with this key
        const ex = await ctx.send({ method: 'GET', path: fillPath(op, values), key: ctx.keys.main });
        ctx.expect(ex.response.status !== 403 && ex.response.status !== 401, {
          expected: `the full-access key is not refused on GET ${op.template}`,
          actual: got(ex),
          exchange: ex,
        });
      }
    },
  },
];
