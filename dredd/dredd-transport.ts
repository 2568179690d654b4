// Dredd 14 sends every transaction through the `request` library (build/performRequest.js), which it calls with
// followRedirect: false but no deadline for the whole exchange (its `timeout` is per socket read: an answer dripped
// a byte at a time never ends) and no bound on the answer it buffers. No option reaches that call but `http` (more
// `request` options), so the module Dredd would load as `request` is put in the module cache first, as a small
// adapter over a Guard: the same deadline, bound, redirect policy and key redaction as the hooks' own calls.
import { createRequire, Module } from 'node:module';
import type { IncomingHttpHeaders } from 'node:http';
import type { Guard } from './guard.ts';

/** The part of `request`'s options performRequest sets (proxy: false, followRedirect: false, encoding: null). */
interface RequestOptions {
  method: string;
  uri: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

type Callback = (error: Error | null, response?: { statusCode: number; headers: IncomingHttpHeaders }, body?: Buffer) => void;

function adapter(guard: Guard) {
  return (options: RequestOptions, callback: Callback): void => {
    guard.send({ method: options.method, url: options.uri, headers: options.headers, body: options.body }).then(
      (a) => callback(null, { statusCode: a.status, headers: a.headers }, a.body),
      (err: Error) => callback(err),
    );
  };
}

/** Makes `guard` the request layer of the Dredd this process loads next; throws if Dredd's is already loaded. */
export function installInDredd(guard: Guard): void {
  const require = createRequire(import.meta.url);
  const fromDredd = createRequire(require.resolve('dredd'));
  if (require.cache[fromDredd.resolve('./performRequest')])
    throw new Error("Dredd's request layer is already loaded: the guard must be installed before Dredd is required");
  const path = fromDredd.resolve('request');
  const module = new Module(path);
  module.filename = path;
  module.loaded = true;
  module.exports = adapter(guard);
  require.cache[path] = module;
}
