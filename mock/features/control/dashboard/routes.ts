// GET /__mock/ (and /__mock): the dashboard; GET /__mock/docs: the API reference. Under /__mock, so the control API's
// loopback, Host and Origin rules apply to both (mock/platform/loopback.ts, checked by the front and the engine).
import type { Context, Hono } from 'hono';
import type { ControlPages } from '../feature.ts';
import { API_REFERENCE_HEADERS, API_REFERENCE_MISSING, apiReferenceHtml, apiReferenceSource } from './api-reference.ts';
import { onFirstUse } from '../../../platform/on-first-use.ts';
import type { DashboardView } from './page.ts';

/** The page's assets are read when it is first asked for: a run nobody opens the dashboard of never holds them. */
const pageModule = onFirstUse(() => import('./page.ts'));

/** The pages, with the API reference read from `referenceDirs` (default: dist/, api-reference.ts). */
export function dashboardPages(o: { referenceDirs?: readonly string[] } = {}): ControlPages {
  const reference = o.referenceDirs ? apiReferenceSource(o.referenceDirs) : apiReferenceHtml;
  return (app: Hono, view: () => DashboardView) => {
    const page = async (c: Context) => {
      const { DASHBOARD_HEADERS, dashboardHtml } = await pageModule();
      return c.body(dashboardHtml(view()), 200, DASHBOARD_HEADERS);
    };
    // Mounted at /__mock, '/' is /__mock alone; the empty-or-slash parameter is /__mock/ (Hono's routes are strict).
    app.get('/', page);
    app.get('/:slash{/?}', page);
    app.get('/docs', (c) => {
      const html = reference();
      return html ? c.body(html, 200, API_REFERENCE_HEADERS) : c.json({ error: API_REFERENCE_MISSING }, 404);
    });
  };
}

export const dashboardRoutes: ControlPages = dashboardPages();
