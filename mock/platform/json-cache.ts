// Rows serialized once, not on every answer: JSON.stringify of a list page is the largest single cost of a list
// request, and the same rows are listed and read again and again. Keyed by the row object itself, which is sound
// because a collection never changes a stored row: every change stores a new object (Collection.put), so a changed
// row is a new key and its old text is never served. Bounded without bookkeeping on a hit: two generations of weak
// entries; when the newer one has taken `max` rows, the older is dropped whole (a row still in use moves forward on
// its next read). Memory therefore follows the rows being read, never the collection's size.
export interface JsonCache<T extends object> {
  /** The row's JSON text, as `serialize` writes it. */
  json(row: T): string;
}

const JSON_CACHE_ROWS = 5_000;

export function createJsonCache<T extends object>(serialize: (row: T) => string = JSON.stringify, max = JSON_CACHE_ROWS): JsonCache<T> {
  let current = new WeakMap<T, string>();
  let older = new WeakMap<T, string>();
  let taken = 0;
  const keep = (row: T, text: string) => {
    if (taken >= max) {
      older = current;
      current = new WeakMap();
      taken = 0;
    }
    current.set(row, text);
    taken++;
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
