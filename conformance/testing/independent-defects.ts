// Single defects an implementation written from the document alone was found with (issue 29): each must fail its
// own rule and at most a few other checks, like those of variants.ts. Test-only.
import { answer, apiPath, is, jsonOf, setJson, type Variant } from './broken-proxy.ts';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export function independentDefects(): Variant[] {
  return [
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
