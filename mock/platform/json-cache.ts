// Rows serialized once, not on every answer: JSON.stringify of a list page is the largest single cost of a list
// request, and the same rows are listed and read again and again. Keyed by the row object itself, which is sound
// because a collection never changes a stored row: every change stores a new object (Collection.put), so a changed
// row is a new key and its old text is never served. Bounded without bookkeeping on a hit: two generations of weak
// entries; when the newer one has taken `max` rows, the older is dropped whole (a row still in use moves forward on
// its next read). Memory therefore follows the rows being read, never the collection's size, and is bounded by
// characters too: a generation also ends at `maxChars` of text, and a text longer than MAX_CACHED_TEXT is never kept
// (100 patients with 1 MB names held 200 MB of cached text after one list page: the rows twice over).
export interface JsonCache<T extends object> {
  /** The row's JSON text, as `serialize` writes it. */
  json(row: T): string;
}

const JSON_CACHE_ROWS = 5_000;
/** Characters of text one generation holds (two are kept): about 8 MB each for texts of one-byte characters. */
const JSON_CACHE_CHARS = 8_000_000;
/** A longer text is serialized on each read: held, it would cost more memory than its serialization costs time. */
export const MAX_CACHED_TEXT = 64 * 1024;

export function createJsonCache<T extends object>(
  serialize: (row: T) => string = JSON.stringify,
  max = JSON_CACHE_ROWS,
  maxChars = JSON_CACHE_CHARS,
): JsonCache<T> {
  let current = new WeakMap<T, string>();
  let older = new WeakMap<T, string>();
  let taken = 0;
  let chars = 0;
  const keep = (row: T, text: string) => {
    if (text.length > MAX_CACHED_TEXT) return text;
    if (taken >= max || chars + text.length > maxChars) {
      older = current;
      current = new WeakMap();
      taken = 0;
      chars = 0;
    }
    current.set(row, text);
    taken++;
    chars += text.length;
    return text;
  };
  return {
    json(row) {
      const hit = current.get(row);
      if (hit !== undefined) return hit;
      return keep(row, older.get(row) ?? serialize(row));
    },
  };
}
