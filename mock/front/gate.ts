// The first step of every public front (default mode's node:http front, the engine-only server, the static front):
// normalizes the request target in place (mock/front/target.ts), records the real peer of the public socket for the
// engine behind (overwriting any client-sent copy), and takes the control-API decision (mock/platform/loopback.ts)
// and, for everything else, the Host decision (mock/front/host-check.ts). Refusals are answered here, as JSON, without
// CORS headers, and handed to `onRefused` (the request journal and the terminal: a browser shows the page none of it).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Refusal } from '../platform/journal-entry.ts';
import { controlRefusal, isControlPath, isLoopback, isLoopbackHost, PEER_HEADER } from '../platform/loopback.ts';
import type { FrontRefusal } from '../platform/record-refusals.ts';
import { hostAllowance, hostnameOf, hostRefusalReason } from './host-check.ts';
import { normalizeTarget } from './target.ts';

export interface GateOptions {
  /** The --host value (a Host the control API accepts besides loopback names). */
  boundHost?: string;
  /** The peer of the public socket; tests inject another address here. */
  peerOf?: (req: IncomingMessage) => string | undefined;
  /** Rate-limit headers for a refusal counted against the peer (absent in static mode: no engine). */
  rateHeaders?: (peer: string) => Record<string, string>;
  /** --allowed-host values: Host names the API answers besides IP literals, localhost, *.localhost and --host. */
  allowedHosts?: readonly string[];
  /** Every refusal, once answered. */
  onRefused?: (refused: FrontRefusal) => void;
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

/** What the gate found of one Host value: why it cannot be used, or its lower-case form and whether the API answers it. */
type HostVerdict = { problem: string } | { problem: undefined; lower: string; name: string; allowed: boolean };

/**
 * Why a Host header cannot be used, or its verdict. Mirrors @hono/node-server's own check (it builds the request URL
 * from Host), on the lower-case form the gate hands on (names are case-insensitive: `LOCALHOST:4010` is localhost), so
 * nothing the gate admits is refused later without a JSON answer.
 */
function checkHost(host: string | undefined, allowed: (name: string) => boolean): HostVerdict {
  if (!host) return { problem: 'is required' };
  const lower = host.toLowerCase();
  let hostname: string;
  try {
    hostname = new URL(`http://${lower}/`).hostname;
  } catch {
    return { problem: 'is not a host name with an optional port' };
  }
  if (hostname.length !== lower.length && hostname !== lower.replace(/:\d+$/, ''))
    return { problem: 'is not a host name with an optional port' };
  // A final dot names the same host (`localhost.`).
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return { problem: undefined, lower, name, allowed: allowed(name) };
}

/** Host values already checked, and the answer (a client sends the same Host on every request): bounded, short ones. */
const MAX_HOSTS_REMEMBERED = 256;
const MAX_HOST_REMEMBERED_LENGTH = 260;

/** The refusal of a control request, for the journal and the terminal: by Host and Origin name what was refused. */
function controlRefused(error: string, peer: string, host: string | undefined, origin: string | undefined, boundHost?: string): Refusal {
  if (!isLoopback(peer)) return { by: 'front', reason: error };
  if (!isLoopbackHost(host, boundHost)) return { by: 'front', reason: error, subject: hostnameOf(host ?? '') ?? host ?? '' };
  return { by: 'front', reason: error, subject: origin };
}

export function createGate(opts: GateOptions = {}): Gate {
  const peerOf = opts.peerOf ?? ((req: IncomingMessage) => req.socket.remoteAddress);
  const allowed = hostAllowance({ boundHost: opts.boundHost, allowed: opts.allowedHosts });
  const verdicts = new Map<string, HostVerdict>();
  const hostVerdict = (host: string | undefined) => {
    if (host === undefined || host.length > MAX_HOST_REMEMBERED_LENGTH) return checkHost(host, allowed);
    let v = verdicts.get(host);
    if (v) return v;
    if (verdicts.size >= MAX_HOSTS_REMEMBERED) verdicts.clear();
    v = checkHost(host, allowed);
    verdicts.set(host, v);
    return v;
  };
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: { error: string },
    refusal: Refusal,
    headers: Record<string, string> = {},
  ): undefined => {
    req.resume();
    const text = JSON.stringify(body);
    res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
    opts.onRefused?.({ method: req.method ?? '', target: req.url ?? '', status, error: text, refusal, headers: req.headers });
    return undefined;
  };
  return (req, res) => {
    const peer = peerOf(req) ?? 'unknown';
    const target = normalizeTarget(req.url);
    if (!target.ok) {
      const body = { error: 'Bad request target', details: { target: target.reason } };
      return refuse(req, res, 400, body, { by: 'front', reason: `${body.error}: ${target.reason}` }, opts.rateHeaders?.(peer));
    }
    // HTTP/1.0 may omit Host: the address the client connected to stands in for it.
    if (req.headers.host === undefined && req.httpVersion === '1.0' && req.socket.localAddress)
      req.headers.host = `${req.socket.localAddress.includes(':') ? `[${req.socket.localAddress}]` : req.socket.localAddress}:${req.socket.localPort}`;
    // The servers run with requireHostHeader off, so that this answer is JSON rather than Node's empty 400.
    const host = hostVerdict(req.headers.host);
    if (host.problem !== undefined) {
      const body = { error: 'Bad Host header', details: { host: host.problem } };
      return refuse(req, res, 400, body, { by: 'front', reason: `Bad Host header: ${host.problem}` }, opts.rateHeaders?.(peer));
    }
    if (host.lower !== req.headers.host) req.headers.host = host.lower;
    if (target.authority !== undefined) {
      // Absolute-form: the target's authority is the host (RFC 9112 3.2.2); a different Host header is ambiguous.
      if (host.lower !== target.authority.toLowerCase()) {
        const reason = 'its authority differs from the Host header';
        const body = { error: 'Bad request target', details: { target: reason } };
        return refuse(req, res, 400, body, { by: 'front', reason: `Bad request target: ${reason}` }, opts.rateHeaders?.(peer));
      }
    }
    req.url = target.url;
    req.headers[PEER_HEADER] = peer;
    const control = isControlPath(target.path);
    if (control) {
      const { origin } = req.headers;
      const refused = controlRefusal({ peer, host: host.lower, origin, boundHost: opts.boundHost });
      if (refused) return refuse(req, res, 403, { error: refused }, controlRefused(refused, peer, host.lower, origin, opts.boundHost));
    } else if (!host.allowed) {
      // A Host the API does not answer (DNS rebinding): the control API has its own, stricter rule above.
      const reason = hostRefusalReason(req.headers.host);
      const allow = `--allowed-host ${host.name}`;
      const refusal: Refusal = { by: 'host', reason, allow, subject: host.name };
      return refuse(
        req,
        res,
        403,
        { error: `${reason}; start it with ${allow} (or --allowed-host all)` },
        refusal,
        opts.rateHeaders?.(peer),
      );
    }
    return { path: target.path, control, peer };
  };
}
