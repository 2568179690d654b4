// PAG: pagination. meta defaults, walking to total_pages, bounds, the documents list without meta.
import type { CheckContext, CheckDef } from '../run/model.ts';
import type { Exchange } from '../../judge/define.ts';
import { paginated, body, got, listOf } from './support/common.ts';
import { metaOf, same, token } from './support/resources.ts';
import { check } from './support/define.ts';

/** Pages walked at most per list: the first ones and the last one, so a big tenant stays fast. */
const MAX_WALK = 25;

const ids = (xs: Array<Record<string, unknown>>) => xs.map((x) => String(x.id)).join(',');

/** Reads every page (past MAX_WALK the first two and last two): the page sizes and repeats it saw, unjudged. */
async function walkPages(ctx: CheckContext, path: string, limit: number, first: Exchange, total: number) {
  const anomalies: Array<{ expected: string; actual: string; exchange: Exchange; says: string | string[] }> = [];
  const pages = total <= MAX_WALK ? Array.from({ length: total }, (_, i) => i + 1) : [1, 2, total - 1, total];
  const seen = new Set<unknown>();
  for (const page of pages) {
    const ex = page === 1 ? first : await ctx.send({ method: 'GET', path, key: ctx.keys.main, query: { page, limit } });
    const items = listOf(ex);
    const meta = body(ex).meta as { page?: number; limit?: number; total_pages?: number } | undefined;
    ctx.expect(meta?.page === page && meta?.limit === limit, {
      expected: `meta.page ${page}, meta.limit ${limit}`,
      actual: got(ex),
      exchange: ex,
      says: 'meta with page, limit, total_pages (integers)',
    });
    const last = page === total;
    const ok = last ? items.length <= limit && (items.length > 0 || total === 1) : items.length === limit;
    if (!ok)
      anomalies.push({
        expected: last
          ? `page ${page} = total_pages: 1..${limit} items (the end of the list)`
          : `page ${page} of ${total}: a full page of ${limit}`,
        actual: `${items.length} items`,
        exchange: ex,
        says: ['Query parameters | page (default 1), limit (default 20)', 'reached when the requested page is at meta.total_pages'],
      });
    for (const it of items) {
      if (seen.has(it.id))
        anomalies.push({
          expected: 'each item on one page only',
          actual: `${String(it.id)} repeated on page ${page}`,
          exchange: ex,
          says: 'Query parameters | page (default 1), limit (default 20)',
        });
      seen.add(it.id);
    }
  }
  return anomalies;
}

export async function pages_walk_to_total_pages(ctx: CheckContext): Promise<void> {
  for (const op of paginated(ctx)) {
    const limit = 20;
    let first = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { page: 1, limit } });
    let total = (body(first).meta as { total_pages?: number } | undefined)?.total_pages;
    if (
      // An integer: 0 for an empty list is a reading too (spec/readings.yaml: empty-list-zero-pages).
      !ctx.expect(Number.isInteger(total) && total! >= 0, {
        expected: 'meta.total_pages an integer ≥ 0',
        actual: got(first),
        exchange: first,
        says: 'meta with page, limit, total_pages (integers)',
      })
    )
      continue;
    // No order is documented and other clients (this run's own checks too) create and delete while the pages are
    // read: page sizes and repeats are judged only on a walk whose list did not change (page 1 and total_pages the
    // same after it), up to three walks.
    for (let attempt = 1; ; attempt++) {
      const walk = await walkPages(ctx, op.template, limit, first, total!);
      const again = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { page: 1, limit } });
      const againTotal = (body(again).meta as { total_pages?: number } | undefined)?.total_pages;
      const stable = againTotal === total && ids(listOf(again)) === ids(listOf(first));
      if (stable || attempt === 3) {
        if (stable) for (const a of walk) ctx.expect(false, { ...a, says: a.says });
        break;
      }
      if (!walk.length) break;
      first = again;
      total = Number.isInteger(againTotal) && againTotal! >= 0 ? againTotal : total;
    }
    await judgePastTheEnd(ctx, op.template, limit, total!);
  }
}

/**
 * No items past total_pages: judged on a page read between two reads of total_pages that agree, since other clients
 * (this run's own checks too) create while the pages are read and a list that grew meanwhile has a page more.
 */
async function judgePastTheEnd(ctx: CheckContext, template: string, limit: number, known: number): Promise<void> {
  const pagesNow = async () =>
    (
      body(await ctx.send({ method: 'GET', path: template, key: ctx.keys.main, query: { page: 1, limit } })).meta as {
        total_pages?: number;
      }
    )?.total_pages;
  let total = known;
  for (let attempt = 1; ; attempt++) {
    const beyond = await ctx.send({ method: 'GET', path: template, key: ctx.keys.main, query: { page: total + 1, limit } });
    const after = await pagesNow();
    if (after === total || attempt === 3) {
      ctx.expect(beyond.response.status !== 200 || listOf(beyond).length === 0, {
        expected: `no items past total_pages (page ${total + 1})`,
        actual: got(beyond),
        exchange: beyond,
        says: 'reached when the requested page is at meta.total_pages',
      });
      return;
    }
    total = Number.isInteger(after) && after! >= 0 ? after! : total;
  }
}

export async function documents_list_without_meta(ctx: CheckContext): Promise<void> {
  const p = await ctx.fixtures.patient();
  const ex = await ctx.send({ method: 'GET', path: `/patients/${String(p.id)}/documents`, key: ctx.keys.main });
  ctx.expect(ex.response.status === 200 && Array.isArray(body(ex).data) && !('meta' in body(ex)), {
    expected: '200 { data: [...] } without meta',
    actual: got(ex),
    exchange: ex,
    says: 'The documents list returns only data (no meta block).',
  });
}

