// The control API (no key; it can reset every piece of state and lists every raw key) answers only requests that a
// program on this machine sends on purpose. One decision, controlRefusal(), taken on the normalized path by every
// public front (mock/front/gate.ts, with the peer of the public socket) and again inside the engine (loopbackOnly).
//   peer    the public socket's remote address must be loopback (another machine: refused);
//   Host    must name a loopback host or the --host value (a DNS-rebinding name pointing at 127.0.0.1: refused);
//   Origin  when a browser sends one, it must be a loopback origin (a page of another site: refused, even for the
//           "simple" requests a page may send without a preflight).
import type { MiddlewareHandler } from 'hono';

/** Set by the public front to the real peer of its socket, overwriting whatever a client sent (default mode). */
export const PEER_HEADER = 'x-mock-peer';

export const CONTROL_PREFIX = '/__mock';

/** A path (already normalized) of the control API. */
export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

/** The host name of a Host header or an origin's authority, lower case, IPv6 in brackets; undefined when malformed. */
function hostName(authority: string): string | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(authority.trim());
  return m?.[1]?.toLowerCase();
}

const bracketed = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host).toLowerCase();

/** A loopback name: localhost, 127.0.0.0/8, [::1]; or the address the mock was bound to (--host). */
export function isLoopbackHost(authority: string | undefined, boundHost?: string): boolean {
  const name = authority === undefined ? undefined : hostName(authority);
  if (!name) return false;
  if (name === 'localhost' || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name)) return true;
  return boundHost !== undefined && name === bracketed(boundHost);
}

/** An origin (scheme://host[:port]) whose host is loopback or the --host value. */
export function isLoopbackOrigin(origin: string, boundHost?: string): boolean {
  const m = /^https?:\/\/([^/]+)$/i.exec(origin);
  return m !== null && isLoopbackHost(m[1], boundHost);
}

export interface ControlRequest {
  /** The real peer of the public socket. */
  peer: string | undefined;
  host: string | undefined;
  origin: string | undefined;
  /** The --host value. */
  boundHost?: string;
}

/** Why a control request is refused (403), or undefined when it may proceed. */
export function controlRefusal(r: ControlRequest): string | undefined {
  if (!isLoopback(r.peer)) return 'The control API answers loopback clients only';
  if (!isLoopbackHost(r.host, r.boundHost))
    return `The control API answers only requests addressed to a loopback host (localhost, 127.0.0.1, [::1]) or the --host value; Host ${JSON.stringify(r.host ?? '')} is refused`;
  if (r.origin !== undefined && !isLoopbackOrigin(r.origin, r.boundHost))
    return `The control API refuses requests from web pages of other origins (${r.origin})`;
  return undefined;
}

/** The engine's own check (defense in depth): `peerOf` is the real peer as the engine can know it. */
export const loopbackOnly =
  (peerOf: (c: { env: unknown; req: { header(name: string): string | undefined } }) => string, boundHost?: string): MiddlewareHandler =>
  async (c, next) => {
    // No Host header in process (a page may not set one): the request's own URL names the host.
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    const refused = controlRefusal({ peer: peerOf(c), host, origin: c.req.header('origin'), boundHost });
    if (refused) return c.json({ error: refused }, 403);
    return next();
  };
