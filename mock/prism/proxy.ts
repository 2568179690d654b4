// Prism's validation proxy on the public port, in front of the engine. Prism (prism-http's instance, from code)
// routes each request against the spec, forwards it to the engine, and validates the engine's response against
// the contract; with `strict` a violation becomes a 500 problem+json with an `sl-violations` header, and is logged.
// An engine 501 makes Prism mock the operation from the spec.
//
// Why not prism-http-server's createServer: it reads every non-JSON body as text (a binary upload arrives
// corrupted), answers malformed JSON itself, and answers unknown routes with problem+json without the rate-limit
// headers. Our own small node:http front keeps the bytes, and hands Prism only what it is good at.
import http from 'node:http';
import { createInstance, ProblemJsonError } from '@stoplight/prism-http';
import type { Logger } from 'pino';
import { corsHeaders, type CorsPolicy } from '../platform/cors.ts';
import { REQUEST_ID_HEADER } from '../platform/record-requests.ts';
import type { Violation } from '../platform/journal-entry.ts';
import { API_BASE } from '../platform/spec.ts';
import { FaultingResponse, reportingResponses } from '../front/fault-delivery.ts';
import type { Gate } from '../front/gate.ts';
import { FAULT_HEADER, type HeldReport } from '../platform/network-faults.ts';
import type { PrismOperations } from './operations.ts';
import { sendDirect, type EngineFetch } from './direct-forward.ts';
import { pipeThrough, send, writeUpstream, type Upstream, type UpstreamResponse } from './raw-forward.ts';
import { createRouteIndex } from './route-index.ts';

/** Largest body buffered for Prism: a 10 MB upload plus its multipart framing. Larger ones stream to the engine. */
const MAX_BUFFERED = 11 * 1024 * 1024;
const ROUTING_ERRORS = ['NO_PATH_MATCHED_ERROR', 'NO_METHOD_MATCHED_ERROR', 'NO_SERVER_MATCHED_ERROR'];

interface Pending {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer | undefined;
  response?: UpstreamResponse;
}

export interface ProxyOptions {
  operations: PrismOperations;
  upstream: Upstream;
  /** The engine's `app.fetch`, when it runs in this process: operations of the spec are forwarded to it directly. */
  engine?: EngineFetch;
  strict: boolean;
  logger: Logger;
  onViolation?: (line: string) => void;
  /** The same violations, by the id the front gave the request (REQUEST_ID_HEADER), for the request journal. */
  onViolations?: (requestId: string, violations: Violation[], answered: number) => void;
  /** A timeout's real wait, once the client's connection ended (the engine's journal.settle). */
  onHeld?: HeldReport;
  /** Target normalization, the real peer and the control-API decision (mock/front/gate.ts). */
  gate: Gate;
  cors: CorsPolicy;
}

