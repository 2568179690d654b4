// The platform's middleware, one job each, handing what they find to each other by name in the context: a middleware
// mounted without the one it reads from is a wiring bug, named, never a silent re-check.
import { type Context, Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { nodeRuntime } from '../runtime/node.ts';
import type { EngineContext, EngineEnv } from './deps.ts';
import { createKeyring } from './keys.ts';
import { authenticate, checkKey, requireScope } from './auth.ts';
import { apiFront, type Check, checkPathIds, routeOperation, routeTable } from './pipeline.ts';
import { createResponses } from './responses.ts';
import { API_BASE, specIndex } from './spec.ts';
import { createValidator } from './validator.ts';

const spec = specIndex();
const validator = createValidator(spec.bundle);
const responses = createResponses(validator);
const keyring = createKeyring(
  [
    { key: 'k-read', organization_id: 'o', provider_id: 'p', scopes: ['patients:read'], state: 'active' },
    { key: 'k-old', organization_id: 'o', provider_id: 'p', scopes: ['*'], state: 'expired' },
  ],
  nodeRuntime.sha256Hex,
);

/** The checks in front of one route that shows what they set; no CORS, no journal; a throw answered with its message. */
function app(...steps: Check[]) {
  const front = apiFront(
    () => undefined,
    steps,
    undefined,
    (err, c) => c.json({ error: err.message }, 500),
  );
  const show = front((c) =>
    c.json({ operationId: c.get('operationId'), params: c.get('pathParams'), org: c.get('auth')?.organization_id }),
  );
  const api = new Hono<EngineEnv>();
  api.all('*', show);
  return new Hono().route(API_BASE, api);
}
const get = (a: Hono, path: string, key?: string) => a.request(`${API_BASE}${path}`, { headers: key ? { 'x-api-key': key } : {} });

describe('the platform middleware', () => {
  const full = app(
    checkKey(keyring),
    routeOperation(spec, responses),
    authenticate(responses),
    requireScope(responses),
    checkPathIds(validator, responses),
  );

  it('routeOperation names the operation and its path parameters for what follows', async () => {
    const r = await get(full, '/patients/1234567890123456789', 'k-read');
    expect(await r.json()).toEqual({ operationId: 'getPatient', params: { patientId: '1234567890123456789' }, org: 'o' });
  });

  it('each job answers its own refusal', async () => {
    expect((await get(full, '/nowhere', 'k-read')).status).toBe(404);
    expect(await (await get(full, '/patients', 'k-old')).json()).toEqual({ error: 'API key expired' });
    expect((await get(full, '/appointments', 'k-read')).status).toBe(403);
    expect((await get(full, '/patients/abc', 'k-read')).status).toBe(400);
  });

  it('a middleware mounted without the one it reads from fails loudly, naming it', async () => {
    const r = await get(app(routeOperation(spec, responses), authenticate(responses)), '/patients', 'k-read');
    expect(r.status).toBe(500);
    expect(((await r.json()) as { error: string }).error).toContain('mount checkKey');
    const s = await get(app(checkKey(keyring), authenticate(responses), requireScope(responses)), '/patients', 'k-read');
    expect(((await s.json()) as { error: string }).error).toContain('mount routeOperation');
  });
});

describe('the API front (CORS, the journal around the checks and the route, inside each route)', () => {
  const seen: string[] = [];
  const cors: Check = (c) => (c.req.method === 'OPTIONS' ? c.body(null, 204) : undefined);
  const refuse: Check = (c) => (c.req.path.endsWith('/refused') ? c.json({ error: 'no' }, 403) : undefined);
  const broken: Check = (c) => {
    if (c.req.path.endsWith('/broken')) throw new Error('a bug');
    return undefined;
  };
  const onError = (err: Error, c: Context) => c.json({ error: `handled: ${err.message}` }, 500);
  const wrap = apiFront(
    cors,
    [refuse, broken],
    (c, _started, answer) => void seen.push(`${c.req.method} ${c.req.path} ${answer.status}`),
    onError,
  );
  const api = new Hono<EngineEnv>();
  const routes = routeTable(api, wrap);
  for (const path of ['/ok', '/refused', '/broken']) routes.get(path, (c) => c.json({ ok: true }));
  routes.get('/fails', () => {
    throw new Error('route bug');
  });
  routes.post('/rejects', async () => {
    await Promise.resolve();
    throw new Error('async route bug');
  });
  const unrouted = wrap((c) => c.json({ error: 'unrouted' }, 501));
  const front = new Hono().route(API_BASE, api);
  front.notFound((c) => unrouted(c as unknown as EngineContext));
  front.onError(onError);

  it('journals every answer but a preflight, a check or route that throws answered as the app answers errors', async () => {
    const statuses = [];
    for (const [method, path] of [
      ['OPTIONS', '/x'],
      ['GET', '/ok'],
      ['GET', '/refused'],
      ['GET', '/broken'],
      ['GET', '/fails'],
      ['POST', '/rejects'],
      ['GET', '/elsewhere'],
    ] as const) {
      const r = await front.request(`${API_BASE}${path}`, { method });
      statuses.push(r.status);
      if (r.status === 500) expect(((await r.json()) as { error: string }).error).toMatch(/^handled: /);
    }
    expect(statuses).toEqual([204, 200, 403, 500, 500, 500, 501]);
    expect(seen).toEqual([
      `GET ${API_BASE}/ok 200`,
      `GET ${API_BASE}/refused 403`,
      `GET ${API_BASE}/broken 500`,
      `GET ${API_BASE}/fails 500`,
      `POST ${API_BASE}/rejects 500`,
      `GET ${API_BASE}/elsewhere 501`,
    ]);
  });

  it('each route is one handler, matched alone (Hono then calls it directly, without its compose)', () => {
    expect(front.router.match('GET', `${API_BASE}/ok`)[0]).toHaveLength(1);
  });
});
