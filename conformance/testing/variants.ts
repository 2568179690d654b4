// The catalogue of broken variants: each breaks one rule of the mock's answers (or requests) on purpose, so the
// suite's tests can prove each check fails on that rule's id. Served by broken-proxy.ts. Test-only.
import {
  answer,
  apiPath,
  is,
  jsonOf,
  setJson,
  type ProxyRequest,
  type ProxyResponse,
  type Variant,
  type VariantKeys,
} from './broken-proxy.ts';

/**
 * The extract call is answered (2xx) and starts no run: from then on the document shows the terminal state it had
 * before the call, in the answer and in every read.
 */
function extractStartsNoRun(): Variant {
  const lastTerminal = new Map<string, Record<string, unknown>>();
  const frozen = new Set<string>();
  const docsOf = (b: any): Array<Record<string, unknown>> => (Array.isArray(b?.data) ? b.data : b?.data ? [b.data] : []);
  return {
    name: 'extract starts no run',
    area: 'documents',
    rule: 'DOC-019',
    response(res, req) {
      if (!/^\/patients\/\d+\/documents(\/[^/]+\/extract)?$/.test(apiPath(req)) || res.status >= 300) return;
      const b = jsonOf(res.body);
      const extract = req.method === 'POST' && apiPath(req).endsWith('/extract');
      for (const [i, d] of docsOf(b).entries()) {
        const id = String(d.id);
        if (extract && lastTerminal.has(id)) frozen.add(id);
        if (frozen.has(id)) Object.assign(docsOf(b)[i]!, lastTerminal.get(id));
        else if (d.status === 'completed' || d.status === 'failed') lastTerminal.set(id, { ...d });
      }
      setJson(res, b);
    },
  };
}

export function variants(keys: VariantKeys): Variant[] {
  let stored: Buffer | undefined;
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
      // Every patient id, wherever it appears (id, patient_id), a JSON number: precision permitting, a reader that
      // takes ids whatever their JSON type goes on.
      name: 'numeric ids',
      area: 'gen',
      rule: 'GEN-008',
      response(res) {
        if (!/json/.test(res.headers['content-type'] ?? '')) return;
        res.body = Buffer.from(res.body.toString('utf8').replace(/"(id|patient_id)":"(\d+)"/g, '"$1":$2'));
      },
    },
    {
      name: 'PATCH answer shows a new external_id',
      area: 'xid',
      rule: 'XID-005',
      response(res, req) {
        const sent = jsonOf(req.body);
        const b = jsonOf(res.body);
        if (req.method === 'PATCH' && typeof sent?.external_id === 'string' && b?.data) {
          b.data.external_id = sent.external_id;
          setJson(res, b);
        }
      },
    },
    {
      name: 'keys ignored',
      area: 'auth',
      rule: 'AUTH-001',
      request(req) {
        const known = [keys.main, keys.otherOrg, keys.expired, keys.revoked, ...keys.scoped];
        if (!known.includes(req.headers['x-api-key'])) req.headers['x-api-key'] = keys.main;
      },
    },
    {
      name: 'revoked key accepted',
      area: 'auth',
      rule: 'AUTH-010',
      request(req) {
        if (keys.revoked && req.headers['x-api-key'] === keys.revoked) req.headers['x-api-key'] = keys.main;
      },
    },
    {
      name: 'create answers 200',
      area: 'pat',
      rule: 'PAT-021',
      response(res, req) {
        if (is(req, 'POST', /^\/patients$/) && res.status === 201) res.status = 200;
      },
    },
    {
      name: 'delete answers 204 without a body',
      area: 'pat',
      rule: 'PAT-024',
      response(res, req) {
        if (!is(req, 'DELETE', /^\/patients\/\d+$/) || res.status !== 200) return;
        res.status = 204;
        res.body = Buffer.alloc(0);
        delete res.headers['content-type'];
      },
    },
    {
      name: 'regenerate answers 200',
      area: 'regen',
      rule: 'REGEN-008',
      response(res, req) {
        if (is(req, 'POST', /^\/sessions\/[^/]+\/notes\/regenerate$/) && res.status === 202) res.status = 200;
      },
    },
    {
      name: 'lookup miss answers 200',
      area: 'xid',
      rule: 'XID-010',
      response(res, req) {
        if (req.method !== 'GET' || !/[?&]external_id=/.test(req.url) || res.status !== 404) return;
        answer(res, 200, /\/documents$/.test(apiPath(req)) ? { data: [] } : { data: [], meta: { page: 1, limit: 20, total_pages: 1 } });
      },
    },
    {
      // The documents lookup answers the patient's whole collection (the patient and appointment lookups are not
      // touched: their list endpoints restate the parameter in three more rules, PAT-019, APT-014 and XID-007).
      name: 'external_id lookup ignored',
      area: 'lookups',
      rule: 'XID-008',
      request(req) {
        if (req.method === 'GET' && /\/documents$/.test(apiPath(req)))
          req.url = req.url.replace(/([?&])external_id=[^&]*&?/, '$1').replace(/[?&]$/, '');
      },
    },
    extractStartsNoRun(),
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
    (() => {
      // Only a provider_id that is not one of the organization's (as GET /providers listed them to the main key) is
      // dropped, so the patient is created as if none had been sent: the one defect, foreign ids accepted.
      const ours = new Set<string>();
      return {
        name: "another organization's provider_id accepted",
        area: 'patients',
        rule: 'PAT-018',
        request(req: ProxyRequest) {
          const b = jsonOf(req.body);
          if (
            !/^\/patients(\/\d+)?$/.test(apiPath(req)) ||
            !b ||
            typeof b !== 'object' ||
            typeof b.provider_id !== 'string' ||
            !b.provider_id ||
            ours.has(b.provider_id)
          )
            return;
          delete b.provider_id;
          if (req.method === 'PATCH') b.phone = '+1-555-0199';
          req.body = Buffer.from(JSON.stringify(b));
        },
        response(res: ProxyResponse, req: ProxyRequest) {
          if (req.method === 'GET' && apiPath(req).startsWith('/providers') && req.headers['x-api-key'] === keys.main)
            for (const p of [jsonOf(res.body)?.data ?? []].flat()) if (typeof p?.id === 'string') ours.add(p.id);
        },
      };
    })(),
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
      response(res, req) {
        // An upload past the limit stored like any other: 201 with a document (the last one this proxy saw stored).
        if (!is(req, 'POST', /^\/patients\/\d+\/documents$/)) return;
        if (res.status === 201) stored = res.body;
        else if (res.status === 413 && stored)
          Object.assign(res, { status: 201, body: stored, headers: { ...res.headers, 'content-type': 'application/json' } });
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
