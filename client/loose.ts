// The one untyped seam: generic helpers call openapi-fetch with a path chosen by a type parameter, which its
// overloads cannot follow. The helpers' own signatures carry the types (client/path-types.ts).
import type { Client } from 'openapi-fetch';
import type { paths } from '../generated/types.ts';

interface LooseInit {
  params?: { path?: object; query?: object; header?: object };
  body?: unknown;
  bodySerializer?: (body: never) => unknown;
  signal?: AbortSignal;
}
interface LooseResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}
export type LooseCall = (path: string, init?: LooseInit) => Promise<LooseResult>;

export function loose(client: Client<paths>): { GET: LooseCall; POST: LooseCall } {
  return { GET: client.GET as unknown as LooseCall, POST: client.POST as unknown as LooseCall };
}