export function createValidatingProxy(opts: ProxyOptions): http.Server {
  const { upstream, logger } = opts;
  const candidates = createRouteIndex(opts.operations);
  const pending = new WeakMap<object, Pending>();
  const upstreamResponses = new WeakMap<object, UpstreamResponse>();
  let requestIds = 0;

  const right = <T>(right: T) => ({ _tag: 'Right' as const, right });
  const left = <T>(left: T) => ({ _tag: 'Left' as const, left });

  // prism-http's `forward` step, replaced: send the original bytes, keep the engine's response bytes.
  const forward =
    ({ data }: { data: object }) =>
    () =>
    async () => {
      const p = pending.get(data)!;
      try {
        const r = opts.engine
          ? await sendDirect(opts.engine, p.method, p.url, p.headers, p.body)
          : await send(upstream, p.method, p.url, p.headers, p.body);
        p.response = r;
        // A network fault's answer (FAULT_HEADER) is the client's to meet as it is, never Prism's to judge (handle).
        if (r.headers[FAULT_HEADER] !== undefined) return left(new Error('network fault'));
        if (r.status === 501)
          return left(
            ProblemJsonError.fromTemplate({
              type: 'UPSTREAM_NOT_IMPLEMENTED',
              title: 'The engine does not model this operation',
              status: 501,
            }),
          );
        const type = String(r.headers['content-type'] ?? '');
        let body: unknown = r.text ?? r.body.toString('utf8');
        if (/json/i.test(type) && (body as string).length) {
          try {
            body = JSON.parse(body as string);
          } catch {
            /* Prism reports the mismatch */
          }
        }
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(r.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(',') : v;
        const output = { statusCode: r.status, headers, body };
        upstreamResponses.set(output, r);
        return right(output);
      } catch (e) {
        return left(e as Error);
      }
    };

  const prism = createInstance(
    {
      isProxy: true,
      upstream: new URL(`http://${upstream.host}:${upstream.port}`),
      checkSecurity: false,
      validateRequest: false,
      validateResponse: true,
      errors: opts.strict,
      mock: { dynamic: false },
    } as never,
    { logger, forward } as never,
  );

  const cors = (req: http.IncomingMessage) => corsHeaders(opts.cors, req.headers.origin);
  const problem = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    status: number,
    body: object,
    extra: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/problem+json', ...cors(req), ...extra });
    res.end(JSON.stringify(body));
  };

  // FaultingResponse: an answer marked with a network fault (drop, reset, timeout) is acted out on the client's socket.
  return http.createServer(
    { requireHostHeader: false, ServerResponse: opts.onHeld ? reportingResponses(opts.onHeld) : FaultingResponse },
    (req, res) => {
      const admitted = opts.gate(req, res);
      if (!admitted) return;
      const url = req.url!;
      const { path } = admitted;
      // Overwrites any client's copy: the engine's journal files Prism's violations under this id.
      req.headers[REQUEST_ID_HEADER] = String(++requestIds);
      if (admitted.control || req.method === 'OPTIONS' || !path.startsWith(`${API_BASE}/`)) return pipeThrough(upstream, req, res);
      if (Number(req.headers['content-length'] ?? 0) > MAX_BUFFERED) return pipeThrough(upstream, req, res);

      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (c: Buffer) => {
        size += c.length;
        chunks.push(c);
        // Larger than anything the engine accepts (a chunked body has no Content-Length to refuse it by): the engine
        // answers it, streamed (413 with the rate-limit headers), as in engine-only mode.
        if (size > MAX_BUFFERED) {
          req.off('data', onData).off('end', onEnd);
          req.pause();
          pipeThrough(upstream, req, res, { prefix: Buffer.concat(chunks) });
        }
      };
      const onEnd = () => {
        const body = size ? Buffer.concat(chunks) : undefined;
        void handle(req, res, url, body).catch((e) => {
          logger.error(e);
          if (process.env.MOCK_DEBUG) console.error(e);
          if (!res.headersSent) problem(req, res, 502, { error: 'The mock engine did not answer' });
        });
      };
      req.on('data', onData).on('end', onEnd);
      req.on('error', () => res.destroy());
    },
  );

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, url: string, body: Buffer | undefined) {
    const method = (req.method ?? 'GET').toLowerCase();
    const u = new URL(url, 'http://mock.invalid');
    const operations = candidates(method, u.pathname);
    // Not an operation of the spec: the engine answers (404 / 405 with Allow, rate-limit headers included).
    if (operations.length === 0) return writeUpstream(res, await send(upstream, req.method ?? 'GET', url, req.headers, body));
    const input = prismInput(req, method, u, body);
    const p: Pending = { method: req.method ?? 'GET', url, headers: req.headers, body };
    pending.set(input, p);

    const result = (await prism.request(input as never, operations as never)()) as PrismResult;
    if (result._tag === 'Left') {
      if (p.response?.headers[FAULT_HEADER] !== undefined) return writeUpstream(res, p.response);
      const e = result.left;
      if (ROUTING_ERRORS.some((t) => e.name?.endsWith(t))) {
        // Not an operation of the spec: the engine answers (404 / 405 with Allow, rate-limit headers included).
        return writeUpstream(res, p.response ?? (await send(upstream, p.method, url, req.headers, body)));
      }
      return problem(req, res, e.status ?? 500, ProblemJsonError.toProblemJson(e));
    }

    const { output, validations } = result.right;
    const errors = validations.output.filter((v) => v.severity === 0);
    const extra = reportViolations(opts, req, url, output.statusCode, validations.output);
    if (opts.strict && errors.length) return problem(req, res, 500, strictProblem(errors), extra);
    const raw = upstreamResponses.get(output);
    if (raw) return writeUpstream(res, raw, extra);
    writeMocked(res, output, p.response, { ...cors(req), ...extra });
  }
}

