// The played readings as the platform and the features ask them (EngineDeps.readings): which are on, and the query
// and body steps of the readings that change what a request may hold.
import type { PlayedReadings, Store } from '../platform/deps.ts';
import type { ActiveReadings } from './active.ts';
import { refuseBody, rewriteBody } from './bodies.ts';
import { refuseQuery, rewriteQuery } from './queries.ts';

export function playReadings(active: ActiveReadings, store: Store): PlayedReadings {
  return {
    ids: active.ids,
    any: active.any,
    has: active.has,
    query(operationId, query) {
      if (!active.any) return { query };
      const refused = refuseQuery(active, operationId, query);
      return refused ? { refused } : { query: rewriteQuery(active, operationId, query) };
    },
    bodyBefore: (target, body) => (active.any ? rewriteBody(active, target, body) : { body }),
    bodyAfter: (target, body) => (active.any ? refuseBody(active, store, target, body) : undefined),
  };
}
