// Refusals a browser hides from the page, seen where the developer looks: in every mode with an engine the request
// journal lists a refused CORS preflight, an answer the page may not read, a Host the API does not answer, a control
// request from a foreign page and a request the parser refused, each with the reason and the flag that would allow it;
// the terminal prints one line per new origin or host (static mode too). Names compare case-insensitively, and
// --allowed-host opens a name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShownEntry } from '../platform/journal-entry.ts';
import { startMock, type MockMode, type RunningMock } from '../server.ts';
import { rawGet, rawRequest } from '../testing/raw-http.ts';

const PAGE = 'http://app.test:8080';

describe.each<MockMode>(['default', 'engine-only'])('refusals in the journal and on the terminal, %s mode', (mode) => {
  let m: RunningMock;
  let port: number;
  const lines: string[] = [];
  beforeAll(async () => {
    m = await startMock({ port: 0, mode, strict: mode === 'default', onRefusal: (l) => lines.push(l), allowedHosts: ['open.test'] });
    port = Number(new URL(m.url).port);
  });
  afterAll(async () => {
    await m?.close();
  });
  const key = () => m.keys.find((k) => k.label === 'all')!.key;
  const journal = async () => ((await (await fetch(`${m.controlUrl}/requests`)).json()) as { data: ShownEntry[] }).data;
  const raw = (target: string, host: string, extra: string[] = []) => rawRequest(port, rawGet(target, host, extra));

  it('lists a refused preflight and an answer the page may not read, naming --cors-origin; one line per origin', async () => {
    for (let i = 0; i < 2; i++) {
      const pre = await fetch(`${m.url}/patients`, {
        method: 'OPTIONS',
        headers: { origin: PAGE, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
      });
      expect(pre.status).toBe(403);
      const simple = await fetch(`${m.url}/providers`, { headers: { origin: PAGE, 'x-api-key': key() } });
      expect(simple.status).toBe(200);
      expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    }
    const [providers, preflight] = await journal();
    expect(preflight).toMatchObject({
      method: 'OPTIONS',
      path: '/ext-api/v1/patients',
      status: 403,
      key: 'no key',
      refused: { by: 'cors', allow: `--cors-origin ${PAGE}`, reason: expect.stringContaining('preflight was refused') },
    });
    expect(providers).toMatchObject({
      method: 'GET',
      status: 200,
      key: 'all',
      refused: { by: 'cors', allow: `--cors-origin ${PAGE}`, reason: expect.stringContaining('hides this answer') },
    });
    expect(lines.filter((l) => l.includes(PAGE))).toEqual([
      `refused: Origin ${PAGE} may not read API answers: its CORS preflight was refused; to allow it: --cors-origin ${PAGE}`,
    ]);
    // A page of a loopback origin is not refused, and nothing is said of it.
    await fetch(`${m.url}/providers`, { headers: { origin: 'http://localhost:5173', 'x-api-key': key() } });
    expect((await journal())[0]!.refused).toBeUndefined();
  });

  it('refuses a Host the API does not answer with a 403 naming --allowed-host, and journals it; LOCALHOST and --allowed-host pass', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await raw(`/ext-api/v1/patients?k=${key()}`, `Rebind.Test:${port}`, [`X-API-Key: ${key()}`]);
      expect(r.status).toBe(403);
      expect(r.json.error).toContain('--allowed-host rebind.test');
      expect(r.headers['x-ratelimit-limit']).toBeDefined();
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    const [entry] = await journal();
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/ext-api/v1/patients',
      query: 'k=[redacted key]',
      status: 403,
      key: 'not checked',
      refused: { by: 'host', allow: '--allowed-host rebind.test' },
      error: { error: expect.stringContaining(`Host "rebind.test:${port}" is not allowed`) },
    });
    expect(JSON.stringify(entry)).not.toContain(key());
    expect(lines.filter((l) => l.includes('rebind.test'))).toHaveLength(1);
    expect(lines.find((l) => l.includes('rebind.test'))).toMatch(/; to allow it: --allowed-host rebind\.test$/);
    expect((await raw('/ext-api/v1/providers', `LOCALHOST:${port}`, [`X-API-Key: ${key()}`])).status).toBe(200);
    expect((await raw('/ext-api/v1/providers', `open.test:${port}`, [`X-API-Key: ${key()}`])).status).toBe(200);
    expect((await raw('/ext-api/v1/providers', `app.localhost:${port}`, [`X-API-Key: ${key()}`])).status).toBe(200);
  });

  it("journals a control request from another site's page and one the parser refused, with the reason", async () => {
    const control = await fetch(`${m.controlUrl}/keys`, { headers: { origin: PAGE } });
    expect(control.status).toBe(403);
    const brew = await rawRequest(port, 'BREW /ext-api/v1/patients HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(brew.status).toBe(400);
    const [parser, foreign] = await journal();
    expect(foreign).toMatchObject({
      path: '/__mock/keys',
      status: 403,
      refused: { by: 'front', reason: expect.stringContaining(`pages of other origins (${PAGE})`) },
    });
    expect(foreign!.refused!.allow).toBeUndefined();
    expect(parser).toMatchObject({ method: 'BREW', path: '/ext-api/v1/patients', status: 400, refused: { by: 'front' } });
    expect(lines.filter((l) => l.includes('control API'))).toHaveLength(1);
  });
});

describe('refusals in static mode: no journal, the terminal still says why', () => {
  let m: RunningMock;
  const lines: string[] = [];
  beforeAll(async () => {
    m = await startMock({ port: 0, mode: 'static', onRefusal: (l) => lines.push(l) });
  });
  afterAll(async () => {
    await m?.close();
  });

  it('refuses a foreign Host with the flag, and prints one line per origin and host', async () => {
    const port = Number(new URL(m.url).port);
    const r = await rawRequest(port, rawGet('/ext-api/v1/patients', `rebind.test:${port}`));
    expect(r.status).toBe(403);
    expect(r.json.error).toContain('--allowed-host rebind.test');
    for (let i = 0; i < 2; i++)
      await fetch(`${m.url}/patients`, { method: 'OPTIONS', headers: { origin: PAGE, 'access-control-request-method': 'GET' } });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('--allowed-host rebind.test');
    expect(lines[1]).toContain(`--cors-origin ${PAGE}`);
  });
});
