// The --upstream proxy's way out (Node): a request sent on to the upstream over a keep-alive pool (http or https),
// its answer read whole and kept byte for byte (a compressed body stays compressed for the client; the judge reads
// it decoded). The client's own headers go as they came, hop-by-hop ones and Host aside.
import http from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { FAULT_SCOPE_HEADER } from '../platform/faults.ts';
import { PEER_HEADER } from '../platform/loopback.ts';
import { REQUEST_ID_HEADER } from '../platform/record-requests.ts';
import { HOP_BY_HOP } from '../platform/hop-by-hop.ts';
import { markStale, retryOnStaleSocket } from '../platform/stale-socket.ts';
import { UpstreamUnreachable, type Forward, type UpstreamAnswer } from './proxy.ts';

/** An upstream answer slower than this is cut off: the client gets a 502 naming the upstream instead of a hang. */
const UPSTREAM_TIMEOUT_MS = 60_000;
/** Headers of the mock itself, never sent on. */
const OWN = ['host', FAULT_SCOPE_HEADER, REQUEST_ID_HEADER, PEER_HEADER];

function decoded(encoding: string | undefined, body: Buffer): string {
  try {
    const e = (encoding ?? '').trim().toLowerCase();
    const plain =
      e === 'gzip' || e === 'x-gzip'
        ? gunzipSync(body)
        : e === 'br'
          ? brotliDecompressSync(body)
          : e === 'deflate'
            ? inflateSync(body)
            : body;
    return plain.toString('utf8');
  } catch {
    return body.toString('utf8');
  }
}

export function createForward(base: URL): { forward: Forward; close(): void } {
  const secure = base.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 256 }) : new http.Agent({ keepAlive: true, maxSockets: 256 });
  const prefix = base.pathname.replace(/\/$/, '');
  const unreachable = (e: Error) =>
    e instanceof UpstreamUnreachable ? e : new UpstreamUnreachable((e as NodeJS.ErrnoException).code ?? e.message);
  const sendOnce = (method: string, target: string, headers: Record<string, string>, body: Uint8Array | undefined) =>
    new Promise<UpstreamAnswer>((resolve, reject) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(headers)) if (!HOP_BY_HOP.includes(k) && !OWN.includes(k)) out[k] = v;
      if (body) out['content-length'] = String(body.byteLength);
      const req = (secure ? https : http).request(
        {
          protocol: base.protocol,
          host: base.hostname,
          port: base.port || undefined,
          method,
          path: `${prefix}${target}`,
          agent,
          headers: out,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (e) => reject(unreachable(e)));
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            const h: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
            let text: string | undefined;
            resolve({ status: res.statusCode ?? 502, headers: h, body: raw, text: () => (text ??= decoded(h['content-encoding'], raw)) });
          });
        },
      );
      req.setTimeout(UPSTREAM_TIMEOUT_MS, () => req.destroy(new UpstreamUnreachable(`no answer within ${UPSTREAM_TIMEOUT_MS / 1000} s`)));
      req.on('error', (e: NodeJS.ErrnoException) => reject(markStale(unreachable(e), req.reusedSocket, e.code)));
      req.end(body);
    });
  const forward: Forward = (method, target, headers, body) => retryOnStaleSocket(() => sendOnce(method, target, headers, body));
  return { forward, close: () => agent.destroy() };
}
