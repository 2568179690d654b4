// Bounds on the values of an API JSON body, past which it is answered 400 naming the field (responses.ts readJson):
// - an integer past 2^53-1, which JSON.parse reads as another number (9007199254740993 as ...992), as the same
//   integer in a query is (validator.ts);
// - a string past MAX_STRING_CHARS: the source sets no length on most text fields (names, phone, address lines,
//   notes), and every row is kept in memory and written whole into each list page that shows it, so a field of a
//   megabyte cost a megabyte on every read (100 patients with 1 MB names took the mock from 121 MB to 1.25 GB after one
//   list page).
import type { FieldErrors } from './deps.ts';

/** Characters a string of an API JSON body may have (docs/mock.md, choices). */
export const MAX_STRING_CHARS = 10_000;

const INTEGER_MESSAGE = `must be an integer from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`;
const STRING_MESSAGE = `must be at most ${MAX_STRING_CHARS} characters (a bound of the mock: the source gives none)`;

/**
 * A run of 16 digits or a digit before an exponent: a JSON text writes an integer past 2^53-1 in no other way. Most
 * bodies have neither, nor a string longer than the bound (none can be longer than the text), and skip the walk.
 */
const MAY_HAVE_INEXACT_INTEGER = /\d{16}|\d[eE]/;

/** `{ field: message }` for every value of `value` (parsed from `text`) past its bound, or undefined. */
export function outOfBounds(text: string, value: unknown): FieldErrors | undefined {
  if (text.length <= MAX_STRING_CHARS && !MAY_HAVE_INEXACT_INTEGER.test(text)) return undefined;
  const details: FieldErrors = {};
  walk(value, '', details);
  return Object.keys(details).length ? details : undefined;
}

/** Field paths as the validator's details name them: `a.b`, an array's items by index. */
function walk(value: unknown, at: string, details: FieldErrors): void {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) details[at || 'body'] = INTEGER_MESSAGE;
  } else if (typeof value === 'string') {
    if (value.length > MAX_STRING_CHARS) details[at || 'body'] = STRING_MESSAGE;
  } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, at ? `${at}.${k}` : k, details);
}
