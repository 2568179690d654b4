// A conforming service whose extraction takes as long as the document allows: a loopback proxy in front of the mock
// that reports each document it saw uploaded (or re-extracted) as `pending` for a second, then `processing`, until
// `ms` after that, in the upload answer, the list (lookups included) and the extract endpoint's answer; then the
// mock's own result shows. Test-only.
import { apiPath, jsonOf, setJson, startBrokenProxy, type ProxyRequest, type ProxyResponse } from './broken-proxy.ts';

const DOCUMENTS = /^\/patients\/[^/]+\/documents$/;
const EXTRACT = /^\/patients\/[^/]+\/documents\/[^/]+\/extract$/;

/** Like the mock's own run: a second queued, then processing; no text, date or error until it ends. */
const PICKUP_MS = 1_000;

type Doc = Record<string, unknown>;

export async function startSlowExtraction(target: string, ms: number): Promise<{ origin: string; close(): Promise<void> }> {
  /** When the current extraction run of each document began (performance.now()). */
  const started = new Map<string, number>();
  const inRun = (d: Doc) => {
    const t0 = started.get(String(d.id));
    if (t0 === undefined) return;
    const elapsed = performance.now() - t0;
    if (elapsed >= ms) return;
    Object.assign(d, {
      status: elapsed < PICKUP_MS ? 'pending' : 'processing',
      extraction_error: null,
      extracted_date: null,
      has_extracted_text: false,
      extracted_text_length: null,
    });
  };
  const edit = (res: ProxyResponse, fn: (b: { data?: unknown }) => void) => {
    const b = jsonOf(res.body);
    if (!b || typeof b !== 'object') return;
    fn(b);
    setJson(res, b);
  };
  const docOf = (b: { data?: unknown }): Doc | undefined =>
    b.data && typeof b.data === 'object' && !Array.isArray(b.data) && typeof (b.data as Doc).id === 'string' ? (b.data as Doc) : undefined;
  return startBrokenProxy(target, {
    name: 'slow extraction',
    area: 'doc',
    rule: '',
    response(res: ProxyResponse, req: ProxyRequest) {
      if (res.status >= 300) return;
      const path = apiPath(req);
      const starts = req.method === 'POST' && (DOCUMENTS.test(path) || EXTRACT.test(path));
      if (req.method === 'GET' && DOCUMENTS.test(path))
        edit(res, (b) => {
          for (const d of Array.isArray(b.data) ? (b.data as Doc[]) : []) inRun(d);
        });
      else if (starts)
        edit(res, (b) => {
          const d = docOf(b);
          if (!d) return;
          started.set(String(d.id), performance.now());
          inRun(d);
        });
    },
  });
}
