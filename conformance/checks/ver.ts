// VER: versioning. The base address ends with /ext-api/v1 and every path is relative to it.
import type { CheckContext, CheckDef } from '../run/model.ts';
import { body, got, is2xx, fillPath, serverFailed } from './support/common.ts';
import { readablePathValues, pathParams } from './support/operations.ts';
import { check } from './support/define.ts';
import type { Operation } from '../../spec/runtime/contract.ts';
import { relaxBundle } from '../../spec/runtime/relax.ts';

/**
 * Query values a plain GET must carry because the profile knows no default for them: an enum parameter whose default
 * is the kit's choice (e.g. /notes/export's format) gets its first value in the documented profile.
 */
function withoutDefault(ctx: CheckContext, op: Operation): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.parameters) {
    const schema = ctx.contract.deref(p.schema) as { enum?: unknown[]; default?: unknown } | undefined;
    if (p.in !== 'query' || !schema || !Array.isArray(schema.enum) || !schema.enum.length) continue;
    const judged = (ctx.profile === 'all' ? schema : relaxBundle(schema as never)) as { default?: unknown };
    if (judged.default === undefined) out[String(p.name)] = String(schema.enum[0]);
  }
  return out;
}

export async function base_url_ends_with_version(ctx: CheckContext): Promise<void> {
  const base = ctx.contract.basePath();
  const path = new URL(ctx.http.baseUrl).pathname.replace(/\/$/, '');
  ctx.expect(!!base && path.endsWith(base), {
    expected: `the base address ends with ${base} (the spec's servers)`,
    actual: path || '/',
    says: '{base_url} ends with the segment /ext-api/v1',
  });
  const versioned = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main, query: { limit: 1 } });
  ctx.expect(versioned.response.status === 200 && Array.isArray(body(versioned).data), {
    expected: `200 { data: [...] } for GET ${path}/providers`,
    actual: got(versioned),
    exchange: versioned,
    says: ['{base_url} ends with the segment /ext-api/v1', '{data: [Provider], meta}'],
  });
  // Without the version segment the address is not the API.
  const bare = await ctx.send({ method: 'GET', path: '/../providers', key: ctx.keys.main, query: { limit: 1 } });
  ctx.expect(!is2xx(bare), {
    expected: `no 2xx for GET ${path.replace(/\/[^/]*$/, '')}/providers (the version left out of the address)`,
    actual: got(bare),
    exchange: bare,
    says: 'The version is part of the base address',
  });
}

export async function paths_relative_to_base_url(ctx: CheckContext): Promise<void> {
  const values = await readablePathValues(ctx);
  for (const op of ctx.contract.operations) {
    if (op.method === 'GET') {
      if (pathParams(op).some((p) => !values[p])) continue;
      const query = withoutDefault(ctx, op);
      const ex = await ctx.send({ method: 'GET', path: fillPath(op, values), key: ctx.keys.main, query });
      const shown = new URLSearchParams(query).toString();
      // A 5xx is the route answering (the operation's failure is its own check's rule).
      ctx.expect(ex.response.status === 200 || serverFailed(ex), {
        expected: `200 for GET {base_url}${op.template}${shown ? `?${shown}` : ''} (the path appended to the base address)`,
        actual: got(ex),
        exchange: ex,
        says: 'All paths are relative to {base_url}.',
      });
    } else if (!ctx.readOnly) {
      // Writes without a key, on ids that do not exist: the operation is there (401), and nothing can be written.
      // Whether keys are enforced is AUTH-001's; here any answer but a missing route will do, and a 404 counts as
      // one only where no id is in the path (elsewhere it may be the id that is missing).
      const ex = await ctx.send({ method: op.method, path: fillPath(op, {}), json: op.jsonBodyPointer ? {} : undefined });
      const s = ex.response.status;
      // The route exists if it answers anything but a missing route; the 401's body is error_body_shape's (GEN-005).
      ctx.expect(!(s === 405 || s === 501 || (s === 404 && !pathParams(op).length)), {
        expected: `${op.method} {base_url}${op.template} to exist (401 without a key)`,
        actual: got(ex),
        exchange: ex,
        says: 'All paths are relative to {base_url}.',
      });
    }
  }
}

export const checks: CheckDef[] = [
  check(base_url_ends_with_version, { rule: 'VER-001' }),
  check(paths_relative_to_base_url, { rule: 'VER-003' }),
];
