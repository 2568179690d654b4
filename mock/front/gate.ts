// The first step of every public front (default mode's node:http front, the engine-only server, the static front):
// normalizes the request target in place (mock/front/target.ts), records the real peer of the public socket for the
// engine behind (overwriting any client-sent copy), and takes the control-API decision (mock/platform/loopback.ts).
// Refusals are answered here, as JSON, without CORS headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { controlRefusal, isControlPath, PEER_HEADER } from '../platform/loopback.ts';
import { normalizeTarget } from './target.ts';

export interface GateOptions {
  /** The --host value (a Host the control API accepts besides loopback names). */
  boundHost?: string;
  /** The peer of the public socket; tests inject another address here. */
  peerOf?: (req: IncomingMessage) => string | undefined;
  /** Rate-limit headers for a refusal counted against the peer (absent in static mode: no engine). */
  rateHeaders?: (peer: string) => Record<string, string>;
}

interface Admitted {
  /** The normalized path (req.url now holds the normalized path and query). */
  path: string;
  control: boolean;
  peer: string;
}

export type Gate = (req: IncomingMessage, res: ServerResponse) => Admitted | undefined;

export function sendJson(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/**
 * Why a Host header cannot be used, or undefined. Mirrors @hono/node-server's own check (it builds the request URL
 * from Host), so nothing the gate admits is refused later without a JSON answer.
 */
function checkHost(host: string | undefined): string | undefined {
  if (!host) return 'is required';
  try {
    const u = new URL(`http://${host}/`);
    if (u.hostname.length !== host.length && u.hostname !== host.replace(/:\d+$/, '')) return 'is not a host name with an optional port';
  } catch {
    return 'is not a host name with an optional port';
  }
  return undefined;
}

/** Host values already checked, and the answer (a client sends the same Host on every request): bounded, short ones. */
const MAX_HOSTS_REMEMBERED = 256;
const MAX_HOST_REMEMBERED_LENGTH = 260;

function refuse(req: IncomingMessage, res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): undefined {
  req.resume();
  sendJson(res, status, body, headers);
  return undefined;
}

export function createGate(opts: GateOptions = {}): Gate {
  const peerOf = opts.peerOf ?? ((req: IncomingMessage) => req.socket.remoteAddress);
  const hostProblems = new Map<string, string | undefined>();
  const hostProblem = (host: string | undefined) => {
    if (host === undefined || host.length > MAX_HOST_REMEMBERED_LENGTH) return checkHost(host);
    if (hostProblems.has(host)) return hostProblems.get(host);
    if (hostProblems.size >= MAX_HOSTS_REMEMBERED) hostProblems.clear();
    const problem = checkHost(host);
    hostProblems.set(host, problem);
    return problem;
  };
  return (req, res) => {
    const peer = peerOf(req) ?? 'unknown';
    const target = normalizeTarget(req.url);
    if (!target.ok)
      return refuse(req, res, 400, { error: 'Bad request target', details: { target: target.reason } }, opts.rateHeaders?.(peer));
    // HTTP/1.0 may omit Host: the address the client connected to stands in for it.
    if (req.headers.host === undefined && req.httpVersion === '1.0' && req.socket.localAddress)
      req.headers.host = `${req.socket.localAddress.includes(':') ? `[${req.socket.localAddress}]` : req.socket.localAddress}:${req.socket.localPort}`;
    // The servers run with requireHostHeader off, so that this answer is JSON rather than Node's empty 400.
    const problem = hostProblem(req.headers.host);
    if (problem) return refuse(req, res, 400, { error: 'Bad Host header', details: { host: problem } }, opts.rateHeaders?.(peer));
    if (target.authority !== undefined) {
      // Absolute-form: the target's authority is the host (RFC 9112 3.2.2); a different Host header is ambiguous.
      if ((req.headers.host ?? '').toLowerCase() !== target.authority.toLowerCase())
        return refuse(
          req,
          res,
          400,
          { error: 'Bad request target', details: { target: 'its authority differs from the Host header' } },
          opts.rateHeaders?.(peer),
        );
    }
    req.url = target.url;
    req.headers[PEER_HEADER] = peer;
    const control = isControlPath(target.path);
    if (control) {
      const refused = controlRefusal({ peer, host: req.headers.host, origin: req.headers.origin, boundHost: opts.boundHost });
      if (refused) return refuse(req, res, 403, { error: refused });
    }
    return { path: target.path, control, peer };
  };
}
