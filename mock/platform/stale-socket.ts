// A keep-alive pool may hand a request a socket the server closed while it sat idle: the request then fails with
// ECONNRESET before any answer. Node's documentation advises sending it once more on a fresh socket; both of the
// mock's forwarders (to its engine, to an --upstream) do so through here. No Node built-ins: the engine bundles for
// pages.

/** `err`, marked as such a failure when the request went out on a reused socket and met ECONNRESET. */
export function markStale<E extends object>(err: E, reusedSocket: boolean, code: string | undefined): E & { staleSocket: boolean } {
  return Object.assign(err, { staleSocket: reusedSocket && code === 'ECONNRESET' });
}

/** Sends once, and once more when the first attempt failed on a stale pooled socket. */
export function retryOnStaleSocket<T>(send: () => Promise<T>): Promise<T> {
  return send().catch((e: { staleSocket?: boolean }) => {
    if (!e?.staleSocket) throw e;
    return send();
  });
}
