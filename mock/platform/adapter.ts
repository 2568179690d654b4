// What a transport adapter may hand the engine beside the web Request, as Hono's `env` (`app.fetch(request, env)`).
// Every member is optional: `app.fetch(request)` alone (in-process, in a browser) gets the same answers through web
// streams and web Headers. The node adapter (mock/front/node-env.ts) fills these in with its speed-ups.
export interface AdapterEnv {
  /** The client's address as the transport sees it (the socket's peer). */
  readonly peer?: string;
  /**
   * Reads the whole request body, or resolves undefined past `limit` bytes (without reading it whole). Returns null
   * when the adapter cannot read it faster than the web stream (then the engine reads `request.body`).
   */
  readBody?(limit: number): Promise<Uint8Array | undefined> | null;
  /**
   * A request header's value (`name` in lower case) as web Headers.get answers it, read from the transport's own
   * request without building a web Headers object.
   */
  header?(name: string): string | undefined;
  /** Every request header (names in lower case, repeated fields joined with ", "), read the same way. */
  allHeaders?(): Record<string, string>;
  /** The transport's own header list (name, value, name, value...), by reference: what the journal keeps. */
  rawHeaders?(): readonly string[];
  /**
   * Aborted when the client's connection closes before its answer was written (the web Request's `signal`, without
   * building the web Request: @hono/node-server builds it, and a stream of the body, when `signal` is read).
   */
  clientGone?(): AbortSignal;
  /** Sets headers that every response of this request carries, whatever builds it, on the transport's own response. */
  setHeaders?(headers: Readonly<Record<string, string>>): void;
}

/** The adapter's env of a request, if any. */
export const adapterOf = (c: { env?: unknown }): AdapterEnv | undefined => c.env as AdapterEnv | undefined;