export async function page_and_limit_bounds(ctx: CheckContext): Promise<void> {
  for (const op of paginated(ctx)) {
    const schema = (name: string) =>
      (ctx.contract.deref(ctx.contract.queryParam(op, name)?.schema) ?? {}) as { minimum?: number; maximum?: number };
    const page = schema('page');
    const limit = schema('limit');
    const cases: Array<[string, Record<string, string | number>]> = [];
    if (page.minimum !== undefined) cases.push([`page ${page.minimum - 1}`, { page: page.minimum - 1 }]);
    if (limit.minimum !== undefined) cases.push([`limit ${limit.minimum - 1}`, { limit: limit.minimum - 1 }]);
    if (limit.maximum !== undefined) cases.push([`limit ${limit.maximum + 1} (over the maximum)`, { limit: limit.maximum + 1 }]);
    cases.push(['page 1.5 (not an integer)', { page: '1.5' }], ['limit "ten"', { limit: 'ten' }]);
    for (const [label, query] of cases) {
      const ex = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query });
      ctx.expect(ex.response.status === 400, {
        expected: `400 for GET ${op.template} with ${label}`,
        actual: got(ex),
        exchange: ex,
        says: 'kit: page is at least 1 and limit 1 to 100, integers; another value is refused 400 (PAG-007)',
      });
    }
    if (limit.maximum !== undefined) {
      const max = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { limit: limit.maximum } });
      ctx.expect(max.response.status === 200, {
        expected: `200 for GET ${op.template} with limit ${limit.maximum} (the maximum)`,
        actual: got(max),
        exchange: max,
        says: 'kit: limit is at most 100 (the maximum is not shown; PAG-007)',
      });
    }
  }
}

export async function page_past_end_empty(ctx: CheckContext): Promise<void> {
  const lists = ctx.contract.find((op) => op.method === 'GET' && !op.template.includes('{') && !!ctx.contract.queryParam(op, 'page'));
  for (const op of lists) {
    const first = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { page: 1, limit: 100 } });
    const total = metaOf(first)?.total_pages;
    if (
      !ctx.expect(Number.isInteger(total) && (total as number) >= 1, {
        expected: `meta.total_pages an integer ≥ 1 for GET ${op.template}`,
        actual: got(first),
        exchange: first,
        says: 'kit: total_pages is at least 1, also for an empty list (PAG-008)',
      })
    )
      continue;
    // Well past the end, so records other checks create meanwhile cannot reach it.
    const page = (total as number) + 5;
    const past = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { page, limit: 100 } });
    const m = metaOf(past);
    ctx.expect(
      past.response.status === 200 &&
        same(body(past).data, []) &&
        m?.page === page &&
        m?.limit === 100 &&
        Number.isInteger(m?.total_pages) &&
        (m!.total_pages as number) >= 1,
      {
        expected: `200 { data: [], meta: { page: ${page}, limit: 100, total_pages ≥ 1 } } for GET ${op.template}?page=${page} (total_pages ${String(total)})`,
        actual: got(past),
        exchange: past,
        says: 'kit: a page past total_pages answers 200 with an empty data array and meta (PAG-008)',
      },
    );
  }
  // Empty lists: a patient search, an appointment day and a note type that match nothing.
  for (const [path, query] of [
    ['/patients', { search: token(ctx) }],
    ['/appointments', { date: '1901-01-01' }],
    ['/notes', { note_type: token(ctx) }],
  ] as const) {
    const ex = await ctx.send({ method: 'GET', path, key: ctx.keys.main, query });
    const m = metaOf(ex);
    ctx.expect(ex.response.status === 200 && same(body(ex).data, []) && m?.page === 1 && m?.total_pages === 1, {
      expected: `200 { data: [], meta: { page: 1, total_pages: 1 } } for the empty list GET ${path}?${new URLSearchParams(query).toString()}`,
      actual: got(ex),
      exchange: ex,
      says: 'kit: total_pages is at least 1, also for an empty list (PAG-008)',
    });
  }
}

/** Every paginated list honours limit: at most that many items and meta.limit says so (the one check of PAG-002). */
export async function limit_parameter_honoured(ctx: CheckContext): Promise<void> {
  for (const op of paginated(ctx))
    for (const limit of [1, 3]) {
      const ex = await ctx.send({ method: 'GET', path: op.template, key: ctx.keys.main, query: { limit } });
      const meta = body(ex).meta as { limit?: unknown } | undefined;
      ctx.expect(ex.response.status === 200 && meta?.limit === limit && listOf(ex).length <= limit, {
        expected: `200 with at most ${limit} item(s) and meta.limit ${limit} for GET ${op.template}?limit=${limit}`,
        actual: `${got(ex)}${Array.isArray(body(ex).data) ? ` (${listOf(ex).length} items)` : ''}`,
        exchange: ex,
        says: ['Query parameters | page (default 1), limit (default 20)', 'meta with page, limit, total_pages (integers)'],
      });
    }
}

export const checks: CheckDef[] = [
  check(limit_parameter_honoured, { rule: 'PAG-002', covers: ['PAG-006'] }),
  check(pages_walk_to_total_pages, { rule: 'PAG-004', covers: ['PAG-006'] }),
  check(documents_list_without_meta, { rule: 'PAG-005' }),
  check(page_and_limit_bounds, { rule: 'PAG-007', provenance: 'assumed' }),
  check(page_past_end_empty, { rule: 'PAG-008', provenance: 'assumed' }),
];
