// The node adapter's speed-ups, handed to the engine as its AdapterEnv: request headers read from the socket's raw
// list and response headers written straight onto the node response (no web Headers object built, read back or
// sorted per request), and JSON bodies read from the socket (building a web Request and its stream costs more than
// the request itself). Also keeps `incoming` and `outgoing`, as @hono/node-server's own env does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import type { AdapterEnv } from '../platform/adapter.ts';

export class NodeEnv implements AdapterEnv {
  constructor(
    readonly incoming: IncomingMessage,
    readonly outgoing: ServerResponse,
  ) {}

  get peer(): string | undefined {
    return this.incoming.socket?.remoteAddress;
  }

  header(name: string): string | undefined {
    return rawHeader(this.incoming.rawHeaders, name);
  }

  clientGone(): AbortSignal {
    const gone = new AbortController();
    this.outgoing.once('close', () => {
      if (!this.outgoing.writableFinished) gone.abort();
    });
    return gone.signal;
  }

  rawHeaders(): readonly string[] {
    return this.incoming.rawHeaders;
  }

  allHeaders(): Record<string, string> {
    const raw = this.incoming.rawHeaders;
    const all: Record<string, string> = {};
    for (let i = 0; i < raw.length; i += 2) {
      const k = raw[i]!.toLowerCase();
      all[k] = k in all ? `${all[k]}, ${raw[i + 1]!}` : raw[i + 1]!;
    }
    return all;
  }

  readBody(limit: number): Promise<Uint8Array | undefined> | null {
    return this.incoming.readableDidRead ? null : readIncoming(this.incoming, limit);
  }

  setHeaders(headers: Readonly<Record<string, string>>): void {
    // writeHead merges these with the route's own headers (the route's win).
    for (const k in headers) this.outgoing.setHeader(k, headers[k]!);
  }
}

type WebFetch = (request: Request, env: AdapterEnv) => Response | Promise<Response>;

/** The engine's `app.fetch` as @hono/node-server calls it (`getRequestListener`, `createAdaptorServer`). */
export const nodeFetch =
  (fetch: WebFetch) =>
  (request: Request, env: HttpBindings | Http2Bindings): Response | Promise<Response> =>
    // The mock serves HTTP/1.1 only: its servers are node:http ones.
    fetch(request, new NodeEnv(env.incoming as IncomingMessage, env.outgoing as ServerResponse));

/**
 * `name` (lower case) from node's raw header list: what web Headers.get answers for the same fields (names match
 * case-insensitively, repeated fields join with ", "), without building a Headers object.
 */
export function rawHeader(raw: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i]!;
    if (k.length === name.length && k.toLowerCase() === name) value = value === undefined ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
  }
  return value;
}

/** The whole body, or undefined past `limit` (the rest is left for the server to drain). */
function readIncoming(incoming: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  if (incoming.readableEnded) return Promise.resolve(new Uint8Array(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done();
        incoming.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    const onClose = () => onError(new Error('request body aborted'));
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
