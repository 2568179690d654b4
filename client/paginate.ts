// paginate(): every item of a list operation, page after page, until `meta.total_pages`. A list without `meta`
// (documents) or an external_id lookup (pagination bypassed) is one page.
import { toApiError } from './errors.ts';
import type { LooseCall } from './loose.ts';

interface Page {
  data: unknown[];
  meta?: { page: number; total_pages: number };
}

export async function* paginate(
  get: LooseCall,
  path: string,
  init: { path?: object; query?: Record<string, unknown> } = {},
): AsyncGenerator<unknown> {
  const first = init.query?.page;
  let page = typeof first === 'number' ? first : 1;
  for (;;) {
    const { data, error, response } = await get(path, { params: { path: init.path, query: { ...init.query, page } } });
    if (data === undefined) throw toApiError(`GET ${path}`, response, error);
    const body = data as Page;
    yield* body.data;
    // The end is the page at total_pages; an empty page also ends it, so a wrong total cannot loop forever.
    if (!body.meta || body.meta.page >= body.meta.total_pages || body.data.length === 0) return;
    page = body.meta.page + 1;
  }
}
