// JSON numbers a double cannot hold exactly: JSON.parse reads 9007199254740993 as 9007199254740992, so a body's
// integer past 2^53-1 would be stored as another number. Refused as the same integer in a query is (validator.ts).
import type { FieldErrors } from './deps.ts';

const LIMIT_MESSAGE = `must be an integer from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`;

/**
 * A run of 16 digits or a digit before an exponent: a JSON text writes an integer past 2^53-1 in no other way. Most
 * bodies have neither, and skip the walk.
 */
const MAY_HAVE_ONE = /\d{16}|\d[eE]/;

/** `{ field: message }` for every integer of `value` (parsed from `text`) past 2^53-1, or undefined. */
export function inexactIntegers(text: string, value: unknown): FieldErrors | undefined {
  if (!MAY_HAVE_ONE.test(text)) return undefined;
  const details: FieldErrors = {};
  walk(value, '', details);
  return Object.keys(details).length ? details : undefined;
}

/** Field paths as the validator's details name them: `a.b`, an array's items by index. */
function walk(value: unknown, at: string, details: FieldErrors): void {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) details[at || 'body'] = LIMIT_MESSAGE;
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) walk(v, at ? `${at}.${k}` : k, details);
}
