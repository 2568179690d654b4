// The engine alone, through `app.fetch` with no adapter env (as the in-process adapter and a browser will call it):
// the same answers as behind the node adapters, read and written through web streams and web Headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from './engine.ts';
import { API_BASE, specIndex } from './platform/spec.ts';
import { nodeRuntime } from './runtime/node.ts';
import { readSeedFile } from './seed/load.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ runtime: nodeRuntime, seed: () => readSeedFile(), timeScale: 0.01 });
});
afterAll(async () => {
  await engine?.close();
});

const key = (label: string) => engine.keys.find((k) => k.label === label)!.key;
const api = (path: string, init: RequestInit = {}) => engine.app.fetch(new Request(`http://127.0.0.1/ext-api/v1${path}`, init));

describe('the engine through app.fetch', () => {
  it('answers a list with its page and the rate-limit headers', async () => {
    const r = await api('/patients?limit=2', { headers: { 'x-api-key': key('all') } });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBe('1200');
    const body = (await r.json()) as { data: unknown[]; meta: { limit: number } };
    expect(body.data).toHaveLength(2);
    expect(body.meta.limit).toBe(2);
  });

  it('reads a JSON body from the web stream, and refuses one past the limit with 413', async () => {
    const headers = { 'x-api-key': key('all'), 'content-type': 'application/json' };
    const created = await api('/patients', { method: 'POST', headers, body: JSON.stringify({ name: 'Web Stream' }) });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { data: { name: string } }).data.name).toBe('Web Stream');
    const big = await api('/patients', { method: 'POST', headers, body: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 1) }) });
    expect(big.status).toBe(413);
  });

  it("routes every request with Hono's RegExpRouter (one route it cannot take would put all on the slower trie)", async () => {
    await api('/providers', { headers: { 'x-api-key': key('all') } });
    expect((engine.app.router as { name: string }).name).toBe('SmartRouter + RegExpRouter');
    // GET /notes/export shares /notes/:noteId's route; /__mock and /__mock/ reach the control app by prefix.
    expect((await api('/notes/export', { headers: { 'x-api-key': key('all') } })).headers.get('content-disposition')).toContain(
      'notes.json',
    );
    for (const path of ['/__mock', '/__mock/'])
      expect((await engine.app.fetch(new Request(`http://127.0.0.1${path}`), { peer: '127.0.0.1' })).status).toBe(200);
  });

  it('matches each operation with one handler at most, which Hono then calls without its compose', () => {
    const counts = specIndex().operations.map((op) => {
      const path = `${API_BASE}${op.path.replace(/\{[^}]+\}/g, '1')}`;
      return engine.app.router.match(op.method === 'HEAD' ? 'GET' : op.method, path)[0].length;
    });
    expect(Math.max(...counts)).toBe(1);
    // Operations no feature answers reach the app's not-found answer, which runs the same front (501 after the checks).
    expect(counts.filter((n) => n === 0).length).toBeLessThan(counts.length / 2);
  });

  it('takes each refusal in the platform order: 404, 405, 401, 403, 400', async () => {
    const all = { 'x-api-key': key('all') };
    expect((await api('/nowhere', { headers: all })).status).toBe(404);
    const wrong = await api('/providers', { method: 'DELETE', headers: all });
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect((await api('/patients')).status).toBe(401);
    expect((await api('/patients', { headers: { 'x-api-key': key('appointments:read') } })).status).toBe(403);
    expect((await api('/patients/not-a-number', { headers: all })).status).toBe(400);
  });
});
