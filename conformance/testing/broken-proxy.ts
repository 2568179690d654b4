// A loopback proxy in front of the mock that breaks one rule on purpose (one transformer per variant), so the
// suite's tests can prove each check fails on the right rule id. Test-only: never listens beyond 127.0.0.1.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ProxyRequest {
  method: string;
  /** Path and query, e.g. /ext-api/v1/patients?limit=2 */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Variant {
  name: string;
  /** The area to run with --only, and the rule id the suite must fail on. */
  area: string;
  rule: string;
  /** `all` for a variant that breaks an assumed rule (its check runs only with --profile all). */
  profile?: 'documented' | 'all';
  request?(req: ProxyRequest): void;
  response?(res: ProxyResponse, req: ProxyRequest): void;
}

/** Mock keys the variants swap between (read from /__mock/keys once). */
export interface VariantKeys {
  main: string;
  scoped: string[];
  otherOrg: string;
  expired: string;
}

// Small helpers the variants (here and in the check files' tests) are written with.
export const jsonOf = (b: Buffer): any => {
  try {
    return JSON.parse(b.toString('utf8'));
  } catch {
    return undefined;
  }
};
export const setJson = (r: { body: Buffer }, v: unknown) => {
  r.body = Buffer.from(JSON.stringify(v));
};
/** The path under the base address, without the query: /patients/123. */
export const apiPath = (req: ProxyRequest) => req.url.split('?')[0]!.replace(/^\/ext-api\/v1/, '');
export const is = (req: ProxyRequest, method: string, re: RegExp) => req.method === method && re.test(apiPath(req));
/** Replaces the response with a JSON one. */
export const answer = (res: ProxyResponse, status: number, v: unknown) => {
  res.status = status;
  res.headers['content-type'] = 'application/json';
  setJson(res, v);
};

