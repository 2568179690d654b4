// Which of the spec's operations a request can be, found once per request with precompiled patterns, so that
// Prism's router (which sorts every operation by a string-splitting score on each request) sees only those:
// usually one, two where a concrete path and a template both match (GET /notes/export and GET /notes/{noteId}),
// and Prism still decides between them. None: not an operation of the spec.
import type { PrismOperations } from './operations.ts';

type Operation = PrismOperations[number];

export function createRouteIndex(operations: PrismOperations): (method: string, path: string) => Operation[] {
  const byMethod = new Map<string, Array<{ re: RegExp; op: Operation }>>();
  for (const op of operations) {
    const source = op.path
      .split('/')
      .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const list = byMethod.get(op.method) ?? [];
    list.push({ re: new RegExp(`^${source}/?$`), op });
    byMethod.set(op.method, list);
  }
  return (method, path) => (byMethod.get(method) ?? []).filter((r) => r.re.test(path)).map((r) => r.op);
}
