// An implementation that differs from the mock only where the source document leaves room (the kit's reading is
// marked x-assumption there): the documented profile must pass it, --profile all must not. Test-only, used behind
// the loopback proxy of broken-proxy.ts. Each deviation names the statement of the document that allows it.
import { apiPath, jsonOf, setJson, type ProxyRequest, type ProxyResponse, type Variant } from './broken-proxy.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Extra fields a real service may add: the field tables are not said to be exhaustive (GEN-011 is assumed). */
function addFields(body: Obj, status: number): void {
  if (status >= 400)
    body.code = `E${status}`; // error.code: the document shows `{ error }`, not that nothing else comes
  else body.request_id = 'crc-allowed-variant';
  if (isObj(body.meta)) body.meta.total = 1; // meta.total beside page, limit, total_pages
  const items = Array.isArray(body.data) ? body.data : isObj(body.data) ? [body.data] : [];
  for (const item of items) {
    if (!isObj(item)) continue;
    item.crc_extra = true;
    // The inner structure of address is not shown: an unset line may be null.
    if (isObj(item.address) && !('line2' in item.address)) item.address.line2 = null;
  }
}

/** What a create without visit_type answers: the document gives the enum but no default, so it may be null. */
function visitTypeNull(body: Obj, req: ProxyRequest): void {
  const sent = jsonOf(req.body) as Obj | undefined;
  if (req.method === 'POST' && apiPath(req) === '/appointments' && isObj(body.data) && sent && !('visit_type' in sent))
    body.data.visit_type = null;
}

export const allowedVariant: Variant = {
  name: 'what the document allows',
  area: '',
  rule: '',
  request(req) {
    const u = new URL(req.url, 'http://proxy');
    // A search value of any length is a search (its bounds are not shown): one that matches nothing.
    const search = u.searchParams.get('search');
    if (search !== null && (search.length === 0 || search.length > 255)) {
      u.searchParams.set('search', 'crc-nothing-matches-this');
      req.url = u.pathname + u.search;
    }
    const b = jsonOf(req.body) as Obj | undefined;
    if (!isObj(b)) return;
    // external_id sent on PATCH is silently ignored, whatever its length (XID-005): the server never looks at it.
    if (req.method === 'PATCH' && typeof b.external_id === 'string') b.external_id = 'crc-ignored';
    // The display name has no documented length: an empty one is taken as given (here: named by the proxy).
    if (/^\/patients(\/\d+)?$/.test(apiPath(req)) && b.name === '') b.name = 'Conformance empty name';
    req.body = Buffer.from(JSON.stringify(b));
  },
  response(res: ProxyResponse, req) {
    const type = res.headers['content-type'] ?? '';
    if (type.startsWith('application/json')) {
      res.headers['content-type'] = 'application/json; charset=utf-8';
      const body = jsonOf(res.body) as unknown;
      if (isObj(body)) {
        addFields(body, res.status);
        visitTypeNull(body, req);
        setJson(res, body);
      }
    }
    // Retry-After as an HTTP date (RFC 9110 allows it; the document names the header only), and the reset likewise.
    const ra = res.headers['retry-after'];
    if (ra !== undefined && /^\d+$/.test(ra)) res.headers['retry-after'] = new Date(Date.now() + Number(ra) * 1000).toUTCString();
    const reset = res.headers['x-ratelimit-reset'];
    if (reset !== undefined && /^\d+$/.test(reset)) res.headers['x-ratelimit-reset'] = new Date(Number(reset) * 1000).toUTCString();
  },
};
