import { describe, expect, it } from 'vitest';
import { prismOperations } from './operations.ts';
import { createRouteIndex } from './route-index.ts';

describe('route index (what Prism is handed per request)', async () => {
  const candidates = createRouteIndex(await prismOperations());
  const paths = (method: string, path: string) => candidates(method, path).map((o) => o.path);

  it('one operation for a plain path, by method', () => {
    expect(paths('get', '/ext-api/v1/patients')).toEqual(['/ext-api/v1/patients']);
    expect(paths('post', '/ext-api/v1/patients/7281928374650192837/documents/0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f/extract')).toEqual([
      '/ext-api/v1/patients/{patientId}/documents/{documentId}/extract',
    ]);
  });
  it('both the concrete path and the template where both match (Prism picks the concrete one)', () => {
    expect(paths('get', '/ext-api/v1/notes/export').sort()).toEqual(['/ext-api/v1/notes/export', '/ext-api/v1/notes/{noteId}']);
  });
  it('none for a method or path the spec does not have (the engine answers 404 / 405)', () => {
    expect(paths('head', '/ext-api/v1/patients')).toEqual([]);
    expect(paths('put', '/ext-api/v1/patients/1')).toEqual([]);
    expect(paths('get', '/ext-api/v1/nope')).toEqual([]);
    expect(paths('get', '/ext-api/v1/patients/1/extra/deep')).toEqual([]);
    expect(paths('get', '/patients')).toEqual([]);
  });
});
