// A request header's value, through the adapter when it can read it without building a web Headers object. Under
// @hono/node-server, `c.req.header()` makes the lightweight Request build a whole undici Headers from the socket's raw
// headers on first use, which costs more than the rest of a GET's own work; the node adapter scans the raw list
// instead (mock/front/node-env.ts). Without an adapter (`app.fetch(request)` alone): the web Request's headers.
import { adapterOf } from './adapter.ts';

interface HasRequest {
  env?: unknown;
  req: { header(name: string): string | undefined };
}

/** `name` in lower case. */
export function requestHeader(c: HasRequest, name: string): string | undefined {
  const adapter = adapterOf(c);
  return adapter?.header ? adapter.header(name) : c.req.header(name);
}
