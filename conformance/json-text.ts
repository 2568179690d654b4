// JSON as the suite reads it: an integer too large for a JS number (a patient id sent as a number) is kept as its
// digits, a string, instead of being rounded by JSON.parse; so an id can be read, and used, whatever its JSON type.
// Whether the type was right is the rule's check's to judge, on the raw text (GEN-008).

/** JSON.parse, except that integer literals beyond Number.MAX_SAFE_INTEGER come back as strings of their digits. */
export function parseJson(text: string): unknown {
  return JSON.parse(quoteUnsafeIntegers(text));
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
