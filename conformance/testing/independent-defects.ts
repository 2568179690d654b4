// Single defects an implementation written from the document alone was found with (issue 29): each must fail its
// own rule and at most a few other checks, like the variants of broken-proxy.ts. Test-only.
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