export function variants(keys: VariantKeys): Variant[] {
  return [
    {
      name: 'unknown field accepted',
      area: 'validation',
      rule: 'GEN-010',
      request(req) {
        const b = jsonOf(req.body);
        if (b && typeof b === 'object' && 'crc_unknown_field' in b) {
          delete b.crc_unknown_field;
          req.body = Buffer.from(JSON.stringify(b));
        }
      },
    },
    {
      name: '409 without existing',
      area: 'external-id',
      rule: 'XID-006',
      response(res) {
        const b = jsonOf(res.body);
        if (res.status === 409 && b?.existing) {
          delete b.existing;
          setJson(res, b);
        }
      },
    },
    {
      name: 'missing rate-limit header',
      area: 'responses',
      rule: 'RATE-001',
      response(res) {
        delete res.headers['x-ratelimit-remaining'];
      },
    },
    {
      name: 'scope not enforced',
      area: 'scopes',
      rule: 'AUTH-023',
      request(req) {
        if (keys.scoped.includes(req.headers['x-api-key'] ?? '')) req.headers['x-api-key'] = keys.main;
      },
    },
    {
      name: "another organization's patient readable",
      area: 'tenancy',
      rule: 'GEN-001',
      request(req) {
        if (req.headers['x-api-key'] === keys.otherOrg) req.headers['x-api-key'] = keys.main;
      },
    },
    {
      name: 'expired key accepted',
      area: 'auth',
      rule: 'AUTH-009',
      request(req) {
        if (req.headers['x-api-key'] === keys.expired) req.headers['x-api-key'] = keys.main;
      },
    },
    {
      name: 'wrong total_pages',
      area: 'pagination',
      rule: 'PAG-004',
      response(res) {
        const b = jsonOf(res.body);
        if (b?.meta && typeof b.meta.total_pages === 'number') {
          b.meta.total_pages += 1;
          setJson(res, b);
        }
      },
    },
    {
      name: 'numeric patient id',
      area: 'patients',
      rule: 'GEN-008',
      response(res, req) {
        if (!apiPath(req).startsWith('/patients')) return;
        res.body = Buffer.from(res.body.toString('utf8').replace(/"id":"(\d+)"/g, '"id":$1'));
      },
    },
    {
      name: 'external_id lookup ignored',
      area: 'lookups',
      rule: 'XID-008',
      request(req) {
        if (req.method === 'GET') req.url = req.url.replace(/([?&])external_id=[^&]*&?/, '$1').replace(/[?&]$/, '');
      },
    },
    {
      name: 'extract answer without success',
      area: 'documents',
      rule: 'DOC-019',
      response(res, req) {
        const b = jsonOf(res.body);
        if (apiPath(req).endsWith('/extract') && b && 'success' in b) {
          delete b.success;
          setJson(res, b);
        }
      },
    },
    {
      name: 'provider by id answers another provider',
      area: 'providers',
      rule: 'PRV-008',
      response(res, req) {
        const b = jsonOf(res.body);
        if (/^\/providers\/[^/]+$/.test(apiPath(req)) && b?.data?.id) {
          b.data.id = '00000000-0000-4000-8000-000000000000';
          setJson(res, b);
        }
      },
    },
    {
      name: 'export in the wrong media type',
      area: 'notes',
      rule: 'NOTE-020',
      response(res, req) {
        if (apiPath(req) === '/notes/export' && /format=csv/.test(req.url)) res.headers['content-type'] = 'text/plain';
      },
    },
    {
      name: 'regenerate of an unknown session answers 409',
      area: 'regeneration',
      rule: 'REGEN-011',
      response(res, req) {
        if (apiPath(req).endsWith('/regenerate') && res.status === 404) res.status = 409;
      },
    },
    {
      name: 'regenerate of a session that is not ready accepted',
      area: 'regeneration',
      rule: 'REGEN-012',
      response(res, req) {
        const m = /^\/sessions\/([^/]+)\/notes\/regenerate$/.exec(apiPath(req));
        if (!m || res.status !== 409) return;
        res.status = 202;
        setJson(res, { data: { session_id: m[1], status: 'queued' }, message: 'Note regeneration queued' });
      },
    },
    {
      name: '429 without Retry-After',
      area: 'rate-limit',
      rule: 'ERR-008',
      response(res) {
        if (res.status === 429) delete res.headers['retry-after'];
      },
    },
    {
      name: 'provider_id not defaulted to the key owner',
      area: 'patients',
      rule: 'PAT-017',
      response(res, req) {
        const b = jsonOf(res.body);
        if (req.method === 'POST' && apiPath(req) === '/patients' && res.status === 201 && b?.data) {
          b.data.provider_id = '00000000-0000-4000-8000-000000000000';
          setJson(res, b);
        }
      },
    },
    {
      name: "another organization's provider_id accepted",
      area: 'patients',
      rule: 'PAT-018',
      request(req) {
        const b = jsonOf(req.body);
        if (/^\/patients(\/\d+)?$/.test(apiPath(req)) && b && typeof b === 'object' && 'provider_id' in b) {
          delete b.provider_id;
          if (req.method === 'PATCH') b.phone = '+1-555-0199';
          req.body = Buffer.from(JSON.stringify(b));
        }
      },
    },
    {
      name: 'appointment date filters ignored',
      area: 'appointments',
      rule: 'APT-027',
      profile: 'all',
      request(req) {
        if (req.method !== 'GET' || apiPath(req) !== '/appointments') return;
        const u = new URL(req.url, 'http://proxy');
        for (const k of ['date', 'start_date', 'end_date']) u.searchParams.delete(k);
        req.url = u.pathname + u.search;
      },
    },
    {
      name: 'oversized upload accepted',
      area: 'documents',
      rule: 'DOC-032',
      profile: 'all',
      response(res) {
        if (res.status === 413) res.status = 201;
      },
    },
    {
      name: 'page 0 accepted',
      area: 'pagination',
      rule: 'PAG-007',
      profile: 'all',
      request(req) {
        req.url = req.url.replace(/([?&])page=0(&|$)/, '$1page=1$2');
      },
    },
    {
      name: 'Idempotency-Key length not bounded',
      area: 'regeneration',
      rule: 'REGEN-018',
      profile: 'all',
      request(req) {
        const k = req.headers['idempotency-key'];
        if (k !== undefined && k.length > 255) req.headers['idempotency-key'] = k.slice(0, 255);
      },
    },
    {
      name: 'delete answers success but keeps the patient',
      area: 'sequences',
      rule: 'PAT-024',
      request(req) {
        if (req.method === 'DELETE' && /^\/patients\/\d+$/.test(apiPath(req))) {
          req.method = 'GET';
          req.headers['x-crc-fake-delete'] = '1';
        }
      },
      response(res, req) {
        if (req.headers['x-crc-fake-delete'] && res.status === 200) setJson(res, { success: true });
      },
    },
  ];
}

export const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

/** Node's incoming headers as one string each, hop-by-hop ones dropped (they are the proxy's own). */
export function plainHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Starts the proxy on 127.0.0.1 (port 0) in front of `target` (an origin such as http://127.0.0.1:4010). */
export async function startBrokenProxy(target: string, variant?: Variant): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', async () => {
      const req: ProxyRequest = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: plainHeaders(incoming.headers),
        body: Buffer.concat(chunks),
      };
      try {
        if (!req.url.startsWith('/__mock')) variant?.request?.(req);
        const r = await fetch(target + req.url, {
          method: req.method,
          headers: req.headers,
          body: req.body.length && req.method !== 'GET' ? new Uint8Array(req.body) : undefined,
          redirect: 'manual',
          signal: AbortSignal.timeout(30_000),
        });
        const res: ProxyResponse = { status: r.status, headers: {}, body: Buffer.from(await r.arrayBuffer()) };
        r.headers.forEach((v, k) => {
          if (!HOP_BY_HOP.has(k) && k !== 'content-encoding') res.headers[k] = v;
        });
        if (!req.url.startsWith('/__mock')) variant?.response?.(res, req);
        outgoing.writeHead(res.status, { ...res.headers, 'content-length': String(res.body.length) }).end(res.body);
      } catch (err) {
        outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(`broken-proxy: ${(err as Error).message}`);
      }
    });
  });
  return serveOnLoopback(server);
}

/** Listens on 127.0.0.1 at a free port; `close` drops open connections too, so a test never waits on them. */
export async function serveOnLoopback(server: Server): Promise<{ origin: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
