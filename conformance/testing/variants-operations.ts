// Broken variants of the catalogue (variants.ts) that answer an operation other than the document says: a lookup,
// an extraction run, a provider, the export, a regeneration, a 429, a created patient. Test-only.
import { apiPath, jsonOf, setJson, type ProxyRequest, type ProxyResponse, type Variant, type VariantKeys } from './broken-proxy.ts';

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

/**
 * A lookup, an extraction run, a provider, the export, a regeneration, a 429 or a created patient answered other than
 * the document says.
 */
export function operationsMisanswered(keys: VariantKeys): Variant[] {
  return [
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
  ];
}