type PrismValidation = { severity: number; path?: string[]; message: string };
type PrismOutput = { statusCode: number; headers?: Record<string, string>; body: unknown };
type PrismResult =
  | { _tag: 'Left'; left: ProblemJsonError & { status?: number } }
  | { _tag: 'Right'; right: { output: PrismOutput; validations: { output: PrismValidation[] } } };

/** The request as Prism routes and validates it: the lowercase method, the path, the query, the JSON body parsed. */
function prismInput(req: http.IncomingMessage, method: string, u: URL, body: Buffer | undefined) {
  const query: Record<string, string | string[]> = {};
  for (const k of new Set(u.searchParams.keys())) {
    const all = u.searchParams.getAll(k);
    query[k] = all.length === 1 ? all[0]! : all;
  }
  let parsed: unknown;
  if (body && /json/i.test(String(req.headers['content-type'] ?? ''))) {
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      parsed = undefined; // the engine answers malformed JSON with its documented 400
    }
  }
  return { method, url: { path: u.pathname, query }, headers: req.headers, body: parsed };
}

/**
 * Prism's findings on the engine's answer, told to the terminal (onViolation) and the request journal (onViolations);
 * the answer's extra headers: `sl-violations` when there are any.
 */
function reportViolations(
  opts: ProxyOptions,
  req: http.IncomingMessage,
  url: string,
  statusCode: number,
  found: PrismValidation[],
): Record<string, string> {
  const extra: Record<string, string> = {};
  if (!found.length) return extra;
  const violations = found.map((v) => ({
    location: ['response', ...(v.path ?? [])],
    severity: v.severity === 0 ? 'Error' : 'Warning',
    message: v.message,
  }));
  extra['sl-violations'] = JSON.stringify(violations).slice(0, 8000);
  for (const v of violations) opts.onViolation?.(`${req.method} ${url} -> ${statusCode}: ${v.location.join('.')} ${v.message}`);
  const answered = opts.strict && found.some((v) => v.severity === 0) ? 500 : statusCode;
  opts.onViolations?.(
    String(req.headers[REQUEST_ID_HEADER]),
    violations.map((v) => ({ ...v, location: v.location.join('.') })),
    answered,
  );
  return extra;
}

/** --strict: the answer that replaces one outside the contract. */
const strictProblem = (errors: PrismValidation[]) =>
  ProblemJsonError.toProblemJson(
    ProblemJsonError.fromTemplate(
      { type: 'VIOLATIONS', title: 'Request/Response not valid', status: 500 },
      'The engine answered outside the contract and the mock runs with --strict.',
      { validation: errors },
    ),
  );

/** Mocked by Prism (the engine answered 501): the live rate-limit headers are the engine's, not the spec's examples. */
function writeMocked(res: http.ServerResponse, output: PrismOutput, engine: UpstreamResponse | undefined, after: Record<string, string>) {
  const live: Record<string, string> = {};
  for (const [k, v] of Object.entries(engine?.headers ?? {})) if (k.startsWith('x-ratelimit-') && typeof v === 'string') live[k] = v;
  const mocked: Record<string, string> = {};
  for (const [k, v] of Object.entries(output.headers ?? {})) if (!(k.toLowerCase() in live)) mocked[k] = v;
  const payload = typeof output.body === 'string' ? output.body : JSON.stringify(output.body ?? null);
  res.writeHead(output.statusCode, { 'content-type': 'application/json', ...mocked, ...live, ...after, 'x-mock-source': 'prism' });
  res.end(payload);
}
