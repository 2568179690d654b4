// Single defects an implementation written from the document alone was found with (issue 29, and a second one
// since): each must fail its own rule and at most a few other checks, like those of variants.ts. Test-only.
import { answer, apiPath, is, jsonOf, setJson, type Variant, type VariantKeys } from './broken-proxy.ts';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export function independentDefects(keys: VariantKeys): Variant[] {
  /** Foreign deletes the mock carried out with the owner's key, to be answered as if refused. */
  const foreignDeletes = new WeakSet<object>();
  return [
    {
      // The organization check answers 404, but after the write: the patient is gone all the same.
      name: "another organization's delete answers 404 and deletes",
      area: 'tenancy',
      rule: 'GEN-001',
      request(req) {
        if (req.method !== 'DELETE' || req.headers['x-api-key'] !== keys.otherOrg || !/^\/patients\/\d+$/.test(apiPath(req))) return;
        req.headers['x-api-key'] = keys.main;
        foreignDeletes.add(req);
      },
      response(res, req) {
        if (foreignDeletes.has(req)) answer(res, 404, { error: 'Not found' });
      },
    },
    {
      name: 'errors as text/plain',
      area: 'gen',
      rule: 'GEN-005',
      response(res) {
        const b = jsonOf(res.body);
        if (res.status < 400 || typeof b?.error !== 'string') return;
        res.headers['content-type'] = 'text/plain; charset=utf-8';
        res.body = Buffer.from(b.error);
      },
    },
    {
      name: '400 without details',
      area: 'err',
      rule: 'ERR-001',
      response(res) {
        const b = jsonOf(res.body);
        if (res.status !== 400 || !b?.details) return;
        delete b.details;
        setJson(res, b);
      },
    },
    {
      name: 'provider by id answers 500',
      area: 'prv',
      rule: 'PRV-008',
      response(res, req) {
        if (is(req, 'GET', new RegExp(`^/providers/${UUID}$`)) && res.status === 200) answer(res, 500, { error: 'Internal error' });
      },
    },
    {
      name: 'extraction never ends',
      area: 'doc',
      rule: 'DOC-028',
      response(res, req) {
        if (!/\/documents(\/[^/]+\/extract)?$/.test(apiPath(req))) return;
        const b = jsonOf(res.body);
        const docs = Array.isArray(b?.data) ? b.data : b?.data && typeof b.data === 'object' ? [b.data] : [];
        for (const d of docs)
          if (d.status === 'completed' || d.status === 'failed')
            Object.assign(d, { status: 'processing', has_extracted_text: false, extracted_text_length: 0, extraction_error: null });
        if (docs.length) setJson(res, b);
      },
    },
    {
      name: 'limit ignored',
      area: 'pag',
      rule: 'PAG-002',
      request(req) {
        const u = new URL(req.url, 'http://proxy');
        if (req.method !== 'GET' || !u.searchParams.has('limit') || /\/documents$/.test(apiPath(req))) return;
        u.searchParams.delete('limit');
        req.url = u.pathname + u.search;
      },
    },
  ];
}
