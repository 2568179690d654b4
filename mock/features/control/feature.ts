// The control API's own routes under /__mock: health, reset, keys, faults, the request journal, the dashboard and the API reference. Other features add theirs (finalize, ...).
import type { Hono } from 'hono';
import type { FaultKind, Feature, SeedFile } from '../../platform/deps.ts';
import { FAULT_KINDS, type EngineFaults } from '../../platform/faults.ts';
import type { RequestJournal } from '../../platform/request-journal.ts';
import { API_BASE } from '../../platform/spec.ts';
import type { DashboardView } from './dashboard/page.ts';
import { journalRoutes } from './requests.ts';

export interface ControlTarget {
  keys: SeedFile['keys'];
  faults: EngineFaults;
  journal: RequestJournal;
  reset(): Promise<void>;
  mode: string;
  /** --time-scale: tools that time the mock's simulated durations (the conformance suite's webhook checks) read it. */
  timeScale: number;
  /** The dashboard and API reference pages, when the runtime has them (they read files: mock/runtime/node.ts). */
  pages?: ControlPages;
}

/** Mounts the control API's pages (GET /__mock/, GET /__mock/docs) with the view they show. */
export type ControlPages = (app: Hono, view: () => DashboardView) => void;

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', '*'];

function controlRoutes(app: Hono, target: ControlTarget): void {
  app.get('/health', (c) => c.json({ status: 'ok', mode: target.mode, time_scale: target.timeScale }));
  target.pages?.(app, () => ({ mode: target.mode, keys: target.keys, apiBase: API_BASE, journalSize: target.journal.capacity }));
  app.post('/reset', async (c) => {
    await target.reset();
    return c.json({ success: true });
  });
  app.get('/keys', (c) =>
    c.json({
      data: target.keys.map(({ key, organization_id, provider_id, scopes, state }) => ({
        key,
        organization_id,
        provider_id,
        scopes,
        state,
      })),
    }),
  );
  journalRoutes(app, target.journal);
  app.get('/faults', (c) => c.json({ data: target.faults.list() }));
  app.delete('/faults', (c) => {
    // ?scope=<s> clears only the faults armed with that scope (one check's), leaving everyone else's.
    target.faults.clear(c.req.query('scope') || undefined);
    return c.json({ success: true });
  });
  app.post('/faults', async (c) => {
    let body: Record<string, unknown>;
    try {
      body = (await c.req.json()) as Record<string, unknown>;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error();
    } catch {
      return c.json({ error: 'Validation failed', details: { body: 'a JSON object is required' } }, 400);
    }
    const details: Record<string, string> = {};
    const kind = body.kind as FaultKind;
    if (!FAULT_KINDS.includes(kind)) details.kind = `must be one of ${FAULT_KINDS.join(', ')}`;
    // Omitted: once. null: until cleared (so `?? 1` would be wrong).
    const count = body.count === undefined ? 1 : body.count;
    if (count !== null && !(Number.isInteger(count) && (count as number) >= 1)) details.count = 'must be an integer >= 1 or null';
    const allowed = [...(kind === 'http' ? ['kind', 'count', 'method', 'path', 'status'] : ['kind', 'count']), 'scope'];
    for (const k of Object.keys(body)) if (!allowed.includes(k)) details[k] = 'unknown field';
    const scope = body.scope;
    if (scope !== undefined && !(typeof scope === 'string' && /^[\x21-\x7e]{1,200}$/.test(scope)))
      details.scope = 'must be 1 to 200 visible ASCII characters (the value of the X-Mock-Fault-Scope request header)';
    const method = typeof body.method === 'string' ? body.method.toUpperCase() : undefined;
    if (kind === 'http') {
      if (!method || !HTTP_METHODS.includes(method)) details.method = `must be one of ${HTTP_METHODS.join(', ')}`;
      if (typeof body.path !== 'string' || !body.path.startsWith('/')) details.path = 'must be a path starting with /';
      if (!(Number.isInteger(body.status) && (body.status as number) >= 400 && (body.status as number) <= 599))
        details.status = 'must be an integer from 400 to 599';
    }
    if (Object.keys(details).length) return c.json({ error: 'Validation failed', details }, 400);
    const fault = target.faults.add({
      kind,
      count: count as number | null,
      ...(kind === 'http' ? { method, path: body.path as string, status: body.status as number } : {}),
      ...(scope !== undefined ? { scope: scope as string } : {}),
    });
    return c.json({ data: fault }, 201);
  });
}

/** Built by the composition root, which alone knows how to reset the engine. */
export const controlFeature = (target: ControlTarget): Feature => ({ name: 'control', control: (app) => controlRoutes(app, target) });
