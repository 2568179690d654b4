// The validating proxy's forward step without the loopback hop: the engine runs in this process, so a buffered
// request is handed to its `app.fetch` as the loopback HTTP request would have presented it (the same headers, the
// same body, the front's address as the peer), and its answer is read back as the hop would have delivered it
// (lower-case header names, the whole body, Content-Length). No HTTP is written, parsed or sent through the kernel
// twice per request: that hop cost more than the engine's own work.
import type http from 'node:http';
import type { AdapterEnv } from '../platform/adapter.ts';
import { HOP_BY_HOP } from '../platform/hop-by-hop.ts';
import type { UpstreamResponse } from './raw-forward.ts';

export type EngineFetch = (request: Request, env: AdapterEnv) => Response | Promise<Response>;

/** The address the engine saw as its peer over the hop: the front's end of the loopback connection. */
const FRONT_PEER = '127.0.0.1';

/** The engine's AdapterEnv for one forwarded request (the node adapter's, mock/front/node-env.ts, without a socket). */
class DirectEnv implements AdapterEnv {
  readonly peer = FRONT_PEER;
  /** Headers the engine set for every response of this request (CORS, rate limits): the route's own win. */
  set: Record<string, string> | undefined;
  constructor(
    private readonly headers: Readonly<Record<string, string>>,
    private readonly body: Buffer | undefined,
  ) {}
  header(name: string): string | undefined {
    return this.headers[name];
  }
  readBody(limit: number): Promise<Uint8Array | undefined> {
    const b = this.body ?? Buffer.alloc(0);
    return Promise.resolve(b.length > limit ? undefined : b);
  }
  setHeaders(headers: Readonly<Record<string, string>>): void {
    this.set ??= {};
    for (const k in headers) this.set[k.toLowerCase()] = headers[k]!;
  }
}

