// Pagination: every list with `page`/`limit` answers `meta` { page, limit, total_pages }, defaults from the
// spec's parameters, full pages up to total_pages; the documents list carries no meta.
import type { CheckContext, CheckDef } from '../model.ts';
import type { Operation } from '../contract.ts';
import { body, got, listOf } from './util.ts';

const paginated = (ctx: CheckContext) => ctx.contract.find((op) => op.method === 'GET' && !op.template.includes('{') && !!ctx.contract.queryParam(op, 'page'));
const paramDefault = (ctx: CheckContext, op: Operation, name: string) => (ctx.contract.queryParam(op, name)?.schema as { default?: number } | undefined)?.default;

/** Pages walked at most per list: the first ones and the last one, so a big tenant stays fast. */
const MAX_WALK = 25;

export const paginationChecks: CheckDef[] = [
  {
    name: 'list_meta_defaults',
    area: 'pagination',
    rule: 'LIM-005',
    covers: ['PAG-001', 'PAG-002'],
    async run(ctx) {
      for (const op of paginated(ctx)) {
        const ex = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main });
        const meta = body(ex).meta as Record<string, unknown> | undefined;
        const page = paramDefault(ctx, op, 'page');
        const limit = paramDefault(ctx, op, 'limit');
        ctx.expect(!!meta && meta.page === page && meta.limit === limit && Number.isInteger(meta.total_pages), {
          expected: `meta { page: ${page}, limit: ${limit}, total_pages: <integer> } for GET ${op.template} without page/limit`,
          actual: got(ex),
          exchange: ex,
        });
        ctx.expect(listOf(ex).length <= (limit ?? Infinity), { expected: `at most ${limit} items`, actual: `${listOf(ex).length}`, exchange: ex });
      }
    },
  },
  {
    name: 'pages_walk_to_total_pages',
    area: 'pagination',
    rule: 'PAG-004',
    covers: ['PAG-006'],
    async run(ctx) {
      for (const op of paginated(ctx)) {
        const limit = 20;
        const first = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { page: 1, limit } });
        const total = (body(first).meta as { total_pages?: number } | undefined)?.total_pages;
        if (!ctx.expect(Number.isInteger(total) && total! >= 1, { expected: 'meta.total_pages an integer ≥ 1', actual: got(first), exchange: first })) continue;
        const pages = total! <= MAX_WALK ? Array.from({ length: total! }, (_, i) => i + 1) : [1, 2, total! - 1, total!];
        const seen = new Set<unknown>();
        for (const page of pages) {
          const ex = page === 1 ? first : await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { page, limit } });
          const items = listOf(ex);
          const meta = body(ex).meta as { page?: number; limit?: number; total_pages?: number } | undefined;
          ctx.expect(meta?.page === page && meta?.limit === limit, { expected: `meta.page ${page}, meta.limit ${limit}`, actual: got(ex), exchange: ex });
          const last = page === total;
          const ok = last ? items.length <= limit && (items.length > 0 || total === 1) : items.length === limit;
          ctx.expect(ok, {
            expected: last ? `page ${page} = total_pages: 1..${limit} items (the end of the list)` : `page ${page} of ${total}: a full page of ${limit}`,
            actual: `${items.length} items`,
            exchange: ex,
          });
          for (const it of items) {
            ctx.expect(!seen.has(it.id), { expected: `each item on one page only`, actual: `${String(it.id)} repeated on page ${page}`, exchange: ex });
            seen.add(it.id);
          }
        }
        const beyond = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { page: total! + 1, limit } });
        ctx.expect(beyond.response.status !== 200 || listOf(beyond).length === 0, { expected: `no items past total_pages (page ${total! + 1})`, actual: got(beyond), exchange: beyond });
      }
    },
  },
  {
    name: 'documents_list_without_meta',
    area: 'pagination',
    rule: 'PAG-005',
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      const ex = await ctx.send({ method: 'GET', path: `/patients/${String(p.id)}/documents`, key: ctx.keys.main });
      ctx.expect(ex.response.status === 200 && Array.isArray(body(ex).data) && !('meta' in body(ex)), { expected: '200 { data: [...] } without meta', actual: got(ex), exchange: ex });
    },
  },
  {
    name: 'page_and_limit_bounds',
    area: 'pagination',
    rule: 'PAG-007',
    provenance: 'assumed',
    async run(ctx) {
      for (const op of paginated(ctx)) {
        const schema = (name: string) => (ctx.contract.deref(ctx.contract.queryParam(op, name)?.schema) ?? {}) as { minimum?: number; maximum?: number };
        const page = schema('page');
        const limit = schema('limit');
        const cases: Array<[string, Record<string, string | number>]> = [];
        if (page.minimum !== undefined) cases.push([`page ${page.minimum - 1}`, { page: page.minimum - 1 }]);
        if (limit.minimum !== undefined) cases.push([`limit ${limit.minimum - 1}`, { limit: limit.minimum - 1 }]);
        if (limit.maximum !== undefined) cases.push([`limit ${limit.maximum + 1} (over the maximum)`, { limit: limit.maximum + 1 }]);
        cases.push(['page 1.5 (not an integer)', { page: '1.5' }], ['limit "ten"', { limit: 'ten' }]);
        for (const [label, query] of cases) {
          const ex = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query });
          ctx.expect(ex.response.status === 400, { expected: `400 for GET ${op.template} with ${label}`, actual: got(ex), exchange: ex });
        }
        if (limit.maximum !== undefined) {
          const max = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { limit: limit.maximum } });
          ctx.expect(max.response.status === 200, { expected: `200 for GET ${op.template} with limit ${limit.maximum} (the maximum)`, actual: got(max), exchange: max });
        }
      }
    },
  },
];
