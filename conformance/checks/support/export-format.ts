// The notes export's formats judged by their bodies, for an export served under a generic download label.

/** Generic labels of a file download: an export served under one is judged by its body. */
export const DOWNLOAD_TYPES = ['application/octet-stream', 'text/plain'];

/** Is `text` in the export format: one JSON document (json), a JSON object a line (ndjson), not one JSON document (csv)? */
export function inFormat(format: string, text: string): boolean {
  const parse = (t: string): { value: unknown } | undefined => {
    try {
      return { value: JSON.parse(t) as unknown };
    } catch {
      return undefined;
    }
  };
  if (format === 'json') return !!parse(text);
  if (format === 'ndjson')
    return text
      .split('\n')
      .filter((l) => l.trim())
      .every((l) => {
        const v = parse(l)?.value;
        return !!v && typeof v === 'object' && !Array.isArray(v);
      });
  return !parse(text);
}
