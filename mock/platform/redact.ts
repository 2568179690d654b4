// Keeps API keys out of what the mock shows (the request journal): the seed's keys, the key the request presented,
// any string that looks like a key (`<prefix>_<long secret>`, the service's format) and the value of any JSON field
// whose name says it is a key are replaced.
export const REDACTED = '[redacted key]';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `<prefix>_<secret>`: a short letter prefix, then at least 16 letters or digits (the service's key format). */
const KEY_LIKE = '\\b[A-Za-z]{2,10}_[A-Za-z0-9_]*[A-Za-z0-9]{16,}\\b';
/** `"api_key": "…"`, `"X-API-Key": "…"`, `"apiKey": "…"`: the value goes, the name stays. */
const KEY_FIELD = /("[^"\\]{0,40}(?:api[-_ ]?key|x-api-key)[^"\\]{0,40}"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

export type Redactor = (text: string) => string;

export function createRedactor(keys: readonly string[]): Redactor {
  const known = keys.filter((k) => k.length > 0).map(escapeRegExp);
  const pattern = new RegExp([...known, KEY_LIKE].join('|'), 'g');
  return (text) => text.replace(pattern, REDACTED).replace(KEY_FIELD, `$1"${REDACTED}"`);
}

/** Whatever the client sent as its key, even one that looks like nothing else (removed when recorded: never kept). */
export const withoutKey = (text: string, presented: string | undefined): string =>
  presented && presented.length >= 4 && text.includes(presented) ? text.split(presented).join(REDACTED) : text;
