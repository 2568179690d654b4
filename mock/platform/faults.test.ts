// Scoped faults: a fault armed with a scope is taken only by a request of that scope (its own first), unscoped
// faults by any request; takeScoped never takes an unscoped one.
import { describe, expect, it } from 'vitest';
import { createMock } from '../in-process/node.ts';
import { type AimedRequest, createFaults, MAX_ARMED_FAULTS, MAX_FAULT_PATH, MAX_GLOB_MATCHED_PATH } from './faults.ts';

/** A request to `rel` under the API base. */
const aimed = (method: string, rel: string, scope?: string): AimedRequest => ({ method, rel, path: `/ext-api/v1${rel}`, scope });

describe('fault scopes', () => {
  it('take: the request’s own scoped fault, else an unscoped one, never another scope’s', () => {
    const f = createFaults();
    f.add({ kind: 'regeneration-unavailable', count: 1, scope: 'a' });
    expect(f.take('regeneration-unavailable')).toBe(false);
    expect(f.take('regeneration-unavailable', 'b')).toBe(false);
    expect(f.take('regeneration-unavailable', 'a')).toBe(true);
    expect(f.take('regeneration-unavailable', 'a')).toBe(false);
    f.add({ kind: 'regeneration-unavailable', count: 1 });
    f.add({ kind: 'regeneration-unavailable', count: 1, scope: 'a' });
    expect(f.take('regeneration-unavailable', 'a')).toBe(true);
    expect(f.list().map((x) => x.scope)).toEqual([undefined]);
    expect(f.take('regeneration-unavailable', 'b')).toBe(true);
  });

  it('takeScoped takes only its scope; takeHttp matches scope like take', () => {
    const f = createFaults();
    f.add({ kind: 'extraction-fails', count: 1 });
    expect(f.takeScoped('extraction-fails', 'a')).toBe(false);
    f.add({ kind: 'extraction-fails', count: 1, scope: 'a' });
    expect(f.takeScoped('extraction-fails', 'a')).toBe(true);
    f.add({ kind: 'http', count: 1, method: 'GET', path: '/providers', status: 404, scope: 'a' });
    expect(f.takeHttp(aimed('GET', '/providers'))).toBeUndefined();
    expect(f.takeHttp(aimed('GET', '/providers', 'a'))?.status).toBe(404);
  });

  it('clear(scope) drops only that scope’s faults; clear() all', () => {
    const f = createFaults();
    f.add({ kind: 'rate-limited', count: 1, scope: 'a' });
    f.add({ kind: 'rate-limited', count: 1, scope: 'b' });
    f.add({ kind: 'rate-limited', count: 1 });
    f.clear('a');
    expect(f.list().map((x) => x.scope)).toEqual(['b', undefined]);
    f.clear();
    expect(f.list()).toEqual([]);
  });
});

describe('armed', () => {
  it('is true exactly while a fault is left, so the pipeline may skip reading scopes', () => {
    const f = createFaults();
    expect(f.armed).toBe(false);
    f.add({ kind: 'http', count: 1, method: 'GET', path: '/providers', status: 500 });
    expect(f.armed).toBe(true);
    expect(f.takeHttp(aimed('GET', '/providers'))?.status).toBe(500);
    expect(f.armed).toBe(false);
    f.add({ kind: 'rate-limited', count: null, scope: 'a' });
    expect(f.armed).toBe(true);
    f.clear('a');
    expect(f.armed).toBe(false);
  });
});

describe('fault bounds (issue 42, item 8)', () => {
  it(`arms at most ${MAX_ARMED_FAULTS} faults, each path at most ${MAX_FAULT_PATH} characters, through the control API`, async () => {
    const mock = await createMock();
    try {
      const arm = (body: object) => mock.fetch(`${mock.controlUrl}/faults`, { method: 'POST', body: JSON.stringify(body) });
      const tooLong = await arm({ kind: 'drop', path: `/${'a'.repeat(MAX_FAULT_PATH)}` });
      expect(tooLong.status).toBe(400);
      expect(((await tooLong.json()) as { details: Record<string, string> }).details.path).toContain(`${MAX_FAULT_PATH} characters`);
      for (let i = 0; i < MAX_ARMED_FAULTS; i++) expect((await arm({ kind: 'drop', path: `/x${i}/**`, count: null })).status).toBe(201);
      const full = await arm({ kind: 'rate-limited' });
      expect(full.status).toBe(409);
      expect(((await full.json()) as { error: string }).error).toMatch(/DELETE \/__mock\/faults/);
      await mock.fetch(`${mock.controlUrl}/faults?scope=none`, { method: 'DELETE' });
      expect((await arm({ kind: 'rate-limited' })).status).toBe(409);
      await mock.fetch(`${mock.controlUrl}/faults`, { method: 'DELETE' });
      expect((await arm({ kind: 'rate-limited' })).status).toBe(201);
    } finally {
      await mock.close();
    }
  });

  it(`tries a glob only on paths of at most ${MAX_GLOB_MATCHED_PATH} characters; a literal path on any`, () => {
    const f = createFaults();
    const long = `/${'a'.repeat(MAX_GLOB_MATCHED_PATH)}`;
    f.add({ kind: 'drop', method: '*', path: '/**', count: null });
    expect(f.takeNetwork(aimed('GET', '/patients'))).toBeDefined();
    expect(f.takeNetwork(aimed('GET', long))).toBeUndefined();
    f.add({ kind: 'reset', method: '*', path: long, count: null });
    expect(f.takeNetwork(aimed('GET', long))?.kind).toBe('reset');
  });

  it('faults armed with one glob share it: each still matches by its own method and kind, and one consumed leaves the rest', () => {
    const f = createFaults();
    f.add({ kind: 'http', method: 'POST', path: '/patients/*', status: 503, count: null });
    f.add({ kind: 'http', method: 'GET', path: '/patients/*', status: 502, count: 1 });
    f.add({ kind: 'drop', method: '*', path: '/patients/*', count: 1 });
    expect(f.takeHttp(aimed('GET', '/patients/42'))?.status).toBe(502);
    expect(f.takeHttp(aimed('GET', '/patients/42'))).toBeUndefined();
    expect(f.takeHttp(aimed('POST', '/patients/42'))?.status).toBe(503);
    expect(f.takeHttp(aimed('POST', '/patients'))).toBeUndefined();
    expect(f.takeNetwork(aimed('GET', '/patients/42'))?.kind).toBe('drop');
    expect(f.list().map((x) => x.method)).toEqual(['POST']);
  });
});
