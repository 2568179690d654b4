// The contract the played readings' server keeps, for the checks in front of the engine (Prism in the default mode,
// the in-process `strict` check): the documented profile's view (every x-assumption relaxed), plus the statuses and
// media types the readings answer with where the document gives none. So a reading that left the document would
// still be caught, and one that only leaves the kit's assumptions is not.
import { relaxBundle } from '../../spec/runtime/relax.ts';
import type { JsonObject } from '../../spec/runtime/json-pointer.ts';
import type { ReadingId } from '../platform/deps.ts';
import type { ActiveReadings } from './active.ts';

/** Per reading: an operation's answer that the reading also gives under another status or media type. */
const ALIASES: Array<{ reading: ReadingId; path: string; method: string; status: [string, string]; media?: [string, string] }> = [
  { reading: 'statuses-other', path: '/appointments', method: 'post', status: ['201', '200'] },
  { reading: 'extract-accepted-202', path: '/patients/{patientId}/documents/{documentId}/extract', method: 'post', status: ['200', '202'] },
  {
    reading: 'export-other-layout',
    path: '/notes/export',
    method: 'get',
    status: ['200', '200'],
    media: ['application/x-ndjson', 'application/ndjson'],
  },
];

/** The bundle the checks in front of the engine judge its answers by, under these readings. */
export function readingsContract(bundle: JsonObject, active: ActiveReadings): JsonObject {
  if (!active.any) return bundle;
  const doc = relaxBundle(structuredClone(bundle)) as JsonObject;
  const paths = doc.paths as Record<string, Record<string, JsonObject>>;
  for (const a of ALIASES) {
    const responses = paths[a.path]?.[a.method]?.responses as Record<string, JsonObject> | undefined;
    const from = responses?.[a.status[0]];
    if (!responses || !from) throw new Error(`readings contract: ${a.method.toUpperCase()} ${a.path} has no ${a.status[0]} answer`);
    if (!active.has(a.reading)) continue;
    const copy = structuredClone(from);
    if (a.media) {
      const content = copy.content as Record<string, JsonObject>;
      content[a.media[1]] = content[a.media[0]]!;
    }
    responses[a.status[1]] = copy;
  }
  return doc;
}
