// The --upstream proxy's way out (Node): a request sent on to the upstream over a keep-alive pool (http or https),
// its answer read whole and kept byte for byte (a compressed body stays compressed for the client; the judge reads
// it decoded). The client's own headers go as they came, hop-by-hop ones and Host aside. Bounded whatever the upstream
// does: an answer past `maxBytes` is cut off, a whole answer must arrive within `timeoutMs` (not only each byte), at
// most DECODED_BYTES of a body are decoded and JUDGED_BYTES judged, and a client that goes cancels its upstream request.
import http from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync, type ZlibOptions } from 'node:zlib';
import { FAULT_SCOPE_HEADER } from '../platform/faults.ts';
import { PEER_HEADER } from '../platform/loopback.ts';
import { REQUEST_ID_HEADER } from '../platform/record-requests.ts';
import { HOP_BY_HOP } from '../platform/hop-by-hop.ts';
import { markStale, retryOnStaleSocket } from '../platform/stale-socket.ts';
import { UpstreamUnreachable, type Forward, type UpstreamAnswer, type UpstreamBody } from './proxy.ts';

export interface ForwardLimits {
  /** A whole answer (headers and body) slower than this is cut off: a 502 naming the upstream instead of a hang. */
  timeoutMs: number;
  /** An answer body larger than this is cut off: a 502 naming the limit (the mock's memory stays bounded). */
  maxBytes: number;
}

export const DEFAULT_LIMITS: ForwardLimits = { timeoutMs: 60_000, maxBytes: 32 * 1024 * 1024 };
/** The most of an answer's body decoded, for the journal (it keeps the first 256 KB) and the judge: a bomb stops here. */
const DECODED_BYTES = 2 * 1024 * 1024;
/**
 * The most of it the judge reads: past it the body is passed on and kept, but judged on its status and headers only.
 * Judging is synchronous and grows with the body: a list page of 1.9 MB held the event loop 0.4 to 1.6 s, /health and
 * every other request waiting, where 256 KB takes 25 to 55 ms (bench/upstream-hostile.ts); a page of 100 records is
 * ~60 KB.
 */
const JUDGED_BYTES = 256 * 1024;
/** Headers of the mock itself, never sent on. */
const OWN = ['host', FAULT_SCOPE_HEADER, REQUEST_ID_HEADER, PEER_HEADER];
const MB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
const size = (n: number) => (n < 1024 * 1024 ? `${Math.round(n / 1024)} KB` : MB(n));
/** Why a body of `n` bytes (decoded from `encoding`, when given) is not judged. */
const pastJudge = (n: number, encoding?: string) =>
  `a ${encoding ? `${encoding} ` : ''}body of ${size(n)}${encoding ? ' decoded' : ''}, past the judge's ${size(JUDGED_BYTES)}`;

/** The body decoded from its Content-Encoding, and why the judge does not read it (too large, a bomb). */
function decoded(encoding: string | undefined, body: Buffer): UpstreamBody {
  if (body.byteLength > DECODED_BYTES) return { unjudged: pastJudge(body.byteLength) };
  const e = (encoding ?? '').trim().toLowerCase();
  const limit: ZlibOptions = { maxOutputLength: DECODED_BYTES };
  let plain: Buffer;
  try {
    plain =
      e === 'gzip' || e === 'x-gzip'
        ? gunzipSync(body, limit)
        : e === 'br'
          ? brotliDecompressSync(body, limit)
          : e === 'deflate'
            ? inflateSync(body, limit)
            : body;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      return { unjudged: `a ${e} body decoding past ${MB(DECODED_BYTES)}` };
    plain = body;
  }
  const text = plain.toString('utf8');
  if (plain.byteLength <= JUDGED_BYTES) return { text };
  return { text, unjudged: pastJudge(plain.byteLength, plain === body ? undefined : e) };
}

/**
 * An answer's body as it comes, cut off past `maxBytes`; the function returned gives it whole once it ended. A declared
 * length (none on HEAD, 204 or 304) past the cap is cut off at once; under it, the body is read into one buffer of that
 * size as it comes: a 31 MB answer is never copied whole at its end (a Buffer.concat of its chunks held the event loop
 * 6 to 72 ms on this host, and its memory twice meanwhile). A body of unknown length is joined at its end.
 */
function collect(res: http.IncomingMessage, method: string, maxBytes: number, cut: (why: string) => void): () => Buffer {
  const tooLarge = () => cut(`an answer larger than ${MB(maxBytes)}: cut off`);
  const bodiless = method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304;
  const declared = bodiless ? Number.NaN : Number(res.headers['content-length']);
  let size = 0;
  if (declared > maxBytes) {
    tooLarge();
    return () => Buffer.alloc(0);
  }
  if (Number.isSafeInteger(declared) && declared > 0) {
    const into = Buffer.allocUnsafe(declared);
    // node's parser passes no more than the declared length; copy() would not write past it either
    res.on('data', (c: Buffer) => {
      size += c.copy(into, size);
    });
    return () => into.subarray(0, size);
  }
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => {
    size += c.byteLength;
    if (size > maxBytes) tooLarge();
    else chunks.push(c);
  });
  return () => Buffer.concat(chunks, size);
}

export function createForward(base: URL, limits: ForwardLimits = DEFAULT_LIMITS): { forward: Forward; close(): void } {
  const secure = base.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 256 }) : new http.Agent({ keepAlive: true, maxSockets: 256 });
  const prefix = base.pathname.replace(/\/$/, '');
  const unreachable = (e: Error) =>
    e instanceof UpstreamUnreachable ? e : new UpstreamUnreachable((e as NodeJS.ErrnoException).code ?? e.message);
  const sendOnce = (method: string, target: string, headers: Record<string, string>, body: Uint8Array | undefined, signal?: AbortSignal) =>
    new Promise<UpstreamAnswer>((resolve, reject) => {
      // Why the proxy cut the exchange off, named in the 502 (the errors the cut raises name only the socket).
      let cause: UpstreamUnreachable | undefined;
      const cut = (why: string) => {
        cause ??= new UpstreamUnreachable(why);
        req.destroy(cause);
      };
      const out: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(headers)) if (!HOP_BY_HOP.includes(k) && !OWN.includes(k)) out[k] = v;
      if (body) out['content-length'] = String(body.byteLength);
      // The client gone before or while waiting: the request is never sent, or is cancelled (node's `signal`).
      const req = (secure ? https : http).request(
        {
          protocol: base.protocol,
          host: base.hostname,
          port: base.port || undefined,
          method,
          path: `${prefix}${target}`,
          agent,
          headers: out,
          signal,
        },
        (res) => {
          const read = collect(res, method, limits.maxBytes, cut);
          res.on('error', (e) => reject(unreachable(cause ?? e)));
          res.on('end', () => {
            clearTimeout(whole);
            const raw = read();
            const h: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
            let judged: ReturnType<typeof decoded> | undefined;
            resolve({
              status: res.statusCode ?? 502,
              headers: h,
              body: raw,
              judged: () => (judged ??= decoded(h['content-encoding'], raw)),
            });
          });
        },
      );
      const whole = setTimeout(() => cut(`no whole answer within ${limits.timeoutMs / 1000} s`), limits.timeoutMs);
      req.on('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(whole);
        if (signal?.aborted) cause ??= new UpstreamUnreachable('the client went away');
        reject(cause ?? markStale(unreachable(e), req.reusedSocket, e.code));
      });
      req.end(body);
    });
  const forward: Forward = (method, target, headers, body, signal) =>
    retryOnStaleSocket(() => sendOnce(method, target, headers, body, signal));
  return { forward, close: () => agent.destroy() };
}
