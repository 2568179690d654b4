// Reads a HAR 1.2 file (the mock's GET /__mock/requests.har, a browser devtools export, `redocly proxy`'s capture)
// into recorded exchanges for the judge. Entries that never got an answer (status 0: blocked, cancelled) are counted,
// not judged. A file that is not HAR says so, naming what is wrong, never a stack trace.
import { readFileSync } from 'node:fs';
import type { RecordedExchange } from '../../judge/traffic.ts';

export class HarError extends Error {}

type Pair = { name?: unknown; value?: unknown };
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * A HAR header list as one value per lower-case name (repeats joined with ", ", as HTTP reads them); undefined when the
 * recorder did not keep them: no list, or an empty one without a measured `headersSize` (a recorder that kept a
 * message's headers measured them; HAR writes -1 where it did not), so that what was not recorded is not judged.
 */
function headersOf(message: Obj): Record<string, string> | undefined {
  const list = message.headers;
  const measured = typeof message.headersSize === 'number' && message.headersSize >= 0;
  if (!Array.isArray(list) || (list.length === 0 && !measured)) return undefined;
  const out: Record<string, string> = {};
  for (const h of list as Pair[]) {
    if (typeof h?.name !== 'string' || typeof h.value !== 'string') continue;
    // HTTP/2 pseudo-headers (:authority, :path) that devtools lists are not fields of the request.
    if (h.name.startsWith(':')) continue;
    const k = h.name.toLowerCase();
    out[k] = k in out ? `${out[k]}, ${h.value}` : h.value;
  }
  return out;
}

/** A content's text, decoded when the recorder stored it base64 (devtools does for some bodies). */
function textOf(content: unknown): string | undefined {
  if (!isObj(content) || typeof content.text !== 'string') return undefined;
  return content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text;
}

/**
 * A multipart request's form from HAR's postData.params (text fields by value, the file part by fileName, its part
 * type and the mock's `_bytes` where kept); undefined without params, when the reader falls back to the text.
 */
function formOf(postData: unknown): RecordedExchange['requestForm'] {
  if (!isObj(postData) || !Array.isArray(postData.params) || !postData.params.length) return undefined;
  if (typeof postData.mimeType !== 'string' || !/^multipart\/form-data/i.test(postData.mimeType)) return undefined;
  const fields: Record<string, string> = {};
  let file: NonNullable<RecordedExchange['requestForm']>['file'];
  for (const p of postData.params as Obj[]) {
    if (!isObj(p) || typeof p.name !== 'string') continue;
    if (typeof p.fileName === 'string')
      file = {
        name: p.fileName,
        type: typeof p.contentType === 'string' ? p.contentType.toLowerCase() : '',
        ...(typeof p._bytes === 'number' ? { bytes: p._bytes } : {}),
      };
    else if (typeof p.value === 'string') fields[p.name] = p.value;
  }
  return { fields, ...(file ? { file } : {}) };
}

export interface HarTraffic {
  exchanges: RecordedExchange[];
  /** Entries without an answer (status 0). */
  unanswered: number;
}

export function parseHar(text: string, file = 'the HAR file'): HarTraffic {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new HarError(`${file} is not JSON: ${(e as Error).message}`);
  }
  const entries = isObj(doc) && isObj(doc.log) ? doc.log.entries : undefined;
  if (!Array.isArray(entries)) throw new HarError(`${file} is not a HAR file: no log.entries array`);
  const exchanges: RecordedExchange[] = [];
  let unanswered = 0;
  for (const [i, e] of (entries as unknown[]).entries()) {
    const req = isObj(e) ? e.request : undefined;
    const res = isObj(e) ? e.response : undefined;
    if (!isObj(req) || !isObj(res) || typeof req.method !== 'string' || typeof req.url !== 'string' || typeof res.status !== 'number')
      throw new HarError(`${file}: entry ${i + 1} has no request (method, url) or response (status)`);
    if (res.status === 0) {
      unanswered++;
      continue;
    }
    exchanges.push({
      method: req.method,
      url: req.url,
      requestHeaders: headersOf(req),
      requestBody: isObj(req.postData) && typeof req.postData.text === 'string' ? req.postData.text : undefined,
      requestForm: formOf(req.postData),
      status: res.status,
      responseHeaders: headersOf(res),
      responseBody: textOf(res.content),
      responseMimeType: isObj(res.content) && typeof res.content.mimeType === 'string' ? res.content.mimeType : undefined,
    });
  }
  return { exchanges, unanswered };
}

export function readHar(path: string): HarTraffic {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new HarError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parseHar(text, path);
}