/** What the engine reads of the request, as the hop sent it: no hop-by-hop fields, Content-Length always. */
function forwardedHeaders(incoming: http.IncomingHttpHeaders, bodyLength: number): Record<string, string> {
  const h: Record<string, string> = {};
  for (const k in incoming) {
    const v = incoming[k];
    if (v !== undefined && !HOP_BY_HOP.includes(k)) h[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  h['content-length'] = String(bodyLength);
  return h;
}

/**
 * The engine reads a request's url, method and a few headers; building a whole web Request (URL parsing, an undici
 * Headers, an AbortSignal) cost more than the engine's routing. This one has those three as plain fields (its headers
 * built on first use) and builds the web Request behind it only when something else is read (a body stream, a signal),
 * as @hono/node-server's own request does.
 */
class LazyRequest {
  #headers: Headers | undefined;
  #real: Request | undefined;
  constructor(
    readonly url: string,
    readonly method: string,
    private readonly fields: Readonly<Record<string, string>>,
    private readonly bytes: Uint8Array | undefined,
  ) {}
  get headers(): Headers {
    return (this.#headers ??= new Headers(this.fields));
  }
  real(): Request {
    const body = this.bytes as Uint8Array<ArrayBuffer> | undefined;
    return (this.#real ??= new Request(this.url, { method: this.method, headers: this.headers, ...(body ? { body } : {}) }));
  }
}

let lazyReady = false;
/** LazyRequest answers everything else a Request has from the real one, and is `instanceof Request`. */
function prepareLazyRequest(): void {
  lazyReady = true;
  const own = new Set(['constructor', 'url', 'method', 'headers']);
  for (let proto = Request.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto))
    for (const k of Object.getOwnPropertyNames(proto)) {
      if (own.has(k)) continue;
      own.add(k);
      const d = Object.getOwnPropertyDescriptor(proto, k)!;
      if (d.get)
        Object.defineProperty(LazyRequest.prototype, k, {
          get(this: LazyRequest) {
            return (this.real() as unknown as Record<string, unknown>)[k];
          },
        });
      else if (typeof d.value === 'function')
        Object.defineProperty(LazyRequest.prototype, k, {
          value(this: LazyRequest, ...args: unknown[]) {
            const real = this.real() as unknown as Record<string, (...a: unknown[]) => unknown>;
            return real[k]!(...args);
          },
        });
    }
  Object.setPrototypeOf(LazyRequest.prototype, Request.prototype);
}

/**
 * @hono/node-server's lightweight Response keeps `[status, body, headers]` under a private symbol until something reads
 * it as a web Response (which builds an undici Response and a body stream: most of this step's cost). The symbol is
 * found once, by the shape of a probe's entry; without it (another Response class) the web Response is read instead.
 */
let cacheSymbol: symbol | null | undefined;
function lightweight(res: Response): [number, unknown, unknown] | undefined {
  if (cacheSymbol === undefined) {
    const probe = new Response('probe', { status: 299 }) as unknown as Record<symbol, unknown>;
    cacheSymbol =
      Object.getOwnPropertySymbols(probe).find((s) => {
        const v = probe[s];
        return Array.isArray(v) && v[0] === 299 && v[1] === 'probe';
      }) ?? null;
  }
  const entry = cacheSymbol ? (res as unknown as Record<symbol, unknown>)[cacheSymbol] : undefined;
  return Array.isArray(entry) ? (entry as [number, unknown, unknown]) : undefined;
}

/** Response headers as node's IncomingMessage presents them after the hop: lower-case names, repeats joined. */
function readHeaders(out: http.IncomingHttpHeaders, headers: unknown): void {
  if (headers === undefined || headers === null)
    out['content-type'] = 'text/plain; charset=UTF-8'; // node-server's default
  else if (headers instanceof Headers || Array.isArray(headers)) {
    const h = headers instanceof Headers ? headers : new Headers(headers as [string, string][]);
    h.forEach((v, k) => {
      if (k !== 'set-cookie') out[k] = v;
    });
    const cookies = h.getSetCookie();
    if (cookies.length) out['set-cookie'] = cookies;
  } else
    for (const [k, v] of Object.entries(headers as Record<string, string | number | string[]>)) {
      const name = k.toLowerCase();
      out[name] = Array.isArray(v) ? (name === 'set-cookie' ? v : v.join(', ')) : String(v);
    }
}

export async function sendDirect(
  fetch: EngineFetch,
  method: string,
  url: string,
  incoming: http.IncomingHttpHeaders,
  body: Buffer | undefined,
): Promise<UpstreamResponse> {
  const headers = forwardedHeaders(incoming, body?.length ?? 0);
  const env = new DirectEnv(headers, body);
  const withBody = method !== 'GET' && method !== 'HEAD' && body !== undefined;
  if (!lazyReady) prepareLazyRequest();
  // The URL as @hono/node-server wrote it for the engine (its `href`: host lower-cased, a default port dropped).
  const href = new URL(`http://${headers.host}${url}`).href;
  const request = new LazyRequest(href, method, headers, withBody ? body : undefined);
  const res = await fetch(request as unknown as Request, env);
  // Headers the engine set for the whole request first, the route's own over them (node's writeHead merges so).
  const out: http.IncomingHttpHeaders = { ...env.set };
  const cached = lightweight(res);
  if (cached && typeof cached[1] === 'string') {
    // The bytes only if someone asks for them: the front writes the text itself.
    const text = cached[1];
    readHeaders(out, cached[2]);
    finish(out, Buffer.byteLength(text));
    let bytes: Buffer | undefined;
    return {
      status: cached[0],
      headers: out,
      text,
      get body() {
        return (bytes ??= Buffer.from(text));
      },
    };
  }
  let bytes: Buffer;
  if (cached && cached[1] instanceof Uint8Array) {
    readHeaders(out, cached[2]);
    bytes = Buffer.from(cached[1].buffer, cached[1].byteOffset, cached[1].byteLength);
  } else {
    readHeaders(out, res.headers);
    bytes = res.body ? Buffer.from(await res.arrayBuffer()) : Buffer.alloc(0);
  }
  finish(out, bytes.length);
  return { status: cached ? cached[0] : res.status, headers: out, body: bytes };
}

/** As the hop delivered them: no hop-by-hop fields, the body's length. */
function finish(out: http.IncomingHttpHeaders, length: number): void {
  for (const k of HOP_BY_HOP) delete out[k];
  out['content-length'] = String(length);
}
