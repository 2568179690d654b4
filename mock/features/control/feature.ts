// The control API's own routes under /__mock: health, reset, keys, faults, the request journal, the dashboard and the API reference. Other features add theirs (finalize, ...).
import type { Hono } from 'hono';
import type { FaultKind, Feature, SeedFile } from '../../platform/deps.ts';
import { type EngineFaults, FAULT_KINDS, MAX_ARMED_FAULTS } from '../../platform/faults.ts';
import type { RequestJournal } from '../../platform/request-journal.ts';
import { API_BASE } from '../../platform/spec.ts';
import type { DashboardView } from './dashboard/page.ts';
import { readFaultInput } from './fault-input.ts';
import { harRoute } from './har.ts';
import { journalRoutes } from './requests.ts';
import { readingsListing, type ActiveReadings } from '../../readings/active.ts';

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
  /** --upstream: the upstream's base URL. */
  upstream?: string;
  /** Why a fault kind cannot be armed in this mode (--upstream: the engine's own kinds), or undefined. */
  refuseFault?: (kind: FaultKind) => string | undefined;
  /** The API's public base URL (the HAR's request URLs). */
  apiUrl: () => string;
  /** The readings of the document the engine plays (GET /__mock/readings lists the whole catalogue). */
  readings: ActiveReadings;
}

/** Mounts the control API's pages (GET /__mock/, GET /__mock/docs) with the view they show. */
export type ControlPages = (app: Hono, view: () => DashboardView) => void;

function controlRoutes(app: Hono, target: ControlTarget): void {
  app.get('/health', (c) =>
    c.json({ status: 'ok', mode: target.mode, time_scale: target.timeScale, ...(target.upstream ? { upstream: target.upstream } : {}) }),
  );
  // The dashboard offers only what this mode does: the fault kinds it accepts, reset where there is a seed.
  const faultKinds = FAULT_KINDS.filter((k) => !target.refuseFault?.(k));
  target.pages?.(app, () => ({
    mode: target.mode,
    keys: target.keys,
    apiBase: API_BASE,
    journalSize: target.journal.capacity,
    readings: readingsListing(target.readings).filter((r) => r.active),
    faultKinds,
    canReset: target.upstream === undefined,
  }));
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
  app.get('/readings', (c) => c.json({ data: readingsListing(target.readings), active: target.readings.ids }));
  journalRoutes(app, target.journal);
  harRoute(app, target.journal, target.apiUrl);
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
    const input = readFaultInput(body);
    if (!input.ok) return c.json({ error: 'Validation failed', details: input.details }, 400);
    const refused = target.refuseFault?.(input.fault.kind);
    if (refused) return c.json({ error: 'Validation failed', details: { kind: refused } }, 400);
    const fault = target.faults.add(input.fault);
    if (!fault)
      return c.json(
        {
          error: `At most ${MAX_ARMED_FAULTS} faults may be armed at once: clear some first (DELETE /__mock/faults, ?scope= for one scope's)`,
        },
        409,
      );
    return c.json({ data: fault }, 201);
  });
}

/** Built by the composition root, which alone knows how to reset the engine. */
export const controlFeature = (target: ControlTarget): Feature => ({ name: 'control', control: (app) => controlRoutes(app, target) });
