// The operation table and the matcher every reader of the contract routes with: literal segments before
// parameters, parameters decoded, trailing slash only where asked, methods compared without case.
import { describe, expect, it } from 'vitest';
import { loadBundle } from './bundle.ts';
import { createMatcher, operations, requiredScopes, templateParams } from './operations.ts';

const routes = [
  { method: 'GET', path: '/notes/{noteId}' },
  { method: 'PATCH', path: '/notes/{noteId}' },
  { method: 'GET', path: '/notes/export' },
  { method: 'get', path: '/patients/{patientId}/documents/{documentId}' },
  { method: 'GET', path: '/a.b' },
];

describe('path matcher', () => {
  const m = createMatcher(routes);

  it('prefers the literal template, and lists every template that fits for a method', () => {
    expect(m.find('GET', '/notes/export')!.path).toBe('/notes/export');
    expect(m.candidates('get', '/notes/export').map((r) => r.path)).toEqual(['/notes/export', '/notes/{noteId}']);
    expect(m.match('/notes/export')!.routes.map((r) => r.path)).toEqual(['/notes/export']);
  });

  it('gives the first fitting template with all its methods and its decoded parameters', () => {
    expect(m.match('/notes/n%201')).toEqual({ routes: [routes[0], routes[1]], params: { noteId: 'n 1' } });
    expect(m.match('/patients/p/documents/%E0%A4%A')!.params).toEqual({ patientId: 'p', documentId: '%E0%A4%A' });
  });

  it('compares methods without case, and finds nothing for another method, path or depth', () => {
    expect(m.find('GET', '/patients/1/documents/2')).toBe(routes[3]);
    expect(m.find('DELETE', '/notes/1')).toBeUndefined();
    expect(m.match('/notes')).toBeUndefined();
    expect(m.match('/notes/1/extra')).toBeUndefined();
    expect(m.match('/notes/')).toBeUndefined();
  });

  it('escapes literal text (a dot is a dot)', () => {
    expect(m.match('/a.b')).toBeDefined();
    expect(m.match('/aXb')).toBeUndefined();
  });

  it('takes a trailing slash only when asked, and a template from elsewhere when told', () => {
    expect(m.find('GET', '/notes/export/')).toBeUndefined();
    expect(createMatcher(routes, { trailingSlash: true }).find('GET', '/notes/export/')!.path).toBe('/notes/export');
    const own = { method: 'POST', template: '/patients/{id}' };
    const byTemplate = createMatcher([own], { trailingSlash: true, template: (r) => r.template });
    expect(byTemplate.find('post', '/patients/7/')).toBe(own);
  });
});

describe('operation table of the bundled spec', () => {
  const ops = operations(loadBundle());

  it('lists each operation once with its inherited parameters and scopes', () => {
    const ids = ops.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const get = ops.find((o) => o.method === 'get' && o.path === '/patients/{patientId}')!;
    expect(get.parameters.some((p) => p.in === 'path' && p.name === 'patientId')).toBe(true);
    expect(requiredScopes(get.operation).length).toBeGreaterThan(0);
    expect(templateParams('/patients/{patientId}/documents/{documentId}')).toEqual(['patientId', 'documentId']);
  });

  it('routes every concrete path of the spec to its own operation', () => {
    const m = createMatcher(ops);
    for (const op of ops) expect(m.find(op.method, op.path.replace(/\{[^}]+\}/g, 'x1')), `${op.method} ${op.path}`).toBe(op);
  });
});
