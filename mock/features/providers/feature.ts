// Providers: list (with the npi lookup) and get. Read-only: other methods get 405 from the platform.
import type { components } from '../../../generated/types.ts';
import { PROVIDERS } from '../../platform/collections.ts';
import type { FeatureFactory } from '../../platform/deps.ts';
import { listPage, orgOf, pageBody, queryOf, type PageQuery } from '../../platform/http.ts';
import { seedRows } from '../../platform/seed-rows.ts';

type Provider = components['schemas']['Provider'];

export const providersFeature: FeatureFactory = (deps) => ({
  name: 'providers',
  seed(seed) {
    const coll = deps.store.collection<Provider>(PROVIDERS);
    seedRows<Provider>(seed, 'providers', 'Provider', deps, (org, row) => coll.insert(org, row));
  },
  routes(app) {
    const coll = deps.store.collection<Provider>(PROVIDERS);
    app.get('/providers', (c) => {
      const q = queryOf<PageQuery & { npi?: string }>(c, deps);
      if (q instanceof Response) return q;
      const org = orgOf(c);
      if (q.npi !== undefined) {
        const hit = coll.all(org).find((p) => p.npi === q.npi);
        return hit ? c.json(pageBody([hit], { page: 1, limit: q.limit }, 1)) : deps.responses.error(c, 404, 'No provider with this NPI');
      }
      const { rows, total } = listPage(coll, org, q);
      return c.json(pageBody(rows, q, total));
    });
    app.get('/providers/:providerId', (c) => {
      const p = coll.get(orgOf(c), c.req.param('providerId'));
      return p ? c.json({ data: p }) : deps.responses.error(c, 404, 'Provider not found');
    });
  },
});
