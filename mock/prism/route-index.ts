// Which of the spec's operations a request can be, found once per request with precompiled patterns, so that
// Prism's router (which sorts every operation by a string-splitting score on each request) sees only those:
// usually one, two where a concrete path and a template both match (GET /notes/export and GET /notes/{noteId}),
// and Prism still decides between them. None: not an operation of the spec.
import { createMatcher } from '../../spec/runtime/operations.ts';
import type { PrismOperations } from './operations.ts';

type Operation = PrismOperations[number];

export function createRouteIndex(operations: PrismOperations): (method: string, path: string) => Operation[] {
  const matcher = createMatcher(operations, { trailingSlash: true });
  return (method, path) => matcher.candidates(method, path);
}
