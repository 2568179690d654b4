// The CLI mock's resolver for the destination check: the system's DNS (node:dns), every address of the name.
import { promises as dns } from 'node:dns';
import type { Resolver } from './destination.ts';

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};
