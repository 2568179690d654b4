// The control API answers loopback peers only: it has no key and can reset every piece of state.
import type { MiddlewareHandler } from 'hono';
import { peerAddress } from '../engine/pipeline.ts';

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

export const loopbackOnly: MiddlewareHandler = async (c, next) => {
  if (!isLoopback(peerAddress(c))) return c.json({ error: 'The control API answers loopback clients only' }, 403);
  return next();
};
