// Keeps API keys out of what the mock shows (the request journal): the seed's keys, the key the request presented,
// any string that looks like a key (`<prefix>_<long secret>`, the service's format) and the value of any JSON field
// whose name says it is a key are replaced.
// Every pass is one left-to-right scan, linear in the text whatever a client sent: the regular expressions these
// replaced (`\b[A-Za-z]{2,10}_[A-Za-z0-9_]*[A-Za-z0-9]{16,}\b`, and the seed's keys as alternatives) backtracked over
// a long word, 0.5 s for a 15 KB one, so five such requests stalled every reader of the journal for seconds.
import { literalsReplacer, replaceLiteral } from './literal-search.ts';

export const REDACTED = '[redacted key]';

export type Redactor = (text: string) => string;

export function createRedactor(keys: readonly string[]): Redactor {
  const known = literalsReplacer(keys, REDACTED);
  return (text) => withoutKeyFields(withoutKeyLike(known(text)));
}

/** Whatever the client sent as its key, even one that looks like nothing else (removed when recorded: never kept). */
export const withoutKey = (text: string, presented: string | undefined): string =>
  presented && presented.length >= 4 ? replaceLiteral(text, presented, REDACTED) : text;

/**
 * Whole words of the key's shape: 2 to 10 letters, `_`, then anything wordy ending in at least 16 letters or digits
 * after its last `_` (what `\b[A-Za-z]{2,10}_[A-Za-z0-9_]*[A-Za-z0-9]{16,}\b` matched: its `\b`s make it a whole word).
 * Found by an expression that cannot backtrack past its prefix (`\w*` runs to the word's end and ends the pattern),
 * then judged by where the word's last `_` is.
 */
const KEY_WORD = /\b[A-Za-z]{2,10}_\w*/g;

function withoutKeyLike(text: string): string {
  if (text.indexOf('_') < 0) return text;
  // exec, not replace: replace copies the text even when every word stays (15 KB of garbage a field at worst).
  let out = '';
  let last = 0;
  KEY_WORD.lastIndex = 0;
  for (let m = KEY_WORD.exec(text); m; m = KEY_WORD.exec(text)) {
    const word = m[0];
    if (word.length - word.lastIndexOf('_') <= 16) continue;
    out += text.slice(last, m.index) + REDACTED;
    last = m.index + word.length;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** `"api_key": "…"`, `"X-API-Key": "…"`, `"apiKey": "…"`: a name (checked alone: at most 89 characters) whose value goes. */
const KEY_NAME = /^[^"\\]{0,40}(?:api[-_ ]?key|x-api-key)[^"\\]{0,40}$/i;
const NAME_MAX = 89;

/** `\s` as JavaScript reads it. */
const isSpace = (c: number) =>
  (c >= 9 && c <= 13) ||
  c === 32 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

/**
 * The values of key-named JSON fields (what `("…key…"\s*:\s*)"(?:[^"\\]|\\.)*"` matched). A value left open (no
 * closing quote, or a backslash before a line end) fails every value that starts inside it the same way (their
 * quotes were escaped in its reading, so they read on in step with it): such a stretch is scanned once.
 */
function withoutKeyFields(text: string): string {
  let i = text.indexOf('"');
  if (i < 0) return text;
  let out = '';
  let last = 0;
  let openUntil = -1; // values starting before this are known to be left open
  const n = text.length;
  while (i >= 0) {
    let end = -1;
    let j = i + 1;
    while (j < n && j <= i + 1 + NAME_MAX && text.charCodeAt(j) !== 34 && text.charCodeAt(j) !== 92) j++;
    if (text.charCodeAt(j) === 34 && KEY_NAME.test(text.slice(i + 1, j))) {
      let k = j + 1;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      if (text.charCodeAt(k) === 58) {
        k++;
        while (k < n && isSpace(text.charCodeAt(k))) k++;
        if (text.charCodeAt(k) === 34 && k >= openUntil) {
          end = closingQuote(text, k + 1);
          if (end < 0) openUntil = -end;
          else {
            out += `${text.slice(last, k)}"${REDACTED}"`;
            last = end + 1;
          }
        }
      }
    }
    i = text.indexOf('"', end >= 0 ? end + 1 : i + 1);
  }
  return last === 0 ? text : out + text.slice(last);
}

/** A JSON string's content up to where it closes or breaks: one greedy pass, nothing to backtrack into. */
const STRING_BODY = /(?:[^"\\]|\\[^\n\r\u2028\u2029])*/y;

/** The index of the quote closing a JSON string from `p`, or minus where it was found left open. */
function closingQuote(text: string, p: number): number {
  STRING_BODY.lastIndex = p;
  STRING_BODY.exec(text);
  const end = STRING_BODY.lastIndex;
  return text.charCodeAt(end) === 34 ? end : -Math.max(end, 1);
}

const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/**
 * For a text cut short (the journal keeps 4 KB of a body): what the cut left of a key no longer looks like one (15 of
 * a key's 24 characters stayed, issue 42), so a key-shaped word touching the end, or a key-named field's value the cut
 * left open, is removed whole, as if it had been redacted before the cut. `redact` is the journal's redactor.
 */
export function redactCut(text: string, redact: Redactor): string {
  let start = text.length;
  while (start > 0 && isWordChar(text.charCodeAt(start - 1))) start--;
  const tail = start < text.length && /^[A-Za-z]{2,10}_/.test(text.slice(start, start + 12)) ? `${text.slice(0, start)}${REDACTED}` : text;
  // A closing quote lets the field pass see a value the cut left open; taken off again afterwards.
  const closed = redact(`${tail}"`);
  return closed.endsWith('"') ? closed.slice(0, -1) : closed;
}
