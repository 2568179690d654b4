// The destination check's resolver where there is no DNS (a page): `localhost` names are loopback, as browsers
// resolve them; any other name cannot be resolved here (null: taken as a public host, see destination.ts).
import type { Resolver } from './destination.ts';

export const pageResolver: Resolver = async (hostname) =>
  hostname === 'localhost' || hostname.endsWith('.localhost')
    ? [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]
    : null;
