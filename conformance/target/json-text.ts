// JSON as the suite reads it: an integer too large for a JS number (a patient id sent as a number) is kept as its
// digits, a string, instead of being rounded by JSON.parse; so an id can be read, and used, whatever its JSON type.
// Whether the type was right is the rule's check's to judge, on the raw text (GEN-008).

/** JSON.parse, except that integer literals beyond Number.MAX_SAFE_INTEGER come back as strings of their digits. */
export function parseJson(text: string): unknown {
  // Parsed once as is; scanned and parsed again only when a number came out unsafe (ids sent as strings, the usual
  // case, need no scan: the scan costs several times JSON.parse on a list page).
  const value: unknown = JSON.parse(text);
  return hasUnsafeNumber(value) ? JSON.parse(quoteUnsafeIntegers(text)) : value;
}

function hasUnsafeNumber(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v);
  if (!v || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some(hasUnsafeNumber);
  for (const k in v) if (hasUnsafeNumber((v as Record<string, unknown>)[k])) return true;
  return false;
}

const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** Wraps every integer literal outside strings that a JS number cannot hold exactly in quotes. */
function quoteUnsafeIntegers(text: string): string {
  if (!/\d{16}/.test(text)) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      // Copy the string literal whole, escapes included.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    NUMBER.lastIndex = i;
    const m = ch === '-' || (ch >= '0' && ch <= '9') ? NUMBER.exec(text) : null;
    if (m) {
      const lit = m[0];
      out += !m[1] && !m[2] && !Number.isSafeInteger(Number(lit)) ? `"${lit}"` : lit;
      i += lit.length;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}
