// The keys a HAR file holds, so that no report of `conformance --har` shows one: the values of X-API-Key and
// Authorization (any case: read.ts lowers the names; a Bearer token and a Basic pair's parts too) and of key-named
// fields of JSON bodies, each also in base64 (a server may echo a key encoded). A recorder's own mask ("[redacted]")
// is not a key.
import { Redactor } from '../report/redact.ts';
import type { RecordedExchange } from '../../judge/traffic.ts';

const PLACEHOLDER = '[key from the HAR]';
/** The shortest value taken for a key (shorter ones would redact ordinary words). */
const MIN_KEY = 8;
const KEY_FIELD = /^(x[-_])?(api[-_]?key|apikey|key|token|access[-_]?token|secret|password|authorization)$/i;
const masked = (v: string) => /^\[.*\]$|^\*+$/.test(v.trim());

/** The secrets an Authorization value carries: the whole value, a scheme's credentials, a Basic pair decoded and its parts. */
function fromAuthorization(value: string): string[] {
  const [scheme, credentials] = value.trim().split(/\s+/, 2);
  if (!credentials) return [value];
  if (scheme!.toLowerCase() !== 'basic') return [value, credentials];
  const pair = Buffer.from(credentials, 'base64').toString('utf8');
  const [user, ...rest] = pair.split(':');
  return [value, credentials, pair, user ?? '', rest.join(':')];
}

/** Values of key-named fields anywhere in a JSON text (a body that is not JSON holds none this way). */
function fromJson(text: string | undefined): string[] {
  if (!text) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (typeof x === 'string' && KEY_FIELD.test(k)) found.push(x);
        else walk(x);
      }
  };
  walk(doc);
  return found;
}

/** A redactor that knows every key of the recorded exchanges, plain and in base64. */
export function harRedactor(exchanges: readonly RecordedExchange[]): Redactor {
  const redactor = new Redactor();
  const add = (secret: string) => {
    if (secret.length < MIN_KEY || masked(secret)) return;
    for (const form of [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url')])
      redactor.add(form, PLACEHOLDER);
  };
  for (const ex of exchanges) {
    const h = ex.requestHeaders ?? {};
    if (h['x-api-key']) add(h['x-api-key']);
    if (h.authorization) fromAuthorization(h.authorization).forEach(add);
    for (const text of [ex.requestBody, ex.responseBody]) fromJson(text).forEach(add);
  }
  return redactor;
}
