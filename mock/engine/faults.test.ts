// Scoped faults: a fault armed with a scope is taken only by a request of that scope (its own first), unscoped
// faults by any request; takeScoped never takes an unscoped one.
import { describe, expect, it } from 'vitest';
import { createFaults } from './faults.ts';

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
    expect(f.takeHttp('GET', '/providers')).toBeUndefined();
    expect(f.takeHttp('GET', '/providers', 'a')?.status).toBe(404);
  });

  it('an http fault path: `*` is one segment, `**` the rest, other characters literal', () => {
    const f = createFaults();
    const hits = (pattern: string, paths: string[]) =>
      paths.filter((p) => {
        f.clear();
        f.add({ kind: 'http', count: 1, method: '*', path: pattern, status: 503 });
        return f.takeHttp('GET', p) !== undefined;
      });
    const paths = ['/patients', '/patients/1', '/patients/1/documents', '/patients.1', '/sessions/s/notes'];
    expect(hits('/patients/*', paths)).toEqual(['/patients/1']);
    expect(hits('/patients/**', paths)).toEqual(['/patients/1', '/patients/1/documents']);
    expect(hits('/patients/*/documents', paths)).toEqual(['/patients/1/documents']);
    expect(hits('/**/notes', paths)).toEqual(['/sessions/s/notes']);
    expect(hits('/patients.*', ['/patients.1', '/patientsx1'])).toEqual(['/patients.1']);
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
