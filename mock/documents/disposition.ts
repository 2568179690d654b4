// Content-Disposition for a stored document's name (RFC 6266): an ASCII fallback `filename` for old clients and the
// exact name in `filename*` (RFC 8187, UTF-8, percent-encoded), so any name (CJK, emoji, quotes, CR) makes a valid
// header instead of a 500.
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
