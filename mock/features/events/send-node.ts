// The CLI mock's webhook sender: node:http(s), connecting only to the addresses the destination check approved (a
// second DNS answer cannot slip in between the check and the connection), redirects not followed.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Sender } from './deliver.ts';
import type { ResolvedAddress } from './destination.ts';

export const nodeSender: Sender = (url, addresses, headers, body, signal) =>
  new Promise<number>((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: false,
        lookup: pinnedLookup(addresses),
        signal,
        headers,
      },
      (res) => {
        // Only the status matters; the body is discarded without waiting for it.
        res.destroy();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });

/** Connects only to the addresses the destination check approved. */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return ((_host: string, options: { family?: number | string; all?: boolean }, cb: (...args: unknown[]) => void) => {
    const fam = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family) || 0;
    const list = addresses.filter((a) => !fam || a.family === fam);
    if (list.length === 0) return cb(Object.assign(new Error('no approved address for this family'), { code: 'ENOTFOUND' }));
    if (options.all)
      cb(
        null,
        list.map((a) => ({ address: a.address, family: a.family })),
      );
    else cb(null, list[0]!.address, list[0]!.family);
  }) as LookupFunction;
}
