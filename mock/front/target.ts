// Request targets, normalized before anything looks at them: the path every decision is taken on (control API or
// not, which operation) is the path the engine and Prism will see, because the front forwards only this form.
// Normalization is WHATWG URL parsing, the parser the engine itself uses (@hono/node-server builds its Request URL
// with it): `.` and `..` segments, their percent-encoded forms (%2e%2e, .%2E, ...) and `\` are resolved; an
// absolute-form target (`GET http://host/path HTTP/1.1`, RFC 9112 3.2.2) becomes origin-form, its authority kept
// to compare with the Host header. Anything else (`*`, a bare name) is refused.
export type Target =
  | {
      ok: true /** origin-form: normalized path and query */;
      url: string;
      path: string /** absolute-form's authority */;
      authority?: string;
    }
  | { ok: false; reason: string };

/** A fixed base: the client's Host never takes part in parsing the path. */
const BASE = 'http://front.invalid';

/**
 * An origin-form target that URL parsing returns unchanged: a path of characters it never encodes, no dot segment
 * (nothing starting `/.`), no `%` (`%2e` is a dot) and no `\`; a non-empty query of characters the query is never
 * re-encoded for. Nearly every request is one, and skips the URL parser (a measurable share of a GET's cost).
 */
const PLAIN = /^(\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*)(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?%]+)?$/;

export function normalizeTarget(raw: string | undefined): Target {
  const target = raw ?? '';
  const plain = PLAIN.exec(target);
  if (plain && !plain[1]!.includes('/.')) return { ok: true, url: target, path: plain[1]! };
  let u: URL;
  let authority: string | undefined;
  try {
    if (target.startsWith('/') || target.startsWith('\\')) u = new URL(BASE + target);
    else if (/^https?:\/\//i.test(target)) {
      u = new URL(target);
      authority = u.host;
    } else return { ok: false, reason: 'must be a path starting with / (or an absolute http URL)' };
  } catch {
    return { ok: false, reason: 'is not a valid URL' };
  }
  if (authority === undefined && u.host !== 'front.invalid') return { ok: false, reason: 'is not a valid path' };
  return { ok: true, url: u.pathname + u.search, path: u.pathname, ...(authority !== undefined ? { authority } : {}) };
}
