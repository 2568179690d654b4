// A reader for the notes export's CSV (RFC 4180), the counterpart of export.ts's csvRow, kept apart from export.ts
// (which reads the spec bundle on import) so the conformance suite and the mock's tests can share one copy.

/**
 * RFC 4180 rows: quoted cells may hold commas, doubled quotes and line breaks. Rows end at CRLF, or with `lenient`
 * also at a bare LF or CR (the conformance suite reads any server's export; the mock's own writes CRLF).
 */
export function parseCsv(text: string, { lenient = false } = {}): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const crlf = c === '\r' && text[i + 1] === '\n';
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (crlf || (lenient && (c === '\n' || c === '\r'))) {
      if (crlf) i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) row.push(cell), rows.push(row);
  return rows;
}
