// PRV: providers. Read-only, lookup by id and NPI, list parameters, path id form.
import { randomUUID } from 'node:crypto';
import type { RequestSpec } from '../target/http.ts';
import type { CheckContext, CheckDef } from '../run/model.ts';
import { pathIdForm, UUID } from './support/operations.ts';
import { unusedNpi, got, objOf, listOf, json, serverFailed } from './support/common.ts';
import { pageAndLimit, metaOf } from './support/resources.ts';
import { check } from './support/define.ts';

export async function provider_id_path_uuid(ctx: CheckContext): Promise<void> {
  const provider = (await ctx.fixtures.providers())[0];
  if (!provider) return ctx.skip('the organization lists no providers');
  await pathIdForm(ctx, {
    param: 'providerId',
    form: UUID,
    formName: 'a UUID',
    id: String(provider.id),
    requests: [{ method: 'GET', path: (id) => `/providers/${id}` }],
  });
}

export async function providers_read_only(ctx: CheckContext): Promise<void> {
  // A real provider only with --mock (its data is the run's to change); elsewhere an id no provider has.
  const providers = await ctx.fixtures.providers();
  const real = ctx.mock ? providers[0] : undefined;
  const id = real ? String(real.id) : randomUUID();
  const attempts: RequestSpec[] = [
    {
      method: 'POST',
      path: '/providers',
      key: ctx.keys.main,
      json: real ? { name: 'Conformance provider', npi: unusedNpi(providers.map((p) => String(p.npi))) } : {},
    },
    { method: 'PATCH', path: `/providers/${id}`, key: ctx.keys.main, json: real ? { name: 'Changed by the conformance suite' } : {} },
    {
      method: 'PUT',
      path: `/providers/${id}`,
      key: ctx.keys.main,
      json: real ? { ...real, name: 'Changed by the conformance suite' } : {},
    },
    { method: 'DELETE', path: `/providers/${id}`, key: ctx.keys.main },
  ];
  for (const spec of attempts) {
    const ex = await ctx.send(spec);
    // Refused, whatever the status (which one is not shown: 404, 405, 501 or another refusal are all readings).
    ctx.expect(ex.response.status >= 400, {
      expected: `a refusal (404 or 405, or another 4xx or 5xx: never 2xx) for ${spec.method} ${spec.path.replace(id, '{providerId}')} (no operation writes providers)`,
      actual: got(ex),
      exchange: ex,
      says: 'The endpoints are read-only.',
    });
  }
  if (real) {
    const after = await ctx.send({ method: 'GET', path: `/providers/${id}`, key: ctx.keys.main });
    if (serverFailed(after)) return ctx.block(`GET /providers/{providerId} to read provider ${id} back (${got(after)})`, 'PRV-008');
    ctx.expect(after.response.status === 200 && JSON.stringify(objOf(after)) === JSON.stringify(real), {
      expected: `provider ${id} unchanged: ${JSON.stringify(real)}`,
      actual: got(after),
      exchange: after,
      says: 'The endpoints are read-only.',
    });
    const list = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main });
    ctx.expect(listOf(list).length === providers.length, {
      expected: `still ${providers.length} providers listed`,
      actual: got(list),
      exchange: list,
      says: 'The endpoints are read-only.',
    });
  }
}

export async function npi_lookup(ctx: CheckContext): Promise<void> {
  const providers = await ctx.fixtures.providers();
  const first = providers[0];
  if (!first?.npi) return ctx.skip('no provider with an npi to look up');
  const hit = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main, query: { npi: String(first.npi), page: 2 } });
  const data = listOf(hit);
  ctx.expect(hit.response.status === 200 && data.length === 1 && data[0]?.id === first.id, {
    expected: `200 with exactly provider ${String(first.id)}`,
    actual: got(hit),
    exchange: hit,
    says: 'npi (individual NPI, bypasses pagination, 404 on no match)',
  });
  // A well-formed NPI no provider holds (Luhn-valid with the 80840 prefix).
  const miss = await ctx.send({
    method: 'GET',
    path: '/providers',
    key: ctx.keys.main,
    query: { npi: unusedNpi(providers.map((p) => String(p.npi))) },
  });
  ctx.expect(miss.response.status === 404, {
    expected: '404 for an npi no provider has',
    actual: got(miss),
    exchange: miss,
    says: ['npi (individual NPI, bypasses pagination, 404 on no match)', 'also external_id or npi lookup with no match'],
  });
}

export async function provider_by_id(ctx: CheckContext): Promise<void> {
  for (const p of (await ctx.fixtures.providers()).slice(0, 3)) {
    const ex = await ctx.send({ method: 'GET', path: `/providers/${String(p.id)}`, key: ctx.keys.main });
    ctx.expect(ex.response.status === 200 && objOf(ex).id === p.id, {
      expected: `200 with provider ${String(p.id)}`,
      actual: got(ex),
      exchange: ex,
      says: '| GET | /providers/{providerId} | providers:read | none | {data: Provider} |',
    });
  }
  const miss = await ctx.send({ method: 'GET', path: `/providers/${crypto.randomUUID()}`, key: ctx.keys.main });
  ctx.expect(miss.response.status === 404, {
    expected: '404 for an unknown provider',
    actual: got(miss),
    exchange: miss,
    says: '| 404 | resource does not exist',
  });
}

export async function providers_list_parameters(ctx: CheckContext): Promise<void> {
  const items = await pageAndLimit(ctx, '/providers');
  for (const x of items)
    ctx.expect(typeof x.id === 'string' && typeof x.name === 'string', {
      expected: 'each item a provider { id, name, ... }',
      actual: json(x).slice(0, 200),
      says: ['{data: [Provider], meta}', '| id | UUID string (stable internal identifier', '| name | string |'],
    });
  const all = await ctx.fixtures.providers();
  const target = all.find((x) => typeof x.npi === 'string' && x.id !== all[0]?.id) ?? all.find((x) => typeof x.npi === 'string');
  if (!target) return;
  const ex = await ctx.send({ method: 'GET', path: '/providers', key: ctx.keys.main, query: { npi: String(target.npi) } });
  ctx.expect(ex.response.status === 200 && listOf(ex).length === 1 && listOf(ex)[0]?.id === target.id && !!metaOf(ex), {
    expected: `200 { data: [provider ${String(target.id)}], meta } for npi=${String(target.npi)}`,
    actual: got(ex),
    exchange: ex,
    says: ['{data: [Provider], meta}', 'npi (individual NPI, bypasses pagination, 404 on no match)'],
  });
}

export const checks: CheckDef[] = [
  check(provider_id_path_uuid, { rule: 'PRV-010' }),
  check(providers_read_only, { rule: 'PRV-009', needs: { write: true } }),
  check(npi_lookup, { rule: 'PRV-006', covers: ['PRV-007', 'ERR-005'] }),
  check(provider_by_id, { rule: 'PRV-008' }),
  check(providers_list_parameters, { rule: 'PRV-005' }),
];
